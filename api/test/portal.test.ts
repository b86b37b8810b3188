import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, type TestContext } from './helpers';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-portal-'));
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

let ctx: TestContext;
beforeAll(async () => {
  write('shell/dist/index.html', '<!doctype html><title>Sistem Sertifikasi</title><div id="root"></div>');
  write('shell/dist/main.0123456789abcdef0123.js', 'console.log("shell")');
  write('mf-master-data/dist/mf-manifest.json', '{"name":"mf_master_data"}');
  write('mf-master-data/dist/remoteEntry.js', 'var mf_master_data;');
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
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed bundles with long caching, and module builds under /modules/<folder>/', async () => {
    const bundle = await ctx.app.inject({ url: '/main.0123456789abcdef0123.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['cache-control']).toContain('immutable');
    const manifest = await ctx.app.inject({ url: '/modules/mf-master-data/mf-manifest.json' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.json()).toEqual({ name: 'mf_master_data' });
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
