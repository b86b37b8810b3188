/**
 * `npm run db:generate --workspace api` (drizzle-kit) writes the next migration from what differs
 * between src/db/schema.ts and the latest snapshot in drizzle/meta/, following the snapshots' chain.
 * The chain must be whole and its last snapshot must be the schema as it is, or the next engineer's
 * generated migration would create again tables that migrations already made (or fail to run).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const apiRoot = path.resolve(__dirname, '..');
const sqlFiles = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.sql'));

it('drizzle-kit generate finds nothing to write: the snapshots chain and the last one is schema.ts', () => {
  // drizzle-kit takes `--out` relative to its working directory: a scratch copy inside api/.
  const scratch = fs.mkdtempSync(path.join(apiRoot, '.snapshot-check-'));
  try {
    fs.cpSync(path.join(apiRoot, 'drizzle'), path.join(scratch, 'drizzle'), { recursive: true });
    const out = execFileSync(
      process.execPath,
      [
        path.join(path.dirname(require.resolve('drizzle-kit')), 'bin.cjs'),
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        './src/db/schema.ts',
        '--out',
        `./${path.relative(apiRoot, scratch)}/drizzle`,
        '--name',
        'check',
      ],
      { cwd: apiRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toMatch(/No schema changes/);
    expect(sqlFiles(path.join(scratch, 'drizzle'))).toEqual(sqlFiles(path.join(apiRoot, 'drizzle')));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
