/**
 * The jest setup every browser package shares: jsdom with Node's fetch/Request/Response
 * (jest-fixed-jsdom), TypeScript + JSX through @swc/jest, ky 2 (ESM-only) compiled to CommonJS, and
 * the shared test setup (jest-dom matchers, Node's File). The network is faked per test.
 */
const path = require('node:path');

module.exports = function frontendJest(displayName, extra = {}) {
  return {
    displayName,
    testEnvironment: 'jest-fixed-jsdom',
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            target: 'es2022',
            transform: { react: { runtime: 'automatic' } },
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    transformIgnorePatterns: ['/node_modules/(?!ky/)'],
    setupFilesAfterEnv: [path.join(__dirname, 'jest.frontend.setup.js')],
    // MUI and user-event in jsdom are slow on a busy 2-core machine.
    testTimeout: 20000,
    testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
    ...extra,
  };
};
