import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ENTRY_CACHE_CONTROL } from '../src/plugins/portal';
import { createTestContext, type TestContext } from './helpers';

/** A built portal holding the shell and mf-public-check with its standalone page. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-public-page-'));
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const PAGE =
  '<!doctype html><title>Cek Sertifikat</title><div id="root"></div>' +
  '<script defer src="/modules/mf-public-check/page/page.0123456789abcdef0123.js"></script>';

let ctx: TestContext;
beforeAll(async () => {
  write(
    'shell/dist/index.html',
    '<!doctype html><title>Sistem Sertifikasi</title><div id="shell-root"></div>',
  );
  write('mf-public-check/dist/mf-manifest.json', '{"name":"mf_public_check"}');
  write('mf-public-check/dist/remoteEntry.js', 'var mf_public_check;');
  write('mf-public-check/dist/page/index.html', PAGE);
  fs.writeFileSync(path.join(root, 'mf-public-check/dist/page/index.html.br'), zlib.brotliCompressSync(PAGE));
  write('mf-public-check/dist/page/page.0123456789abcdef0123.js', 'console.log("public page")');
  ctx = await createTestContext({ PORTAL_ROOT: root });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a direct hit on a public check page (a QR scan)', () => {
  it.each([
    '/check-certification-company',
    '/check-certification-company?cert=QMS%2F2024%2F001',
    '/check-certification-training?cert=TRN/1',
    '/check-certification-training/',
  ])('%s answers the public-check module’s own page, not the shell', async (url) => {
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe(ENTRY_CACHE_CONTROL);
    expect(res.body).toContain('/modules/mf-public-check/page/page.0123456789abcdef0123.js');
    expect(res.body).not.toContain('shell-root');
  });

  it('sends the page compressed when the browser accepts it', async () => {
    const res = await ctx.app.inject({
      url: '/check-certification-company?cert=A',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(PAGE);
  });

  it('serves the page’s script with the module, and leaves every other route to the shell', async () => {
    const script = await ctx.app.inject({
      url: '/modules/mf-public-check/page/page.0123456789abcdef0123.js',
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toMatch(/immutable/);
    for (const url of ['/', '/company-certificate', '/check-certification-companyX']) {
      expect((await ctx.app.inject({ url })).body).toContain('shell-root');
    }
  });
});
