import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createTestContext, type TestContext } from './helpers';
import { waitFor as waitUntil } from './processes';

/**
 * Overload and signed-in staff (docs/rules.md#faults-and-overload, docs/architecture.md#overload):
 * anonymous requests may hold only part of the pool, so while they saturate it a signed-in member
 * of staff is served, and anonymous requests are the ones shed. Over real HTTP connections, on a
 * pool of 4 connections (one kept for signed-in requests), with the pool's wait judged (100 ms).
 */

const UNAVAILABLE = {
  code: 'unavailable',
  message: 'Layanan sedang tidak tersedia, silakan coba lagi beberapa saat lagi',
};

/** Looked at often, for ten seconds at most. */
const waitFor = (probe: () => boolean, what: string) =>
  waitUntil(probe, what, { timeoutMs: 10_000, every: 20 });

describe('overload: anonymous requests saturating the pool', () => {
  const POOL_WAIT_MS = 100;
  const SHED_DELAY_MS = 300;
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext(
      {
        OVERLOAD_MAX_POOL_WAIT_MS: String(POOL_WAIT_MS),
        OVERLOAD_ANONYMOUS_SHED_DELAY_MS: String(SHED_DELAY_MS),
        RATE_LIMIT_PUBLIC: '100000',
      },
      { poolSize: 4, acquireTimeoutMs: 2000 },
    );
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => ctx.close());

  it('serves every signed-in read while anonymous public checks hold their share of the pool and the anonymous ones past it are shed 503', async () => {
    expect(ctx.app.load.staffReserved).toBe(1);
    const signedIn = { headers: { authorization: `Bearer ${ctx.adminToken}` } };
    const check = (n: number) => fetch(`${base}/api/check-certificate-company/FLOOD-${n}`);
    expect((await check(0)).status).toBe(404);

    // Another session holds the schemes table: every public check's query waits on it, holding its
    // connection, as slow queries of a flood would.
    const locker = new pg.Client({ connectionString: ctx.database.pool.options.connectionString });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table schemes in access exclusive mode');
    let flood: Promise<number>[] = [];
    try {
      flood = Array.from({ length: 12 }, (_, n) => check(n + 1).then((res) => res.status));
      // The anonymous share (3 connections) taken, the rest of the flood waiting for a place.
      const waited = () =>
        Math.max(ctx.app.load.anonymousWait()?.oldestMs ?? 0, ctx.app.load.poolWait()?.oldestMs ?? 0);
      await waitFor(() => waited() > POOL_WAIT_MS, `anonymous requests to wait past ${POOL_WAIT_MS} ms`);
      expect(ctx.database.pool.totalCount - ctx.database.pool.idleCount).toBeLessThanOrEqual(3);

      // A new anonymous request is shed, whatever it asks for, its answer held for a pause (a
      // flood asking again at once would keep the event loop busy).
      const asked = performance.now();
      const shed = await check(99);
      expect(shed.status).toBe(503);
      expect(performance.now() - asked).toBeGreaterThanOrEqual(SHED_DELAY_MS - 5);
      expect(shed.headers.get('retry-after')).toBe('5');
      expect(await shed.json()).toEqual(UNAVAILABLE);
      expect((await fetch(`${base}/api/health`)).status).toBe(503);
      // A made-up token is no way in: its look-up fails, 401.
      const madeUp = await fetch(`${base}/api/company`, {
        headers: { authorization: `Bearer ${'x'.repeat(43)}` },
      });
      expect(madeUp.status).toBe(401);

      // Signed-in reads are all served, one after another and several at once.
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await fetch(`${base}/api/company`, signedIn)).status);
        statuses.push((await fetch(`${base}/api/user-info`, signedIn)).status);
      }
      const together = await Promise.all(
        Array.from({ length: 6 }, () => fetch(`${base}/api/company`, signedIn).then((r) => r.status)),
      );
      expect([...statuses, ...together]).toEqual(Array(26).fill(200));
      expect(ctx.app.load.shedBy.anonymous).toBeGreaterThanOrEqual(2);
      expect(ctx.app.load.shedBy.pool).toBe(0);
    } finally {
      await locker.query('rollback');
      await locker.end();
      await Promise.allSettled(flood);
    }

    // Those holding a connection are answered once the lock goes; those that waited past the
    // acquire timeout for a place were told 503, none waited without end.
    const answers = await Promise.all(flood);
    expect(answers.filter((s) => s === 404).length).toBeGreaterThanOrEqual(3);
    expect(answers.every((s) => s === 404 || s === 503)).toBe(true);
    expect((await check(100)).status).toBe(404);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });
});

