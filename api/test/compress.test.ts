import zlib from 'node:zlib';
import Fastify from 'fastify';
import compressPlugin, { pickEncoding } from '../src/plugins/compress';
import { auth, useTestContext } from './helpers';

const ctx = useTestContext();
beforeAll(async () => {
  // Enough companies for a list answer of several KB.
  for (let i = 1; i <= 12; i++) {
    await ctx.make.company(`PT Kompresi Nusantara ${String(i).padStart(2, '0')}`);
  }
});

const list = (acceptEncoding?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/company?paginate=50',
    headers: { ...auth(ctx.adminToken), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
  });

describe('JSON answers of the API', () => {
  it('are compressed with brotli or gzip as the client accepts, with Vary: Accept-Encoding', async () => {
    const plain = await list();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.length).toBeGreaterThan(4096);
    const expected = plain.json<{ total: number }>();
    expect(expected.total).toBe(12);

    const br = await list('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(expected);

    const gz = await list('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(expected);

    const refused = await list('br;q=0, gzip;q=0.5');
    expect(refused.headers['content-encoding']).toBe('gzip');
    const identity = await list('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toEqual(expected);
  });

  it('stay uncompressed below about a kilobyte', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { ...auth(ctx.adminToken), 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ username: 'admin' });
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/api/tidak-ada',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.json()).toMatchObject({ code: expect.any(String) });
  });
});

describe('the compression hook', () => {
  it('leaves replies that already carry a Content-Encoding, and non-JSON answers, alone', async () => {
    const app = Fastify();
    await app.register(compressPlugin);
    const precompressed = zlib.gzipSync(JSON.stringify({ data: 'x'.repeat(5000) }));
    app.get('/pre', async (_req, reply) =>
      reply.header('content-type', 'application/json').header('content-encoding', 'gzip').send(precompressed),
    );
    app.get('/text', async (_req, reply) => reply.type('text/plain').send('y'.repeat(5000)));
    await app.ready();
    const pre = await app.inject({ method: 'GET', url: '/pre', headers: { 'accept-encoding': 'br' } });
    expect(pre.headers['content-encoding']).toBe('gzip');
    expect(pre.rawPayload.equals(precompressed)).toBe(true);
    const text = await app.inject({ method: 'GET', url: '/text', headers: { 'accept-encoding': 'br' } });
    expect(text.headers['content-encoding']).toBeUndefined();
    expect(text.body).toBe('y'.repeat(5000));
    await app.close();
  });

  it('reads Accept-Encoding with q-values and wildcards', () => {
    expect(pickEncoding(undefined)).toBeUndefined();
    expect(pickEncoding('')).toBeUndefined();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0.8')).toBe('gzip');
    expect(pickEncoding('br;q=0')).toBeUndefined();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate')).toBeUndefined();
    expect(pickEncoding('x-gzip')).toBe('gzip');
  });
});
