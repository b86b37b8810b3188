import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ADMIN_PASSWORD, createTestContext, type TestContext } from './helpers';

/** Sign-in throttling (docs/rules.md#sign-in) on the database, and on Redis when TEST_REDIS_URL is set. */

let ctx: TestContext;
const redisUrl = process.env.TEST_REDIS_URL;
let redis: Redis | undefined;
/** Redis keeps its counters between runs: names and addresses are unique to this run. */
const run = randomBytes(3).toString('hex');
/** Each `n` its own /64: an address is counted by its /64 (lib/address.ts). */
const address = (n: number) => `2001:db8:${run.slice(0, 4)}:${n.toString(16)}::${run.slice(4)}`;

const testConfig = (env: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: 'test',
    PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal'),
    RATE_LIMIT_PUBLIC: '100000',
    ...env,
  });

beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_PUBLIC: '100000' });
  if (redisUrl) redis = new Redis(redisUrl);
});
afterAll(async () => {
  await redis?.quit();
  await ctx.close();
});

const signIn = (
  app: FastifyInstance,
  username: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress, headers });

const stores: [string, () => Promise<FastifyInstance>][] = [
  ['database', async () => ctx.app],
  ...(redisUrl
    ? ([
        [
          'Redis',
          async () => {
            const app = await buildApp({ config: testConfig(), db: ctx.database.db, redis });
            await app.ready();
            return app;
          },
        ],
      ] as [string, () => Promise<FastifyInstance>][])
    : []),
];

describe.each(stores)('sign-in throttle on the %s', (store, open) => {
  let app: FastifyInstance;
  let role: string;
  let n = 0;
  /** A user that exists, with password 'password-123'. */
  const newUser = async () => {
    const username = `${store.slice(0, 2).toLowerCase()}${run}${n++}`;
    await ctx.make.user({ username, roles_id: role, company_ids: 'ALL' });
    return username;
  };
  beforeAll(async () => {
    app = await open();
    role = await ctx.make.role(`Throttle ${store}`, ['statistik']);
  });
  afterAll(async () => {
    if (app !== ctx.app) await app.close();
  });

  it('checks at most 10 passwords when 40 wrong attempts for one username arrive at once', async () => {
    const username = await newUser();
    const from = address(1);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(app, username, `wrong-${i}-pass`, from)),
    );
    const codes = answers.map((r) => r.json<{ code: string }>().code);
    expect(codes.filter((c) => c === 'l-wrong')).toHaveLength(10);
    expect(codes.filter((c) => c === 'l-throttled')).toHaveLength(30);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(30);
    const right = await signIn(app, username, 'password-123', from);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({
      code: 'l-throttled',
      message: 'Terlalu banyak percobaan login, coba lagi nanti',
    });
  });

  it('ten failures from one address do not lock the account out of another address', async () => {
    const username = await newUser();
    for (let i = 0; i < 10; i++) {
      expect((await signIn(app, username, `wrong-${i}-pass`, address(2))).statusCode).toBe(401);
    }
    expect((await signIn(app, username, 'password-123', address(2))).statusCode).toBe(429);
    expect((await signIn(app, username, 'password-123', address(3))).statusCode).toBe(200);
  });

  it('a successful sign-in clears that username and address failures', async () => {
    const username = await newUser();
    for (let i = 0; i < 9; i++) {
      expect((await signIn(app, username, `wrong-${i}-pass`, address(4))).statusCode).toBe(401);
    }
    expect((await signIn(app, username, 'password-123', address(4))).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await signIn(app, username, `again-${i}-pass`, address(4))).statusCode).toBe(401);
    }
    expect((await signIn(app, username, 'password-123', address(4))).statusCode).toBe(429);
  });

  it('more than 100 failures for one username from many addresses stop it everywhere', async () => {
    const username = await newUser();
    for (let a = 0; a < 10; a++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => signIn(app, username, `wrong-${i}-pass`, address(0x100 + a))),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
    }
    const fresh = await signIn(app, username, 'password-123', address(0x200));
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json().code).toBe('l-throttled');
  });

  it('more than 50 failures from one address stop sign-ins from it, for any username', async () => {
    for (let i = 0; i < 50; i++) {
      expect((await signIn(app, `nobody${run}${i}`, 'wrong-pass', address(0x300))).statusCode).toBe(401);
    }
    expect((await signIn(app, 'admin', ADMIN_PASSWORD, address(0x300))).statusCode).toBe(429);
    expect((await signIn(app, 'admin', ADMIN_PASSWORD, address(0x301))).statusCode).toBe(200);
  });
});

