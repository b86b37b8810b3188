/**
 * Two apps built in one process with different settings share nothing (app.ts: everything that
 * changes while an app runs is state of the instance): their clocks, per-address limits, image work
 * limits, report exports and declared routes are their own.
 */
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { DASHBOARD_ENDPOINTS, REPORTS } from '@sertifikasi/shared-contracts';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createClock } from '../src/lib/clock';
import { createRouteMap, declaredRoutes, defineRoute } from '../src/lib/route';
import { yupValidatorCompiler } from '../src/lib/validation';
import { EXPORT_BATCH_SIZE, exportBatchSize } from '../src/modules/reports/export-state';
import { ADMIN_PASSWORD, auth, call, createTestContext, login, type TestContext } from './helpers';

/** 17:30 UTC on 31 March 2026: already 1 April in Jakarta, still 31 March in UTC. */
const INSTANT = new Date('2026-03-31T17:30:00Z');

let ctx: TestContext;
/** The first app: Jakarta, IMAGE_CONCURRENCY 1, 2 public requests a minute per address. */
let a: FastifyInstance;
/** The second app, on the same database: UTC, IMAGE_CONCURRENCY 3, 100 public requests a minute. */
let b: FastifyInstance;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  ctx = await createTestContext(
    { TZ: 'Asia/Jakarta', IMAGE_CONCURRENCY: '1', RATE_LIMIT_PUBLIC: '2' },
    { now: INSTANT },
  );
  a = ctx.app;
  const clockB = createClock('UTC');
  clockB.set(INSTANT);
  b = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal'),
      TZ: 'UTC',
      IMAGE_CONCURRENCY: '3',
      RATE_LIMIT_PUBLIC: '100',
    }),
    db: ctx.database.db,
    clock: clockB,
  });
  await b.ready();
  tokenA = ctx.adminToken;
  tokenB = await login(b, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await b?.close();
  await ctx?.close();
});

describe('two apps in one process', () => {
  it('each has its own clock: the same instant is 1 April in Jakarta and 31 March in UTC', async () => {
    const monthOf = async (app: FastifyInstance, token: string) => {
      const res = await call(
        app,
        token,
        'GET',
        `/api/${DASHBOARD_ENDPOINTS.companyChart}/ALL?chart=DAY&date_type=1w`,
      );
      expect(res.statusCode).toBe(200);
      return res.json<{ date: string }[]>().at(-1)?.date;
    };
    expect(await monthOf(a, tokenA)).toBe('2026-04-01');
    expect(await monthOf(b, tokenB)).toBe('2026-03-31');

    // Moving one clock leaves the other where it was.
    ctx.clock.set(new Date('2026-05-10T03:00:00Z'));
    expect(await monthOf(b, tokenB)).toBe('2026-03-31');
    // (The sessions table is shared: signing in on a, in May, ends b's March session; b signs in again.)
    expect(await monthOf(a, await login(a, 'admin', ADMIN_PASSWORD))).toBe('2026-05-10');
    tokenB = await login(b, 'admin', ADMIN_PASSWORD);
    expect(b.clock.now().toISOString()).toBe(INSTANT.toISOString());
  });

  it('each counts its own per-address limit', async () => {
    const check = (app: FastifyInstance) =>
      app.inject({
        method: 'GET',
        url: '/api/check-certificate-training/TIDAK-ADA',
        remoteAddress: '10.9.9.9',
      });
    expect((await check(a)).statusCode).toBe(404);
    expect((await check(a)).statusCode).toBe(404);
    expect((await check(a)).statusCode).toBe(429);
    // The same address on the other app has used nothing of its own limit.
    for (let i = 0; i < 3; i++) expect((await check(b)).statusCode).toBe(404);
  });

  it('each has its own image work limit: a slot held on one app does not hold the other', async () => {
    expect(a.imageWork.limit).toBe(1);
    expect(b.imageWork.limit).toBe(3);
    let release!: () => void;
    const held = a.imageWork.run(() => new Promise<void>((resolve) => (release = resolve)));
    const queued = a.imageWork.run(async () => 'after');
    expect(a.imageWork.waiting).toBe(1);
    expect(await b.imageWork.run(async () => 'at once')).toBe('at once');
    expect(b.imageWork.waiting).toBe(0);
    release();
    await held;
    expect(await queued).toBe('after');
  });

  it('each counts its own report exports, with its own batch size', async () => {
    a.reportExports.batchSize = 2;
    expect(exportBatchSize(a)).toBe(2);
    expect(exportBatchSize(b)).toBe(EXPORT_BATCH_SIZE);
    const before = { a: { ...a.reportExports.stats }, b: { ...b.reportExports.stats } };
    const res = await b.inject({
      method: 'GET',
      url: `/api/${REPORTS.training.endpoint}/ALL?type=export`,
      headers: auth(tokenB),
    });
    expect(res.statusCode).toBe(200);
    for (let i = 0; i < 200 && b.reportExports.stats.completed === before.b.completed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(b.reportExports.stats).toEqual({ ...before.b, completed: before.b.completed + 1 });
    expect(a.reportExports.stats).toEqual(before.a);
  });

  it('each holds the routes it declared, and only those', async () => {
    expect(a.routeMap).not.toBe(b.routeMap);
    const list = (app: FastifyInstance) => declaredRoutes(app).map((r) => `${r.method} ${r.url}`);
    expect(list(a).length).toBeGreaterThan(50);
    expect(list(b)).toEqual(list(a));
    // A third app declaring one route of its own knows that one, not the others' dozens.
    const small = Fastify();
    small.setValidatorCompiler(yupValidatorCompiler);
    small.decorate('routeMap', createRouteMap());
    defineRoute(small, {
      method: 'GET',
      url: '/api/kecil',
      summary: 'One route',
      tags: [],
      access: { public: true },
      response: { 200: { type: 'string' } },
      handler: async () => 'ok',
    });
    await small.ready();
    expect(list(small)).toEqual(['GET /api/kecil']);
    expect(list(a)).not.toContain('GET /api/kecil');
    await small.close();
  });
});
