/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // the fault suite has its own configuration and command (jest.faults.config.js, `npm run test:faults`)
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/faults/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  // Servers run inside the test process. On a loaded machine a run once stayed open after all its results, held by a
  // timer re-armed every 2 s (as the change feed's reconnection is) once the suite's PostgreSQL had stopped.
  forceExit: true,
};
