// The fast tier (`npm run test:unit`): the tests under test/unit, which need no PostgreSQL, no server and no generated
// Prisma client. It is the suite's configuration without the database its global setup starts, and without forced
// exit, which only servers left running need. `npm test` runs these tests too, with all the others.
const { globalSetup: _setup, globalTeardown: _teardown, forceExit: _forceExit, ...suite } = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = { ...suite, testMatch: ['<rootDir>/test/unit/**/*.test.ts'] };
