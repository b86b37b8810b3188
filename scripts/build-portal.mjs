// Builds whatever part of the portal is missing or older than its sources (`npm start` runs it before
// starting the API, which serves the portal, its modules and the API on one port).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** The micro-frontends: the one list (shared-contracts/src/remotes.json) that the shell and the API use. */
const REMOTES = JSON.parse(
  fs.readFileSync(path.join(root, 'shared-contracts', 'src', 'remotes.json'), 'utf8'),
);
/** The frontend parts, in build order; each builds on its own into <folder>/dist. */
export const FRONTENDS = ['shell', ...REMOTES.map((r) => r.folder)];
const SHARED = ['shared-contracts/src', 'shared-auth/src', 'shared-ui/src', 'webpack.base.js', 'webpack'];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of fs.readdirSync(p)) {
    if (entry === '__tests__' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    t = Math.max(t, newest(path.join(p, entry)));
  }
  return t;
}

export function staleFrontends() {
  const shared = Math.max(...SHARED.map((p) => newest(path.join(root, p))));
  return FRONTENDS.filter((folder) => {
    const marker = path.join(root, folder, 'dist', 'mf-manifest.json');
    if (!fs.existsSync(marker)) return true;
    const built = fs.statSync(marker).mtimeMs;
    const sources = Math.max(
      shared,
      newest(path.join(root, folder, 'src')),
      newest(path.join(root, folder, 'webpack.config.js')),
    );
    return sources > built;
  });
}

function run(args, cwd) {
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const webpack = path.join(root, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
  const force = process.argv.includes('--all');
  for (const folder of force ? FRONTENDS : staleFrontends()) {
    console.log(`Building ${folder} ...`);
    run([webpack, '--mode', 'production'], path.join(root, folder));
  }
}
