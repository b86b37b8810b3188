import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createTestContext, type TestContext } from './helpers';

/**
 * Overload (DECISIONS.md section 13): a saturated process answers new requests 503 unavailable with
 * Retry-After at once, and serves again once the load has passed. Over real HTTP connections.
 */

const UNAVAILABLE = {
  code: 'unavailable',
  message: 'Layanan sedang tidak tersedia, silakan coba lagi beberapa saat lagi',
};

/** A sign-in whose body is sent in two halves: in flight until `finish()`. */
function heldRequest(port: number) {
  const body = JSON.stringify({ username: 'admin', password: 'wrong-password' });
  const held: (() => void)[] = [];
  const answered = new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 5));
    held.push(() => req.end(body.slice(5)));
  });
  return { answered, finish: () => held.forEach((f) => f()) };
}

async function waitFor(predicate: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('overload', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ OVERLOAD_MAX_IN_FLIGHT: '2' });
  });
  afterAll(async () => ctx.close());

  it('past OVERLOAD_MAX_IN_FLIGHT requests in flight, new ones answer 503 unavailable with Retry-After; then serve again', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    const first = heldRequest(port);
    const second = heldRequest(port);
    await waitFor(() => ctx.app.load.inFlight === 2, 'two requests in flight');

    const shed = await fetch(`${base}/api/health`);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('5');
    // Shed before any other work, and still with the security headers and a request id.
    expect(shed.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(shed.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(shed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await shed.json()).toEqual(UNAVAILABLE);
    const list = await fetch(`${base}/api/company`, {
      headers: { authorization: `Bearer ${ctx.adminToken}` },
    });
    expect(list.status).toBe(503);

    // The requests under way are served in full.
    first.finish();
    second.finish();
    expect(await first.answered).toBe(401);
    expect(await second.answered).toBe(401);
    await waitFor(() => ctx.app.load.inFlight === 0, 'the two to end');
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(ctx.app.load.shed).toBe(2);
  });

  it('an event loop lagging past OVERLOAD_MAX_EVENT_LOOP_DELAY_MS sheds new requests until it catches up', async () => {
    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal'),
        OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '20',
      }),
      db: ctx.database.db,
    });
    try {
      await app.ready();
      expect((await app.inject('/api/health')).statusCode).toBe(200);
      // CPU-bound work holds the event loop for 2.5 s.
      const until = Date.now() + 2500;
      while (Date.now() < until) {
        /* busy */
      }
      await new Promise((r) => setTimeout(r, 100));
      const res = await app.inject('/api/health');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual(UNAVAILABLE);
      let status = 503;
      const end = Date.now() + 5000;
      while (status === 503 && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await app.inject('/api/health')).statusCode;
      }
      expect(status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
