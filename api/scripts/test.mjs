// Runs the API tests once, on PostgreSQL: TEST_DATABASE_URL's server when set, otherwise an embedded
// server that test/global-setup.ts starts for the run (the same way the API starts its own).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jest = require.resolve('jest/bin/jest');
console.log(
  `\n== API tests on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL (TEST_DATABASE_URL)' : 'an embedded PostgreSQL server started for the run'} ==`,
);
const result = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(result.status ?? 1);
