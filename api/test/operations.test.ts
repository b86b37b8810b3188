import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db';
import { acquireDataDirLock, DataDirLockedError } from '../src/db/lock';
import { migrate, readMigrations } from '../src/db/migrate';
import { companies } from '../src/db/schema';
import { MAX_PER_USERNAME_AND_ADDRESS, redisLoginThrottle } from '../src/services/login-throttle';
import { ADMIN_PASSWORD, call, createTestContext, login, type TestContext, capturedLogger } from './helpers';
import { runApi, waitFor } from './processes';
import { adminUrl, withDatabase } from './template';
import { freePort } from '../src/db/embedded';

const startServer = (env: Record<string, string>) => runApi('src/server.ts', [], env);

describe('embedded database lock', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-lock-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a second process on the same DATA_DIR fails fast with a clear message, and the data stays intact', async () => {
    const database = await openDatabase({ dataDir: dir });
    try {
      await migrate(database);
      // Raw: no app runs on this database (its lock is the subject); a row is all the check needs.
      await database.db.insert(companies).values({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'PT Tetap Ada',
        website: 'https://a.id',
      });
      const second = startServer({ DATA_DIR: dir, PORT: String(await freePort()) });
      const code = await second.exited;
      expect(code).toBe(2);
      expect(second.output()).toMatch(new RegExp(`in use by another process \\(PID ${process.pid}\\)`));
      const [row] = await database.db.select({ n: count() }).from(companies);
      expect(row?.n).toBe(1);
      // A second opener inside this process is refused too.
      await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    } finally {
      await database.close();
    }
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
  });

  it('a .lock file left behind (of a dead or a live PID) does not hold the directory: it only says who holds it', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-lock2-'));
    for (const pid of ['999999999', String(process.ppid)]) {
      fs.writeFileSync(path.join(other, '.lock'), pid);
      const release = await acquireDataDirLock(other);
      expect(fs.readFileSync(path.join(other, '.lock'), 'utf8')).toBe(String(process.pid));
      release();
    }
    fs.rmSync(other, { recursive: true, force: true });
  });
});

describe('server process', () => {
  it('prints where it listens and how to sign in, and on SIGTERM finishes requests in flight and closes the database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-srv-'));
    const port = await freePort();
    const server = startServer({
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'secret-admin-pw',
    });
    try {
      await waitFor(() => server.output().includes('listening on http://localhost'), 'server start', {
        timeoutMs: 90_000,
      });
      expect(server.output()).toContain('sign in as "admin" with the password from ADMIN_PASSWORD');
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
      // A sign-in (argon2 at production cost) is in flight when SIGTERM arrives.
      const inFlight = fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'secret-admin-pw' }),
      });
      await waitFor(() => server.output().includes('"url":"/api/login"'), 'the sign-in to reach the server', {
        timeoutMs: 90_000,
      });
      server.child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      const body = (await res.json()) as { token: string };
      await server.exited;
      expect(server.output()).toContain('stopped cleanly');
      expect(server.child.exitCode).toBe(0);
      expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
      // Logs never carry the password or the token.
      expect(server.output()).not.toContain('secret-admin-pw');
      expect(server.output()).not.toContain(body.token);
    } finally {
      server.child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('logs', () => {
  it('carry a request id and never passwords, tokens or Authorization headers', async () => {
    const ctx = await createTestContext();
    try {
      const { logger, lines } = capturedLogger();
      const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: ctx.database.db, logger });
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      const token = res.json<{ token: string }>().token;
      const me = await app.inject({
        url: '/api/profile',
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-abc-123' },
      });
      expect(me.headers['x-request-id']).toBe('req-abc-123');
      await app.close();
      const all = lines.join('\n');
      expect(all).toContain('req-abc-123');
      expect(all).not.toContain(ADMIN_PASSWORD);
      expect(all).not.toContain(token);
      expect(all.toLowerCase()).not.toContain('bearer');
    } finally {
      await ctx.close();
    }
  });
});

