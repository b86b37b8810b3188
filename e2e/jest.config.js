/** End-to-end suite: builds and starts the system once (global setup), then drives it in headless Chromium. */
module.exports = {
  displayName: 'e2e',
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  globalSetup: '<rootDir>/src/global-setup.ts',
  globalTeardown: '<rootDir>/src/global-teardown.ts',
  testTimeout: 120000,
  // One browser-driven file at a time against the one server.
  maxWorkers: 1,
};
