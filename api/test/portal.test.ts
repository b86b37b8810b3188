import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ENTRY_CACHE_CONTROL } from '../src/plugins/portal';
import { createTestContext, type TestContext } from './helpers';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-portal-'));
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

/** A built file with the Brotli and gzip copies the build writes beside it. */
const writeCompressed = (file: string, text: string) => {
  write(file, text);
  fs.writeFileSync(path.join(root, `${file}.br`), zlib.brotliCompressSync(text));
  fs.writeFileSync(path.join(root, `${file}.gz`), zlib.gzipSync(text));
};
const SCRIPT = `console.log(${JSON.stringify('shell '.repeat(200))});`;
const HASHED = '/main.fedcba9876543210fedc.js';

let ctx: TestContext;
beforeAll(async () => {
  writeCompressed(
    'shell/dist/index.html',
    '<!doctype html><title>Sistem Sertifikasi</title><div id="root"></div>',
  );
  writeCompressed(
    'shell/dist/login.html',
    '<!doctype html><title>Sistem Sertifikasi</title><div id="root"><div class="boot"><h1>Login</h1></div></div>',
  );
  write('shell/dist/main.0123456789abcdef0123.js', 'console.log("shell")');
  writeCompressed('mf-master-data/dist/mf-manifest.json', '{"name":"mf_master_data"}');
  write('mf-master-data/dist/remoteEntry.js', 'var mf_master_data;');
  writeCompressed(`shell/dist${HASHED}`, SCRIPT);
  write(`shell/dist${HASHED}.map`, '{"version":3,"sources":["webpack://shell/src/App.tsx"]}');
  write('mf-master-data/dist/routes.0123456789abcdef0123.js.map', '{"version":3}');
  writeCompressed('mf-master-data/dist/app.css', 'body{margin:0}'.repeat(50));
  ctx = await createTestContext({
    PORTAL_ROOT: root,
    REMOTE_MF_REPORTS_URL: 'https://cdn.example.com/reports/v2',
  });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the portal on the API origin', () => {
  it.each([
    '/',
    '/login',
    '/user',
    '/company-certificate/3f2a',
    '/check-certification-company?cert=A%2F1',
    '/no/such/page',
  ])('answers the shell’s index.html to a direct hit on %s', async (url) => {
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed bundles with long caching, and module builds under /modules/<folder>/', async () => {
    const bundle = await ctx.app.inject({ url: '/main.0123456789abcdef0123.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['cache-control']).toContain('immutable');
    const manifest = await ctx.app.inject({ url: '/modules/mf-master-data/mf-manifest.json' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    expect(manifest.json()).toEqual({ name: 'mf_master_data' });
  });

  it('keeps the entry points a minute, then five more while revalidating, and answers a revalidation with 304', async () => {
    expect(ENTRY_CACHE_CONTROL).toBe('public, max-age=60, stale-while-revalidate=300');
    for (const url of [
      '/login',
      '/modules/mf-master-data/mf-manifest.json',
      '/modules/mf-master-data/remoteEntry.js',
    ]) {
      const first = await ctx.app.inject({ url });
      expect(first.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
      expect(first.headers.etag).toBeTruthy();
      const again = await ctx.app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('answers /login with the page that draws the sign-in form, every other route with index.html', async () => {
    const login = await ctx.app.inject({ url: '/login?next=%2Fuser', headers: { 'accept-encoding': 'br' } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-encoding']).toBe('br');
    expect(login.headers['content-type']).toMatch(/text\/html/);
    expect(login.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    expect(zlib.brotliDecompressSync(login.rawPayload).toString()).toContain('<div class="boot">');
    const other = await ctx.app.inject({ url: '/user' });
    expect(other.body).not.toContain('class="boot"');
  });

  it('keeps remotes.json as briefly, with an ETag that changes with its content', async () => {
    const res = await ctx.app.inject({ url: '/modules/remotes.json' });
    expect(res.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await ctx.app.inject({ url: '/modules/remotes.json', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    const weak = await ctx.app.inject({
      url: '/modules/remotes.json',
      headers: { 'if-none-match': `W/${etag}` },
    });
    expect(weak.statusCode).toBe(304);
    const other = await ctx.app.inject({
      url: '/modules/remotes.json',
      headers: { 'if-none-match': '"old"' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.json().remotes).toHaveLength(2);
  });

  it('tells the shell where each remote is: built ones here, configured ones elsewhere, the rest absent', async () => {
    const res = await ctx.app.inject({ url: '/modules/remotes.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      remotes: [
        {
          name: 'mf_master_data',
          folder: 'mf-master-data',
          entry: '/modules/mf-master-data/mf-manifest.json',
        },
        {
          name: 'mf_reports',
          folder: 'mf-reports',
          entry: 'https://cdn.example.com/reports/v2/mf-manifest.json',
        },
      ],
    });
  });

  it('lets the page load scripts and styles from a remote deployed on another origin', async () => {
    const res = await ctx.app.inject({ url: '/user' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/cdn\.example\.com/);
    expect(csp).toMatch(/style-src [^;]*https:\/\/cdn\.example\.com/);
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('keeps JSON 404s for API, image and module paths and for missing files', async () => {
    for (const url of [
      '/api/nope',
      '/images/none.png',
      '/modules/mf-certification/remoteEntry.js',
      '/missing.js',
    ]) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not-found' });
    }
  });
});

describe('precompressed copies', () => {
  const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    ctx.app.inject({
      method,
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
  const decoded = (res: Awaited<ReturnType<typeof get>>) => {
    const encoding = res.headers['content-encoding'];
    if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString();
    if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString();
    return res.rawPayload.toString();
  };

  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['*', 'gzip'],
  ])('sends a script as the best copy for Accept-Encoding "%s" (%s)', async (accept, encoding) => {
    const res = await get(HASHED, accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    expect(decoded(res)).toBe(SCRIPT);
  });

  it.each([undefined, 'identity', 'br;q=0, gzip;q=0', 'zstd'])(
    'sends the file itself when Accept-Encoding is %s',
    async (accept) => {
      const res = await get(HASHED, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-length']).toBe(String(SCRIPT.length));
      expect(res.body).toBe(SCRIPT);
    },
  );

  it('answers HEAD with the headers of the copy a GET would send, and no body', async () => {
    const head = await get(HASHED, 'br, gzip', 'HEAD');
    const full = await get(HASHED, 'br, gzip');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers.vary).toMatch(/accept-encoding/i);
    expect(head.rawPayload.length).toBe(0);
  });

  it('serves a byte range of the file itself', async () => {
    const res = await ctx.app.inject({ url: HASHED, headers: { range: 'bytes=0-10' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-10/${SCRIPT.length}`);
    expect(res.body).toBe(SCRIPT.slice(0, 11));
  });

  it('sends index.html compressed on client-side routes, kept briefly', async () => {
    for (const url of ['/', '/company', '/company-certificate/3f2a']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decoded(res)).toContain('<div id="root">');
    }
    const head = await get('/company', 'gzip', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.rawPayload.length).toBe(0);
  });

  it('sends manifests and stylesheets compressed with their own types and caching', async () => {
    const manifest = await get('/modules/mf-master-data/mf-manifest.json', 'gzip');
    expect(manifest.headers['content-encoding']).toBe('gzip');
    expect(manifest.headers['content-type']).toMatch(/^application\/json/);
    expect(manifest.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    expect(JSON.parse(decoded(manifest))).toEqual({ name: 'mf_master_data' });
    const css = await get('/modules/mf-master-data/app.css', 'br');
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('no-cache');
    expect(decoded(css)).toContain('body{margin:0}');
  });

  it('never serves source maps, even one left in a build folder', async () => {
    for (const url of [`${HASHED}.map`, '/modules/mf-master-data/routes.0123456789abcdef0123.js.map']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not-found' });
    }
  });
});