describe('rate limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ RATE_LIMIT_PUBLIC: '1000' });
  });
  afterAll(async () => ctx.close());

  it('more than 50 failures from one address within 15 minutes blocks sign-in from it', async () => {
    for (let i = 0; i < 50; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: `u${i}`, password: 'wrong-pass' },
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('l-throttled');
    // Signed-in calls are not limited by address.
    for (let i = 0; i < 30; i++)
      expect((await call(ctx.app, ctx.adminToken, 'GET', '/api/profile')).statusCode).toBe(200);
  });

  it('public endpoints have a per-address request limit (RATE_LIMIT_PUBLIC a minute)', async () => {
    const limited = await createTestContext({ RATE_LIMIT_PUBLIC: '3' });
    try {
      // createTestContext signed in once already.
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        codes.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/api/login',
              payload: { username: 'x', password: 'y' },
            })
          ).statusCode,
        );
      }
      expect(codes.slice(0, 2)).toEqual([401, 401]);
      const last = await limited.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'x', password: 'y' },
      });
      expect(last.statusCode).toBe(429);
      expect(last.json()).toMatchObject({ code: 'too-many-requests' });
    } finally {
      await limited.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('login failure counters in Redis (TEST_REDIS_URL)', () => {
  it('count per username across processes sharing Redis', async () => {
    const redis = new Redis(redisUrl!);
    const prefix = `sertifikasi-test:${process.pid}:${Date.now()}`;
    const a = redisLoginThrottle(redis, prefix);
    const b = redisLoginThrottle(redis, prefix);
    try {
      for (let i = 0; i < MAX_PER_USERNAME_AND_ADDRESS; i++) {
        expect(await (i % 2 ? a : b).reserve('Siti', '10.0.0.1')).toBe(true);
      }
      expect(await a.reserve('siti', '10.0.0.1')).toBe(false);
      expect(await b.reserve('siti', '10.0.0.2')).toBe(true);
      expect(await b.reserve('budi', '10.0.0.1')).toBe(true);
    } finally {
      await redis.quit();
    }
  });
});

/** A new, empty database on the run's server, and how to drop it. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `sertifikasi_empty_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  return {
    url: withDatabase(adminUrl(), name),
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

describe('migrations', () => {
  it('concurrent runs apply each migration once', async () => {
    const expected = readMigrations().length;
    const empty = await emptyDatabase();
    try {
      const [d1, d2] = await Promise.all([
        openDatabase({ databaseUrl: empty.url }),
        openDatabase({ databaseUrl: empty.url }),
      ]);
      const [a1, a2] = await Promise.all([migrate(d1), migrate(d2)]);
      expect(a1.length + a2.length).toBe(expected);
      const rows = await d1.db.execute(sql`select count(*)::int as n from _migrations`);
      expect((rows as { rows: { n: number }[] }).rows[0]!.n).toBe(expected);
      expect(await migrate(d1)).toEqual([]);
      await d1.close();
      await d2.close();
    } finally {
      await empty.drop();
    }
  });
});

describe('first start', () => {
  it('without ADMIN_PASSWORD generates a password that works, printed once', async () => {
    const { seedAdministrator, seedPermissions } = await import('../src/services/seed');
    const empty = await emptyDatabase();
    const database = await openDatabase({ databaseUrl: empty.url });
    try {
      await migrate(database);
      await seedPermissions(database.db);
      const cost = loadConfig({ NODE_ENV: 'test' }).argon2;
      const first = await seedAdministrator(database.db, { username: 'admin', cost });
      expect(first.generatedPassword).toMatch(/^\S{16,}$/);
      const again = await seedAdministrator(database.db, { username: 'admin', cost });
      expect(again).toEqual({ createdAdmin: false });
      const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: database.db });
      expect(await login(app, 'admin', first.generatedPassword!)).toBeTruthy();
      await app.close();
    } finally {
      await database.close();
      await empty.drop();
    }
  });
});