describe('client addresses (TRUST_PROXY)', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  /** An app allowing one public request a minute per address: a second one from the same address is 429. */
  const appWith = async (trustProxy?: string) => {
    const app = await buildApp({
      config: testConfig({ RATE_LIMIT_PUBLIC: '1', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) }),
      db: ctx.database.db,
    });
    await app.ready();
    apps.push(app);
    return app;
  };
  /** Sends a request from `socket` with X-Forwarded-For `xff`, then tells whether `candidate` is the address the API saw. */
  const seenAs = async (app: FastifyInstance, socket: string, xff: string, candidate: string) => {
    const first = await signIn(app, 'probe', 'probe-pass', socket, { 'x-forwarded-for': xff });
    expect(first.statusCode).toBe(401);
    const second = await signIn(app, 'probe', 'probe-pass', candidate);
    return second.statusCode === 429;
  };

  it('reads TRUST_PROXY as a hop count or addresses/CIDRs; true is one hop; anything else stops the start', () => {
    expect(testConfig().trustProxy).toBe(false);
    expect(testConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(testConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(testConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(testConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
    ]);
    expect(() => testConfig({ TRUST_PROXY: 'everything' })).toThrow(/TRUST_PROXY must be .*"everything"/);
    expect(() => testConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('TRUST_PROXY=true trusts one hop: an X-Forwarded-For written by the client cannot choose the address', async () => {
    const app = await appWith('true');
    expect(await seenAs(app, '10.0.0.1', '6.6.6.6, 203.0.113.50', '203.0.113.50')).toBe(true);
    expect(await seenAs(app, '10.0.0.1', '6.6.6.7, 203.0.113.51', '6.6.6.7')).toBe(false);
  });

  it('a hop count trusts that many proxies', async () => {
    const app = await appWith('2');
    expect(await seenAs(app, '10.0.0.1', '6.6.6.6, 203.0.113.60, 10.0.0.2', '203.0.113.60')).toBe(true);
  });

  it('named proxies: only their X-Forwarded-For counts', async () => {
    const app = await appWith('10.0.0.0/8');
    expect(await seenAs(app, '10.0.0.1', '6.6.6.6, 203.0.113.70', '203.0.113.70')).toBe(true);
    // A client that is not one of the proxies is its socket's address, whatever it writes.
    expect(await seenAs(app, '198.51.100.7', '203.0.113.71', '198.51.100.7')).toBe(true);
  });

  it('without TRUST_PROXY the socket address counts', async () => {
    const app = await appWith();
    expect(await seenAs(app, '198.51.100.8', '203.0.113.80', '198.51.100.8')).toBe(true);
  });

  it('spoofed X-Forwarded-For entries behind one proxy do not escape the per-address sign-in limit', async () => {
    const app = await buildApp({ config: testConfig({ TRUST_PROXY: 'true' }), db: ctx.database.db });
    await app.ready();
    apps.push(app);
    for (let i = 0; i < 50; i++) {
      const res = await signIn(app, `spoof${i}`, 'wrong-pass', '10.0.0.1', {
        'x-forwarded-for': `6.6.${i}.1, 203.0.113.90`,
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await signIn(app, 'admin', ADMIN_PASSWORD, '10.0.0.1', {
      'x-forwarded-for': '6.6.200.1, 203.0.113.90',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('l-throttled');
  });
});