describe('per-address limits: health, made-up tokens, public checks, sign-in', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext({
      TRUST_PROXY: '1',
      RATE_LIMIT_HEALTH: '1',
      RATE_LIMIT_BAD_TOKEN: '1',
      RATE_LIMIT_PUBLIC: '3',
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => ctx.close());

  /** A request as if from `address`, behind the one trusted proxy (TRUST_PROXY=1). */
  const from = (address: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': address },
    });
  const statuses = async (address: string, path: string, n: number, init?: RequestInit) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await from(address, path, init)).status);
    return out;
  };
  const TOO_MANY = { code: 'too-many-requests', message: 'Terlalu banyak permintaan, coba lagi nanti' };

  it('/api/health: past its limit a second per address (over 10 s) answers 429; one /64 counts once', async () => {
    // RATE_LIMIT_HEALTH=1: 10 in 10 s.
    expect(await statuses('2001:db8:a:1::1', '/api/health', 10)).toEqual(Array(10).fill(200));
    const refused = await from('2001:db8:a:1::1', '/api/health');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address of the same /64 shares the counter; another /64 and IPv4 do not.
    expect((await from('2001:db8:a:1:ffff:ffff:ffff:fffe', '/api/health')).status).toBe(429);
    expect((await from('2001:db8:a:2::1', '/api/health')).status).toBe(200);
    expect((await from('192.0.2.10', '/api/health')).status).toBe(200);
    // An IPv4-mapped address counts as that IPv4 address.
    expect(await statuses('::ffff:192.0.2.20', '/api/health', 10)).toEqual(Array(10).fill(200));
    expect((await from('192.0.2.20', '/api/health')).status).toBe(429);
    expect((await from('192.0.2.21', '/api/health')).status).toBe(200);
  });

  it('failed bearer-token look-ups: past the limit per address answer 429 before any look-up; a good token from elsewhere is served', async () => {
    const madeUp = { headers: { authorization: `Bearer ${'m'.repeat(43)}` } };
    // RATE_LIMIT_BAD_TOKEN=1: 10 failed look-ups in 10 s, on routes that need sign-in or only read a
    // token (the certificate PDF).
    expect(await statuses('2001:db8:b:1::1', '/api/company', 8, madeUp)).toEqual(Array(8).fill(401));
    const pdf = `/api/download-certificate/00000000-0000-4000-8000-000000000000`;
    expect(await statuses('2001:db8:b:1::2', pdf, 2, madeUp)).toEqual([401, 401]);
    const refused = await from('2001:db8:b:1::3', '/api/company', madeUp);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The /64 is refused before its token is looked up, a good one included.
    const good = { headers: { authorization: `Bearer ${ctx.adminToken}` } };
    expect((await from('2001:db8:b:1::4', '/api/company', good)).status).toBe(429);
    expect((await from('2001:db8:b:1::5', pdf, madeUp)).status).toBe(429);
    // Another /64 and other addresses are not.
    expect((await from('2001:db8:b:2::1', '/api/company', madeUp)).status).toBe(401);
    expect((await from('2001:db8:b:2::1', '/api/company', good)).status).toBe(200);
    expect((await from('198.51.100.1', '/api/company', good)).status).toBe(200);
    // An IPv4-mapped address counts as that IPv4 address.
    expect(await statuses('::ffff:198.51.100.2', '/api/company', 10, madeUp)).toEqual(Array(10).fill(401));
    expect((await from('198.51.100.2', '/api/company', madeUp)).status).toBe(429);
    expect((await from('198.51.100.2', '/api/company', good)).status).toBe(429);
    // A good token is never counted.
    expect(await statuses('198.51.100.3', '/api/company', 12, good)).toEqual(Array(12).fill(200));
  });

  it('public checks: RATE_LIMIT_PUBLIC a minute per address, one /64 counting once', async () => {
    const path = '/api/check-certificate-company/NO-SUCH';
    expect(await statuses('2001:db8:c:1::1', path, 3)).toEqual([404, 404, 404]);
    expect((await from('2001:db8:c:1::99', path)).status).toBe(429);
    expect((await from('2001:db8:c:2::1', path)).status).toBe(404);
    expect(await statuses('::ffff:203.0.113.5', path, 3)).toEqual([404, 404, 404]);
    expect((await from('203.0.113.5', path)).status).toBe(429);
  });

  it('sign-in: failures of one username from one address are counted per /64, an IPv4-mapped address as its IPv4', async () => {
    // The sign-in counters themselves: the route's own request limit (RATE_LIMIT_PUBLIC, 3 here)
    // would answer first over HTTP.
    const throttle = ctx.app.loginThrottle;
    for (let i = 1; i <= 10; i++) expect(await throttle.reserve('admin', `2001:db8:d:1::${i}`)).toBe(true);
    expect(await throttle.reserve('admin', '2001:db8:d:1:ffff::1')).toBe(false);
    expect(await throttle.reserve('admin', '2001:db8:d:2::1')).toBe(true);
    for (let i = 1; i <= 10; i++) expect(await throttle.reserve('admin', '::ffff:203.0.113.9')).toBe(true);
    expect(await throttle.reserve('admin', '203.0.113.9')).toBe(false);
    expect(await throttle.reserve('admin', '203.0.113.10')).toBe(true);
  });
});
