// Bundles the API (and the shared-contracts source it imports) into dist/ with esbuild.
// Packages from node_modules stay external. `--if-stale` skips the build when dist/ is newer than
// every source file, so `npm start` right after `npm ci` builds once and then starts fast.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const entries = { server: 'src/server.ts', cli: 'src/cli.ts' };
const sources = [path.join(root, 'src'), path.join(root, '..', 'shared-contracts', 'src')];

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

if (process.argv.includes('--if-stale')) {
  const outputs = Object.keys(entries).map((name) => path.join(root, 'dist', `${name}.js`));
  if (outputs.every((o) => fs.existsSync(o))) {
    const built = Math.min(...outputs.map((o) => fs.statSync(o).mtimeMs));
    if (sources.every((s) => newest(s) < built)) process.exit(0);
  }
}

await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // Everything from npm stays a normal require; our workspace packages are bundled from source.
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@sertifikasi/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
console.log('api built to dist/');
