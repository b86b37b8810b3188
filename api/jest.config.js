/** API tests: app.inject against PostgreSQL (the embedded server, or TEST_DATABASE_URL's). */
module.exports = {
  displayName: 'api',
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // ESM-only packages (content-disposition, cookie, pg-boss and its own) are compiled to CommonJS for jest.
  transformIgnorePatterns: [
    '/node_modules/(?!(content-disposition|cookie|pg-boss|serialize-error|non-error|rrule-temporal|temporal-spec)/)',
  ],
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
