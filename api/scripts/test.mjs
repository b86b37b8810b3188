// Runs the API tests on the embedded database, then again on PostgreSQL when TEST_DATABASE_URL is set.
// PGlite loads parts of itself with dynamic import(), which jest's sandbox only allows with
// --experimental-vm-modules.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jest = require.resolve('jest/bin/jest');
const args = process.argv.slice(2);
const targets = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
if (process.env.TEST_DB_ONLY) targets.splice(0, targets.length, process.env.TEST_DB_ONLY);

for (const target of targets) {
  console.log(
    `\n== API tests on ${target === 'postgres' ? 'PostgreSQL (TEST_DATABASE_URL)' : 'the embedded database (PGlite)'} ==`,
  );
  const result = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', jest, ...args],
    {
      stdio: 'inherit',
      env: { ...process.env, TEST_DB: target, NODE_ENV: 'test' },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
