import net from 'node:net';
import { Readable, Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import * as yup from 'yup';
import { buildApp, LOG_REDACT } from '../src/app';
import { loadConfig } from '../src/config';
import { validateWith } from '../src/lib/validation';
import { ADMIN_PASSWORD, auth, call, useTestContext, expect422, postRaw } from './helpers';

/** Input, errors and logs (docs/rules.md#api-conventions). */

const ctx = useTestContext();

const get = (url: string) => call(ctx.app, ctx.adminToken, 'GET', url);
/** Every message of an error answer. */
const messages = (res: LightMyRequestResponse): string[] => {
  const body = res.json<{ message: string; errors?: Record<string, string> }>();
  return [body.message, ...Object.values(body.errors ?? {})];
};
const ENGLISH = /\b(must|field|is a required|valid UUID|type|final value|at most|at least)\b/i;

/** The headers helmet puts on every answer. */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
}

/** A multipart body with text fields. */
function multipart(fields: Record<string, string>) {
  const boundary = 'batas-uji-123';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join('')}--${boundary}--\r\n`,
  };
}

describe('control characters', () => {
  it('a NUL in a sign-in answers 422, not 500', async () => {
    for (const payload of [
      { username: 'ad\u0000min', password: ADMIN_PASSWORD },
      { username: 'admin', password: `${ADMIN_PASSWORD}\u0000` },
    ]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('validation');
      expect(res.json().message).toMatch(/tidak boleh berisi karakter kontrol/);
    }
  });

  it('a NUL in a list search answers 422 on every list', async () => {
    for (const list of ['/api/company', '/api/user', '/api/roles']) {
      const res = await get(`${list}?search=a%00b`);
      expect422.errors(res, { search: 'Pencarian tidak boleh berisi karakter kontrol' });
    }
  });

  it('names refuse control characters, newlines and tabs; a multi-line address keeps its lines', async () => {
    for (const name of ['PT A\u0000B', 'PT A\nB', 'PT A\tB', 'PT A\u001bB', 'PT A\u0085B']) {
      const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
        name,
        website: 'https://kontrol.co.id',
      });
      expect422.errors(res, { name: 'Nama Perusahaan tidak boleh berisi karakter kontrol' });
    }
    const address = 'Jl. Merdeka 1\nJakarta\tPusat';
    const ok = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Alamat Dua Baris',
      website: 'https://dua-baris.co.id',
      address,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().address).toBe(address);
    const nul = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Alamat Nul',
      website: 'https://nul.co.id',
      address: 'Jl. \u0000',
    });
    expect422.errors(nul, { address: 'Alamat tidak boleh berisi karakter kontrol' });
  });

  it('multipart fields and role names are held to the same rule', async () => {
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/company',
      ...multipart({ name: 'PT Form\u0000Nul', website: 'https://form.co.id' }),
      headers: {
        ...auth(ctx.adminToken),
        ...multipart({ name: 'PT Form\u0000Nul', website: 'https://form.co.id' }).headers,
      },
    });
    expect(form.statusCode).toBe(422);
    expect(form.json().errors).toHaveProperty('name');
    const role = await call(ctx.app, ctx.adminToken, 'POST', '/api/roles', {
      name: 'Peran\u0000',
      permission: [],
    });
    expect422.errors(role, { name: 'Nama Akses tidak boleh berisi karakter kontrol' });
  });

  it('a new password with a NUL in the profile answers 422, not 500', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'PUT', '/api/profile', {
      name: 'Admin\u0000',
      username: 'admin',
      password: 'password-baru-1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('name');
  });

  it('the API guard refuses control characters even where a schema has no rule of its own', () => {
    const schema = yup.object({ note: yup.string(), tags: yup.array(yup.string()) });
    expect(validateWith(schema, { note: 'biasa', tags: ['a'] }, 'body')).toEqual({
      note: 'biasa',
      tags: ['a'],
    });
    for (const data of [{ note: 'a\u0000b' }, { note: 'a\nb' }, { tags: ['x\u0007'] }]) {
      expect(() => validateWith(schema, data, 'body')).toThrow(
        expect.objectContaining({ statusCode: 422, message: 'Isian tidak boleh berisi karakter kontrol' }),
      );
    }
  });
});

describe('query parameters', () => {
  it('numbers only as numbers or plain decimal strings', async () => {
    for (const query of [
      'page=0x10',
      'paginate=1e2',
      'page=1e1',
      'page=Infinity',
      'page=%201%200',
      'page=',
    ]) {
      const res = await get(`/api/company?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('validation');
    }
    expect((await get('/api/company?page=0x10')).json().errors).toEqual({
      page: 'Halaman harus berupa angka',
    });
    const ok = await get('/api/company?page=1&paginate=50');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ current_page: 1, per_page: 50 });
  });

  it('a single-valued parameter given twice answers 422, not one of the two', async () => {
    const page = await get('/api/company?page=1&page=2');
    expect422.errors(page, { page: 'Parameter page hanya boleh diberikan satu kali' });
    const search = await get('/api/user?search=a&search=b');
    expect422.errors(search, { search: 'Parameter search hanya boleh diberikan satu kali' });
  });

  it('unknown parameters answer 422 on every route, lists without paging included', async () => {
    for (const url of [
      '/api/select/company?foo=1',
      '/api/select/roles?x=',
      '/api/profile?debug=1',
      '/api/roles?q=x',
    ]) {
      const res = await get(url);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/^Parameter tidak dikenal: /);
    }
    expect((await get('/api/select/company')).statusCode).toBe(200);
  });

  it('no English default of the validation library reaches a client', async () => {
    const answers = [
      await get('/api/company?search=a&search=b'),
      await get(`/api/roles?company_id=${'x'.repeat(65)}`),
      await call(ctx.app, ctx.adminToken, 'POST', '/api/roles', { name: 'Peran', permission: [null] }),
      await call(ctx.app, ctx.adminToken, 'POST', '/api/roles', { name: 'Peran', permission: 'semua' }),
      await call(ctx.app, ctx.adminToken, 'POST', '/api/company', { name: ['x'], website: 5 }),
      await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { username: {}, password: [] } }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(422);
      for (const message of messages(res)) expect(message).not.toMatch(ENGLISH);
    }
    expect(answers[2]!.json().errors).toEqual({ 'permission[0]': 'permission[0] wajib diisi' });
  });
});

