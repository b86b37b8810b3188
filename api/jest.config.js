/** API tests: app.inject against the embedded database (default) or PostgreSQL (TEST_DB=postgres). */
module.exports = {
  displayName: process.env.TEST_DB === 'postgres' ? 'api (postgres)' : 'api (pglite)',
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // ESM-only packages (content-disposition, cookie) are compiled to CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|cookie)/)'],
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
