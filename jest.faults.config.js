// The fault suite (`npm run test:faults`): test/faults, against the HA topology of deploy/ha that it brings up itself
// (Patroni, etcd and HAProxy from Debian's packages: `bash scripts/test-tools.sh --faults` installs them). It needs
// no database of the suite's global setup.
const { globalSetup: _setup, globalTeardown: _teardown, testPathIgnorePatterns: _ignored, ...suite } = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = { ...suite, testMatch: ['<rootDir>/test/faults/**/*.test.ts'] };
