/**
 * @jest-environment node
 *
 * The production build of webpack.base.js: no source maps, a Brotli and a gzip copy
 * beside every script and manifest; and the React Router entry the portal shares covers every name
 * the packages import.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import webpack, { type Configuration } from 'webpack';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface BaseConfig {
  createConfig: (o: {
    dir: string;
    name: string;
    exposes?: Record<string, string>;
  }) => (env: unknown, argv: { mode: string }) => Configuration;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createConfig } = require(path.join(ROOT, 'webpack.base.js')) as BaseConfig;

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('a production build', () => {
  // Inside the repository (its git-ignored tmp/), so that the build resolves its loaders and shared
  // packages as ours do.
  const cache = path.join(ROOT, 'tmp');
  let dir = '';
  let dist = '';

  beforeAll(async () => {
    // Module Federation calls webpack APIs that webpack marks deprecated; jest would make that throw.
    process.noDeprecation = true;
    fs.mkdirSync(cache, { recursive: true });
    dir = fs.mkdtempSync(path.join(cache, 'build-test-'));
    dist = path.join(dir, 'dist');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fixture', dependencies: {} }));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'src', 'screen.ts'),
      `export const rows: string[] = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `Baris ke-${i}`))};\n` +
        'export function count(): number { return rows.length; }\n',
    );
    const config = createConfig({ dir, name: 'mf_fixture', exposes: { './screen': './src/screen.ts' } })(
      {},
      { mode: 'production' },
    );
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack(config, (err, result) =>
        err || !result ? reject(err ?? new Error('no stats')) : resolve(result),
      ),
    );
    expect(stats.compilation.errors.map((e) => e.message)).toEqual([]);
  }, 120_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes no source map and points to none', () => {
    const written = files(dist);
    expect(written).toContain('remoteEntry.js');
    expect(written.filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const f of written.filter((name) => name.endsWith('.js'))) {
      expect(fs.readFileSync(path.join(dist, f), 'utf8')).not.toMatch(/sourceMappingURL=/);
    }
  });

  it('writes Brotli and gzip copies of every script and manifest, each decoding to the file', () => {
    const written = files(dist);
    const originals = written.filter((f) => /\.(js|json)$/.test(f));
    expect(originals).toEqual(expect.arrayContaining(['remoteEntry.js', 'mf-manifest.json']));
    for (const f of originals) {
      const original = fs.readFileSync(path.join(dist, f));
      if (original.length < 1024) continue; // a tiny file may not get smaller
      const br = fs.readFileSync(path.join(dist, `${f}.br`));
      const gz = fs.readFileSync(path.join(dist, `${f}.gz`));
      expect(br.length).toBeLessThan(original.length);
      expect(gz.length).toBeLessThan(original.length);
      expect(zlib.brotliDecompressSync(br).equals(original)).toBe(true);
      expect(zlib.gunzipSync(gz).equals(original)).toBe(true);
    }
  });
});

describe('the shared React Router entry (webpack/react-router-dom.mjs)', () => {
  const entry = fs.readFileSync(path.join(ROOT, 'webpack', 'react-router-dom.mjs'), 'utf8');
  const exported = new Set(
    [...entry.matchAll(/export \{([^}]*)\}/g)].flatMap((m) =>
      m[1]!
        .split(',')
        .map((name) => name.replace(/\/\/.*$/gm, '').trim())
        .filter(Boolean),
    ),
  );

  function sources(dir: string): string[] {
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name));
  }

  it('exports every name the packages import from react-router-dom', () => {
    const packages = fs
      .readdirSync(ROOT)
      .filter((name) => name === 'shell' || name.startsWith('mf-') || name.startsWith('shared-'));
    const imported = new Set<string>();
    for (const file of packages.flatMap((p) => sources(path.join(ROOT, p, 'src')))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'react-router-dom'/g)) {
        if (m[1]) continue; // types only
        for (const part of m[2]!.split(',')) {
          const name = part.trim().split(/\s+as\s+/)[0]!;
          if (name && !name.startsWith('type ')) imported.add(name);
        }
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    expect([...imported].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('exports only names React Router has', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const router = require('react-router') as Record<string, unknown>;
    expect([...exported].filter((name) => !(name in router))).toEqual([]);
  });
});