describe('multipart only where uploads are taken', () => {
  it('answers 415 on the sign-in and other non-upload routes, in the API shape', async () => {
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      ...multipart({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.statusCode).toBe(415);
    expect(login.json()).toEqual({
      code: 'unsupported-media-type',
      message: 'Permintaan ini tidak menerima unggahan file',
    });
    expectSecurityHeaders(login.headers);
    const form = multipart({ name: 'Peran Form' });
    const role = await ctx.app.inject({
      method: 'POST',
      url: '/api/roles',
      payload: form.payload,
      headers: { ...auth(ctx.adminToken), ...form.headers },
    });
    expect(role.statusCode).toBe(415);
    const unknown = await ctx.app.inject({ method: 'POST', url: '/api/tidak-ada', ...multipart({ a: 'b' }) });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses before reading the body', async () => {
    let read = 0;
    const body = new Readable({
      read() {
        read++;
        this.push(Buffer.alloc(64 * 1024, 'a'));
        if (read > 200) this.push(null);
      },
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(13 * 1024 * 1024),
      },
      payload: body,
    });
    expect(res.statusCode).toBe(415);
    // At most what the stream buffers ahead by itself, never the 13 MB.
    expect(read).toBeLessThan(5);
  });

  it('upload routes still take multipart', async () => {
    const form = multipart({ name: 'PT Unggah', website: 'https://unggah.co.id' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/company',
      payload: form.payload,
      headers: { ...auth(ctx.adminToken), ...form.headers },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe("the framework's own errors", () => {
  it('a malformed URL, an unknown route, unreadable JSON and a wrong content type answer {code, message} with the security headers', async () => {
    const cases: [LightMyRequestResponse, number][] = [
      [await ctx.app.inject({ url: '/api/company/%E0%A4%A' }), 400],
      [await ctx.app.inject({ url: '/api/tidak-ada' }), 404],
      [await postRaw(ctx.app, '/api/login', 'application/json', '{"username":'), 400],
      [await postRaw(ctx.app, '/api/login', 'text/plain', 'admin'), 400],
    ];
    for (const [res, status] of cases) {
      expect(res.statusCode).toBe(status);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'message']);
      for (const message of messages(res)) expect(message).not.toMatch(ENGLISH);
      expectSecurityHeaders(res.headers);
    }
    expect(cases[0]![0].json()).toEqual({ code: 'bad-request', message: 'Permintaan tidak dapat dibaca' });
  });

  it('a header too large (431) and an unparsable request (400) answer the same way on the wire', async () => {
    const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: ctx.database.db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        let out = '';
        const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
        socket.on('data', (d: Buffer) => (out += d.toString()));
        socket.on('error', () => resolve(out));
        socket.on('close', () => resolve(out));
      });
    const parse = (text: string) => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [status = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      return { status, headers, body: JSON.parse(body) as unknown };
    };
    try {
      const big = parse(
        await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`),
      );
      expect(big.status).toMatch(/^HTTP\/1\.1 431 /);
      expect(big.body).toEqual({ code: 'too-large', message: 'Header permintaan terlalu besar' });
      expectSecurityHeaders(big.headers);
      const garbage = parse(await raw('GET /api/health HTTP/1.1\r\nHost x\r\n\r\n'));
      expect(garbage.status).toMatch(/^HTTP\/1\.1 400 /);
      expect(garbage.body).toEqual({ code: 'bad-request', message: 'Permintaan tidak dapat dibaca' });
      expectSecurityHeaders(garbage.headers);
    } finally {
      await app.close();
    }
  });
});

describe('logs', () => {
  let app: FastifyInstance;
  const lines: string[] = [];
  const SECRET = 'rahasia-$argon2id$v=19$m=19456-penanda';
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: LOG_REDACT }, stream);
    app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: ctx.database.db, logger });
    // A query that fails inside the database, with a recognisable secret among its parameters.
    app.get('/api/uji-gagal', { config: { access: { public: true } } }, async () =>
      app.db.execute(sql`insert into tabel_yang_tidak_ada (kolom) values (${SECRET})`),
    );
  });
  afterAll(async () => app.close());

  it('a failing query is logged with its SQLSTATE, never its text, parameters or values', async () => {
    const res = await app.inject({ url: '/api/uji-gagal' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'internal', message: 'Maaf, ada kesalahan pada sistem' });
    const all = lines.join('');
    expect(all).toContain('request failed');
    expect(all).toContain('42P01');
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain('argon2');
    expect(all).not.toMatch(/tabel_yang_tidak_ada|insert into/i);
  });

  it('writes one line per request: the request (method, url) with its status and time', async () => {
    const before = lines.length;
    await app.inject({ url: '/api/health', headers: { 'x-request-id': 'satu-baris' } });
    const mine = lines
      .slice(before)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.reqId === 'satu-baris');
    expect(mine.map((l) => l.msg)).toEqual(['request completed']);
    expect(mine[0]).toMatchObject({
      req: { method: 'GET', url: '/api/health' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('keeps a client X-Request-Id only when it is at most 64 of A-Za-z0-9._-', async () => {
    const kept = await app.inject({ url: '/api/health', headers: { 'x-request-id': 'req-abc_1.2' } });
    expect(kept.headers['x-request-id']).toBe('req-abc_1.2');
    const long = 'a'.repeat(65);
    for (const given of [long, 'dua kata', 'x"}{"admin":true', 'é']) {
      const res = await app.inject({ url: '/api/health', headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const all = lines.join('');
    expect(all).toContain('"reqId":"req-abc_1.2"');
    expect(all).not.toContain(long);
    expect(all).not.toContain('dua kata');
  });
});
