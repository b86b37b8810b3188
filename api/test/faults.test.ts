import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, LOG_REDACT } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db';
import { openRedis } from '../src/plugins/redis';
import { seedAdministrator, seedPermissions } from '../src/services/seed';
import { ADMIN_PASSWORD, createTestContext, type TestContext } from './helpers';
import { waitFor as waitUntil } from './processes';
import { copyPostgresTemplate } from './template';
import { freePort } from '../src/db/embedded';

/**
 * docs/rules.md#faults-and-overload, against real parts: a Redis server of this test's own that it stops and
 * starts again, and a TCP proxy in front of PostgreSQL that it cuts and mends. The shared
 * PostgreSQL and Redis are never touched.
 */

const config = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'test', PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal'), ...env });

/** What a fault test waits for happens within seconds. */
const waitFor = (probe: () => boolean | Promise<boolean>, what: string) =>
  waitUntil(probe, what, { timeoutMs: 20_000 });

/** Log lines of an app, parsed. */
function logSink() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info', redact: LOG_REDACT }, stream) };
}

const signIn = (app: FastifyInstance, username: string, password: string, remoteAddress = '10.1.1.1') =>
  app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress });

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

(hasRedisServer ? describe : describe.skip)('Redis unreachable (a redis-server of the test, stopped)', () => {
  let ctx: TestContext;
  let port: number;
  let server: ChildProcess | undefined;

  const startRedis = async () => {
    server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.end();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        }),
      'redis-server to listen',
    );
  };
  const stopRedis = async () => {
    const s = server;
    server = undefined;
    if (!s || s.exitCode !== null) return;
    const exited = new Promise((r) => s.once('exit', r));
    s.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    port = await freePort();
    await startRedis();
  });
  afterAll(async () => {
    await stopRedis();
    await ctx.close();
  });

  it('sign-in and its limits keep working from the database, one warning a minute, health says redis down, and all comes back', async () => {
    const consoleError = jest.spyOn(console, 'error');
    const { lines, logger } = logSink();
    const redis = openRedis(`redis://127.0.0.1:${port}`, logger);
    const app = await buildApp({
      config: config({ RATE_LIMIT_PUBLIC: '1000' }),
      db: ctx.database.db,
      redis,
      logger,
    });
    try {
      await app.ready();
      await waitFor(() => redis.status === 'ready', 'Redis connected');
      expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok', database: 'up', redis: 'up' });
      // Counters live in Redis while it answers.
      expect((await signIn(app, 'someone', 'wrong-password')).statusCode).toBe(401);
      expect(await redis.exists('sertifikasi:login:u:someone')).toBe(1);

      await stopRedis();
      await waitFor(() => redis.status !== 'ready', 'the client to notice');

      const health = await app.inject('/api/health');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'degraded', database: 'up', redis: 'down' });

      const ok = await signIn(app, 'admin', ADMIN_PASSWORD);
      expect(ok.statusCode).toBe(200);
      const token = ok.json<{ token: string }>().token;
      expect(
        (await app.inject({ url: '/api/profile', headers: { authorization: `Bearer ${token}` } })).statusCode,
      ).toBe(200);
      // The per-username-and-address limit still holds, counted in the database now.
      for (let i = 0; i < 10; i++) {
        expect((await signIn(app, 'siti', 'wrong-password', '10.2.2.2')).statusCode).toBe(401);
      }
      const throttled = await signIn(app, 'siti', 'wrong-password', '10.2.2.2');
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json().code).toBe('l-throttled');
      // Request limits go on counting (in memory): the remaining allowance still falls.
      const a = await signIn(app, 'x', 'y', '10.3.3.3');
      const b = await signIn(app, 'x', 'y', '10.3.3.3');
      expect(Number(b.headers['x-ratelimit-remaining'])).toBe(Number(a.headers['x-ratelimit-remaining']) - 1);

      // Several reconnect attempts later (every 2 s at most), still one warning.
      await new Promise((r) => setTimeout(r, 4500));
      const warnings = lines.filter((l) => l.level === 40 && /Redis unreachable/.test(l.msg));
      expect(warnings).toHaveLength(1);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(consoleError.mock.calls.flat().join(' ')).not.toMatch(/ioredis|Unhandled error event/);

      await startRedis();
      await waitFor(() => redis.status === 'ready', 'the client to reconnect by itself');
      expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok', database: 'up', redis: 'up' });
      expect(lines.some((l) => l.msg === 'Redis reachable again')).toBe(true);
      expect((await signIn(app, 'budi', 'wrong-password')).statusCode).toBe(401);
      expect(await redis.exists('sertifikasi:login:u:budi')).toBe(1);
    } finally {
      consoleError.mockRestore();
      await app.close();
      redis.disconnect();
    }
  });
});

/** A TCP proxy to PostgreSQL that can be cut (listener closed, connections dropped) and mended. */
async function tcpProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  await open();
  return {
    port,
    cut: async () => {
      const s = server;
      server = undefined;
      // Dropped first: a listener's close ends only once its connections have.
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => s?.close(r));
    },
    mend: open,
    close: async () => {
      const s = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (s) await new Promise((r) => s.close(r));
    },
  };
}

describe('database unreachable (a TCP proxy in front of PostgreSQL, cut)', () => {
  it('every API call answers 503 unavailable with Retry-After, never 500, and it recovers by itself', async () => {
    const copy = await copyPostgresTemplate();
    const url = new URL(copy.url);
    const proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 3 });
    const cfg = config();
    await seedPermissions(database.db);
    await seedAdministrator(database.db, { username: 'admin', password: ADMIN_PASSWORD, cost: cfg.argon2 });
    const { lines, logger } = logSink();
    const app = await buildApp({ config: cfg, db: database.db, logger });
    try {
      const token = (await signIn(app, 'admin', ADMIN_PASSWORD)).json<{ token: string }>().token;
      const auth = { authorization: `Bearer ${token}` };
      expect((await app.inject({ url: '/api/company', headers: auth })).statusCode).toBe(200);

      await proxy.cut();
      const calls = [
        app.inject({ url: '/api/company', headers: auth }),
        app.inject({ url: '/api/user-info', headers: auth }),
        app.inject({ method: 'POST', url: '/api/company', headers: auth, payload: { name: 'PT Baru' } }),
        signIn(app, 'admin', ADMIN_PASSWORD),
        app.inject({ url: '/api/check-certificate-company/QMS-001' }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({
          code: 'unavailable',
          message: 'Layanan sedang tidak tersedia, silakan coba lagi beberapa saat lagi',
        });
        expect(res.headers['retry-after']).toBe('5');
      }
      const health = await app.inject('/api/health');
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'error', database: 'down' });
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);

      await proxy.mend();
      expect((await app.inject({ url: '/api/company', headers: auth })).statusCode).toBe(200);
      expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok', database: 'up' });
      expect((await signIn(app, 'admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
      await proxy.close();
      await copy.drop();
    }
  });
});
