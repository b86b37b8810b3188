/**
 * How soon and side by side webhook deliveries leave (docs/rules.md#notifications), on the real job
 * engine and real HTTP receivers on loopback: a record's event arrives within seconds of the write
 * (the minute's schedule is set to once a year here, so only the wake-up on commit can do it); a
 * slow endpoint holds up only its own deliveries; an endpoint failing again and again is paused,
 * its deliveries waiting, not lost.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from '../db/schema';
import { call, useTestContext } from '../../test/helpers';
import { schemeBody } from '../../test/forms';
import { waitFor } from '../../test/processes';
import {
  deliverDueWebhooks,
  WEBHOOK_BREAKER_FAILURES,
  WEBHOOK_BREAKER_PAUSE_MS,
  WEBHOOK_RETRY_DELAYS_MS,
} from './webhook-delivery';
import { queueDelivery } from './webhooks';

/** A receiver on loopback that notes when each request arrived and answers `status` after `delayMs`. */
async function receiver(delayMs = 0) {
  const arrivals: { at: number; type: string }[] = [];
  let inFlight = 0;
  let mostAtOnce = 0;
  const answer = { status: 200 };
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      arrivals.push({ at: performance.now(), type: (JSON.parse(body) as { type: string }).type });
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      const timer = setTimeout(() => {
        timers.delete(timer);
        inFlight--;
        res.writeHead(answer.status).end();
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    answer,
    mostAtOnce: () => mostAtOnce,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The senders are kicked (NOTIFY_SEND_SCHEDULE set) but their schedule is once a year.
const ctx = useTestContext({ WEBHOOK_ALLOW_PRIVATE: 'true', NOTIFY_SEND_SCHEDULE: '0 0 1 1 *' });
let company: string;
let typeId: string;

beforeAll(async () => {
  company = await ctx.make.company('PT LSP Cepat');
  typeId = await ctx.make.certificationType(company, 'ISO 14001:2015');
});
afterEach(async () => {
  ctx.clock.set(null);
  await ctx.database.db.delete(webhooks);
});

async function addWebhook(url: string): Promise<string> {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/webhook', {
    company_id: company,
    url,
    events: ['scheme.created'],
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Writes a scheme through the API; answers when its answer came (the write has committed). */
async function writeScheme(): Promise<number> {
  const client = await ctx.make.client(company, 'PT Segera');
  const res = await call(
    ctx.app,
    ctx.adminToken,
    'POST',
    '/api/company-certificate-scheme',
    schemeBody(client, typeId),
  );
  expect(res.statusCode).toBe(201);
  return performance.now();
}

// First, while no run of the sender is under way (nothing was kicked yet): it alone sends here.
describe('the breaker', () => {
  it('pauses an endpoint after 5 failures in a row, longer each time; its deliveries wait, then all go', async () => {
    const partner = await receiver();
    partner.answer.status = 500;
    try {
      const id = await addWebhook(partner.url);
      const start = new Date(Math.floor(Date.now() / 1000) * 1000);
      ctx.clock.set(start);
      const at = (ms: number) => ctx.clock.set(new Date(start.getTime() + ms));
      const hook = { id, company_id: company };
      for (let i = 0; i < WEBHOOK_BREAKER_FAILURES + 2; i++)
        await queueDelivery(ctx.database.db, ctx.clock, hook, 'scheme.created', { n: i });
      const deliver = () => deliverDueWebhooks(ctx.database.db, ctx.clock, { allowPrivate: true });
      const shown = async () =>
        (await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook?company_id=${company}`)).json<{
          data: { consecutive_failures: number; paused_until: string | null }[];
        }>().data[0]!;

      // Five failures, one delivery after another; then paused for a minute.
      expect(await deliver()).toMatchObject({
        tried: WEBHOOK_BREAKER_FAILURES,
        retrying: WEBHOOK_BREAKER_FAILURES,
      });
      expect(await shown()).toEqual(
        expect.objectContaining({
          consecutive_failures: WEBHOOK_BREAKER_FAILURES,
          paused_until: new Date(start.getTime() + WEBHOOK_BREAKER_PAUSE_MS).toISOString(),
        }),
      );
      // Paused: nothing is tried though retries are due, and nothing is given up.
      at(WEBHOOK_RETRY_DELAYS_MS[0] + 1000);
      expect((await deliver()).tried).toBe(0);
      expect(partner.arrivals).toHaveLength(WEBHOOK_BREAKER_FAILURES);
      const rows = await ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhook_id, id));
      expect(rows.every((r) => r.state === 'queued')).toBe(true);

      // The pause over, one try; failing again, paused twice as long.
      at(WEBHOOK_BREAKER_PAUSE_MS);
      expect((await deliver()).tried).toBe(1);
      expect(await shown()).toEqual(
        expect.objectContaining({
          consecutive_failures: WEBHOOK_BREAKER_FAILURES + 1,
          paused_until: new Date(start.getTime() + 3 * WEBHOOK_BREAKER_PAUSE_MS).toISOString(),
        }),
      );
      at(2 * WEBHOOK_BREAKER_PAUSE_MS);
      expect((await deliver()).tried).toBe(0);

      // The endpoint is back: after the pause every delivery goes, and the breaker closes.
      partner.answer.status = 200;
      at(3 * WEBHOOK_BREAKER_PAUSE_MS);
      expect(await deliver()).toMatchObject({ sent: WEBHOOK_BREAKER_FAILURES + 2 });
      expect(await shown()).toEqual(expect.objectContaining({ consecutive_failures: 0, paused_until: null }));
      const after = await ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhook_id, id));
      expect(after.map((r) => r.state)).toEqual(Array(WEBHOOK_BREAKER_FAILURES + 2).fill('sent'));
    } finally {
      await partner.close();
    }
  }, 30_000);
});

describe('a record’s event', () => {
  it('arrives within 5 s of the write’s commit, not at the next scheduled run', async () => {
    const partner = await receiver();
    try {
      await addWebhook(partner.url);
      const committed = await writeScheme();
      await waitFor(() => partner.arrivals.length === 1, 'the delivery', { timeoutMs: 10_000, every: 20 });
      expect(partner.arrivals[0]!.at - committed).toBeLessThan(5000);
    } finally {
      await partner.close();
    }
  }, 20_000);
});

describe('a slow endpoint beside a fast one', () => {
  it('holds up only its own deliveries, which it gets one at a time', async () => {
    const slow = await receiver(8000);
    const fast = await receiver();
    try {
      await addWebhook(slow.url);
      await addWebhook(fast.url);
      const first = await writeScheme();
      await waitFor(() => fast.arrivals.length === 1, 'the fast one’s first', {
        timeoutMs: 10_000,
        every: 20,
      });
      expect(fast.arrivals[0]!.at - first).toBeLessThan(2000);
      // The slow one is still answering its first; the next event reaches the fast one at once.
      await waitFor(() => slow.arrivals.length === 1, 'the slow one’s first', { timeoutMs: 5000, every: 20 });
      const second = await writeScheme();
      await waitFor(() => fast.arrivals.length === 2, 'the fast one’s second', {
        timeoutMs: 10_000,
        every: 20,
      });
      expect(fast.arrivals[1]!.at - second).toBeLessThan(2000);
      expect(slow.arrivals).toHaveLength(1);
      // The slow one gets its second once it has answered the first: never two at once.
      await waitFor(() => slow.arrivals.length === 2, 'the slow one’s second', {
        timeoutMs: 20_000,
        every: 50,
      });
      expect(slow.arrivals[1]!.at - slow.arrivals[0]!.at).toBeGreaterThanOrEqual(7900);
      expect(slow.mostAtOnce()).toBe(1);
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 45_000);
});
