/**
 * 'Kirim Tes' and 'Kirim Ulang' on the real job engine, to a real HTTP receiver on loopback: the
 * route answers the delivery as queued before anything reaches the receiver, and the sender job,
 * woken by the commit, brings it within seconds (the minute's schedule is once a year here, so only
 * the wake-up can do it); a paused endpoint gets them too, while its other deliveries wait
 * (docs/rules.md#notifications).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { eq, inArray } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';
import { waitFor } from '../../../test/processes';
import { deliverDueWebhooks } from '../../notify/webhook-delivery';
import { queueDelivery } from '../../notify/webhooks';

/** A receiver on loopback noting each request's event type and arrival, answering `status` after `delayMs`. */
async function receiver(delayMs: number) {
  const arrivals: { at: number; type: string }[] = [];
  const answer = { status: 200 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      arrivals.push({ at: performance.now(), type: (JSON.parse(body) as { type: string }).type });
      setTimeout(() => res.writeHead(answer.status).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ctx = useTestContext({ WEBHOOK_ALLOW_PRIVATE: 'true', NOTIFY_SEND_SCHEDULE: '0 0 1 1 *' });
let company: string;

beforeAll(async () => {
  company = await ctx.make.company('PT LSP Uji Kirim');
});

interface Delivery {
  id: string;
  state: string;
  attempts: number;
  tries: { status: number | null }[];
}

/**
 * Polls the delivery as the screen does, until it has `tries` tries (and, when `state` is given, is
 * in it: the delivery and its tries are two reads).
 */
const triedDelivery = (id: string, tries: number, state?: string) =>
  waitFor(
    async () => {
      const d = (await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook-delivery/${id}`)).json<Delivery>();
      return d.tries.length >= tries && (!state || d.state === state) ? d : null;
    },
    'the delivery’s try',
    { timeoutMs: 10_000, every: 50 },
  );

describe('Kirim Tes and Kirim Ulang', () => {
  it('answer at once, queued; the sender job brings the delivery within seconds', async () => {
    // The receiver takes a second to answer: the route does not wait for it.
    const partner = await receiver(1000);
    try {
      const hook = await ctx.make.webhook(company, partner.url, ['scheme.created']);
      const asked = performance.now();
      const res = await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook/${hook}/test`);
      const answered = performance.now();
      expect(res.statusCode).toBe(202);
      const queued = res.json<Delivery>();
      expect(queued).toMatchObject({ state: 'queued', attempts: 0, tries: [] });
      expect(answered - asked).toBeLessThan(1000);
      expect(await triedDelivery(queued.id, 1, 'sent')).toMatchObject({ tries: [{ status: 200 }] });
      expect(partner.arrivals.map((a) => a.type)).toEqual(['webhook.test']);
      expect(partner.arrivals[0]!.at - answered).toBeLessThan(5000);

      const again = await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook-delivery/${queued.id}/resend`);
      const resentAt = performance.now();
      expect(again.statusCode).toBe(202);
      expect(again.json()).toMatchObject({ state: 'queued', attempts: 0, tries: [{ status: 200 }] });
      expect(await triedDelivery(queued.id, 2, 'sent')).toMatchObject({ attempts: 1 });
      expect(partner.arrivals.map((a) => a.type)).toEqual(['webhook.test', 'webhook.test']);
      expect(partner.arrivals[1]!.at - resentAt).toBeLessThan(5000);
    } finally {
      await partner.close();
    }
  }, 30_000);

  it('reach a paused endpoint once each, whose other deliveries wait', async () => {
    const partner = await receiver(0);
    try {
      const hook = await ctx.make.webhook(company, partner.url, ['scheme.created']);
      const test = (
        await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook/${hook}/test`)
      ).json<Delivery>();
      await triedDelivery(test.id, 1, 'sent');
      // The endpoint fails again and again meanwhile (the breaker): paused for an hour.
      partner.answer.status = 500;
      await ctx.database.db
        .update(webhooks)
        .set({ consecutive_failures: 5, paused_until: new Date(Date.now() + 3600_000) })
        .where(eq(webhooks.id, hook));
      const waiting = await queueDelivery(
        ctx.database.db,
        ctx.clock,
        { id: hook, company_id: company },
        'scheme.created',
        {},
      );

      const resend = await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook-delivery/${test.id}/resend`);
      expect(resend.statusCode).toBe(202);
      expect(await triedDelivery(test.id, 2)).toMatchObject({
        state: 'queued',
        tries: [{ status: 500 }, {}],
      });
      const second = (
        await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook/${hook}/test`)
      ).json<Delivery>();
      expect(await triedDelivery(second.id, 1)).toMatchObject({ state: 'queued', tries: [{ status: 500 }] });
      expect(partner.arrivals.map((a) => a.type)).toEqual(['webhook.test', 'webhook.test', 'webhook.test']);
      // Their outcome counts; the endpoint stays paused, its event waiting, untried.
      const [row] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, hook));
      expect(row!.consecutive_failures).toBe(7);
      expect(row!.paused_until!.getTime()).toBeGreaterThan(Date.now());
      const event = (
        await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook-delivery/${waiting}`)
      ).json<Delivery>();
      expect(event).toMatchObject({ state: 'queued', attempts: 0, tries: [] });
      // Their retries wait for the pause like any other delivery's, even once due.
      await ctx.database.db
        .update(webhookDeliveries)
        .set({ next_attempt_at: new Date() })
        .where(inArray(webhookDeliveries.id, [test.id, second.id]));
      expect((await deliverDueWebhooks(ctx.database.db, ctx.clock, { allowPrivate: true })).tried).toBe(0);
      expect(partner.arrivals).toHaveLength(3);
    } finally {
      await partner.close();
    }
  }, 30_000);
});
