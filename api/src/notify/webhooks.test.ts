/**
 * Webhook deliveries against real HTTP receivers (node:http, started here): queued by the
 * after-write step in the writer's transaction, signed per Standard Webhooks and verified with the
 * `standardwebhooks` library as a receiver would, retried after a failure until acknowledged and
 * then no more, bounded by the 10 s timeout, and never sent for a rolled-back write.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { webhookDeliveries, webhooks } from '../db/schema';
import { ADMIN_PASSWORD, call, login, useTestContext } from '../../test/helpers';
import { schemeBody } from '../../test/forms';
import { create as createScheme } from '../modules/schemes/schemes.service';
import { systemActor } from '../services/context';
import { deliverDueWebhooks, WEBHOOK_RETRY_DELAYS_MS } from './webhook-delivery';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering each request with the next status of `answers` (then 200). */
async function receiver(answers: (number | 'silent')[]) {
  const received: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? 200;
      if (answer === 'silent') {
        open.add(res);
        return;
      }
      res.writeHead(answer).end(answer === 200 ? 'ok' : 'gagal');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Real time (to the second): a receiver's check refuses a signature timestamp more than 5 minutes
 * from its own clock, so the tests move the app's clock only by seconds before a check.
 */
const START = new Date(Math.floor(Date.now() / 1000) * 1000);
const ctx = useTestContext({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { now: START });
let company: string;
let typeId: string;

beforeAll(async () => {
  company = await ctx.make.company('PT LSP Kirim');
  typeId = await ctx.make.certificationType(company, 'ISO 9001:2015');
});
afterEach(async () => {
  ctx.clock.set(START);
  // Each test's webhooks go with their deliveries.
  await ctx.database.db.delete(webhooks);
});

const deliver = (timeoutMs?: number) =>
  deliverDueWebhooks(ctx.database.db, ctx.clock, { allowPrivate: true, ...(timeoutMs ? { timeoutMs } : {}) });
const later = (ms: number) => ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));

async function addWebhook(url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/webhook', {
    company_id: company,
    url,
    events,
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function addScheme(over: Record<string, unknown> = {}) {
  const client = await ctx.make.client(company, 'PT Maju Bersama');
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company-certificate-scheme', {
    ...schemeBody(client, typeId),
    ...over,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; cert_number: string; certificate_id: string }>();
}

describe('a webhook that fails, then acknowledges', () => {
  it('gets the event again after 5 s, signed, verifiable, and nothing after its 2xx', async () => {
    const partner = await receiver([500]);
    try {
      const hook = await addWebhook(partner.url, ['scheme.created']);
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const scheme = await addScheme();

      expect(await deliver()).toMatchObject({ tried: 1, retrying: 1 });
      expect(partner.received).toHaveLength(1);
      // Not due again before 5 s have passed.
      later(WEBHOOK_RETRY_DELAYS_MS[0] - 1000);
      expect((await deliver()).tried).toBe(0);
      later(1000);
      expect(await deliver()).toMatchObject({ tried: 1, sent: 1 });
      expect(partner.received).toHaveLength(2);

      // The receiver's check: the library verifies the signature with the secret shown at creation.
      const verifier = new Webhook(hook.secret);
      const [first, second] = partner.received as [Received, Received];
      expect(second.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      const body = verifier.verify(second.body, second.headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
      // The same message both times (one id), signed at each try.
      expect(first.headers['webhook-id']).toBe(second.headers['webhook-id']);
      expect(Number(second.headers['webhook-timestamp'])).toBe(Math.floor(ctx.clock.now().getTime() / 1000));
      expect(body.type).toBe('scheme.created');
      expect(body.timestamp).toBe(START.toISOString());
      expect(body.data).toEqual({
        id: scheme.id,
        cert_number: scheme.cert_number,
        name: 'PT Maju Bersama',
        address: null,
        scope: null,
        ea_code: null,
        standard: 'ISO 9001:2015',
        accreditation: null,
        issue_date: '2025-01-10',
        expired_date: '2028-01-10',
        surveillance_date: null,
        status: 'ACTIVE',
        description: null,
      });
      // A tampered body fails the receiver's check.
      expect(() =>
        verifier.verify(second.body.replace('ACTIVE', 'WITHDRAWN'), second.headers as Record<string, string>),
      ).toThrow();

      // The delivery log shows both tries, newest first.
      const log = await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook/${hook.id}/deliveries`);
      expect(log.statusCode).toBe(200);
      const [delivery] = log.json<{ data: Record<string, unknown>[] }>().data;
      expect(delivery).toMatchObject({
        event_type: 'scheme.created',
        state: 'sent',
        attempts: 2,
        last_status: 200,
      });
      expect(
        (delivery!.tries as { status: number; error: string | null }[]).map((t) => [t.status, t.error]),
      ).toEqual([
        [200, null],
        [500, 'Jawaban HTTP 500'],
      ]);
      // Acknowledged: never again, however much later.
      later(24 * 3600_000);
      expect((await deliver()).tried).toBe(0);
      expect(partner.received).toHaveLength(2);
    } finally {
      await partner.close();
    }
  });
});

describe('which writes make which events', () => {
  it('a status change is an update and a status change; a new QR alone is nothing', async () => {
    const partner = await receiver([]);
    try {
      await addWebhook(partner.url, ['scheme.updated', 'scheme.status_changed', 'scheme.deleted']);
      const scheme = await addScheme();
      const qr = await call(ctx.app, ctx.adminToken, 'GET', `/api/generate-qr-scheme/${scheme.id}`);
      expect(qr.statusCode).toBe(200);
      const put = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company-certificate-scheme/${scheme.id}`, {
        ...schemeBody(scheme.certificate_id, typeId),
        cert_number: scheme.cert_number,
        status: 'SUSPENDED',
        desc: 'Ditangguhkan sementara',
      });
      expect(put.json()).toMatchObject({ status: 'SUSPENDED' });
      await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company-certificate-scheme/${scheme.id}`);
      await deliver();
      const types = partner.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
      expect(types.sort()).toEqual(['scheme.deleted', 'scheme.status_changed', 'scheme.updated']);
      const changed = partner.received.find((r) => r.body.includes('status_changed'))!;
      expect(JSON.parse(changed.body).data).toMatchObject({
        status: 'SUSPENDED',
        description: 'Ditangguhkan sementara',
      });
    } finally {
      await partner.close();
    }
  });

  it('a rolled-back write queues nothing; a committed one is queued with it', async () => {
    const partner = await receiver([]);
    try {
      const hook = await addWebhook(partner.url, ['scheme.created']);
      const client = await ctx.make.client(company, 'PT Batal');
      const ctxOf = (tx: Parameters<Parameters<typeof ctx.database.db.transaction>[0]>[0]) => ({
        tx,
        actor: systemActor(),
        clock: ctx.clock,
        config: ctx.app.config,
      });
      await expect(
        ctx.database.db.transaction(async (tx) => {
          await createScheme(ctxOf(tx), schemeBody(client, typeId) as never);
          throw new Error('batal');
        }),
      ).rejects.toThrow('batal');
      const queuedFor = async () =>
        ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhook_id, hook.id));
      expect(await queuedFor()).toHaveLength(0);
      expect((await deliver()).tried).toBe(0);
      expect(partner.received).toHaveLength(0);

      await ctx.database.db.transaction((tx) => createScheme(ctxOf(tx), schemeBody(client, typeId) as never));
      expect(await queuedFor()).toHaveLength(1);
      await deliver();
      expect(partner.received).toHaveLength(1);
    } finally {
      await partner.close();
    }
  });
});

describe('a receiver that never answers', () => {
  it('Kirim Tes gives up after 10 s, and the delivery is tried again 5 s later', async () => {
    const partner = await receiver(['silent', 200]);
    try {
      const hook = await addWebhook(partner.url, ['training.created']);
      // Queued through the route and answered at once; the sender (by hand here) tries it, with
      // the real bound: the one wait of this file.
      const res = await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook/${hook.id}/test`);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ state: 'queued', attempts: 0, tries: [] });
      expect(partner.received).toHaveLength(0);
      expect(await deliver()).toMatchObject({ tried: 1, retrying: 1 });
      const tried = await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook-delivery/${res.json().id}`);
      const delivery = tried.json<{
        id: string;
        state: string;
        tries: { status: number | null; error: string; duration_ms: number }[];
      }>();
      expect(delivery.state).toBe('queued');
      expect(delivery.tries).toHaveLength(1);
      expect(delivery.tries[0]).toMatchObject({ status: null, error: 'Tidak ada jawaban dalam 10 detik' });
      expect(delivery.tries[0]!.duration_ms).toBeGreaterThanOrEqual(9_900);
      expect(JSON.parse(partner.received[0]!.body)).toMatchObject({
        type: 'webhook.test',
        data: { webhook_id: hook.id, company: 'PT LSP Kirim' },
      });
      later(WEBHOOK_RETRY_DELAYS_MS[0]);
      expect(await deliver()).toMatchObject({ tried: 1, sent: 1 });
      expect(partner.received).toHaveLength(2);
    } finally {
      await partner.close();
    }
  }, 30_000);

  it('gives up after the sixth retry (5 s, 5 min, 30 min, 2 h, 5 h, 10 h)', async () => {
    const partner = await receiver(Array(7).fill(503));
    try {
      const hook = await addWebhook(partner.url, ['scheme.created']);
      await addScheme();
      await deliver();
      for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
        later(delay);
        expect((await deliver()).tried).toBe(1);
      }
      const [row] = await ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhook_id, hook.id));
      expect(row).toMatchObject({ state: 'failed', attempts: 7, last_status: 503 });
      later(30 * 24 * 3600_000);
      expect((await deliver()).tried).toBe(0);
      expect(partner.received).toHaveLength(7);

      // 'Kirim Ulang' starts it afresh, for the sender to try (signed in again: a month has passed).
      ctx.clock.set(START);
      const token = await login(ctx.app, 'admin', ADMIN_PASSWORD);
      const again = await call(ctx.app, token, 'POST', `/api/webhook-delivery/${row!.id}/resend`);
      expect(again.statusCode).toBe(202);
      expect(again.json()).toMatchObject({ state: 'queued', attempts: 0, last_error: null });
      expect(await deliver()).toMatchObject({ tried: 1, sent: 1 });
      const resent = await call(ctx.app, token, 'GET', `/api/webhook-delivery/${row!.id}`);
      expect(resent.json()).toMatchObject({ state: 'sent', attempts: 1, last_status: 200 });
      expect(partner.received).toHaveLength(8);
      // A sent one may be sent again too.
      const twice = await call(ctx.app, token, 'POST', `/api/webhook-delivery/${row!.id}/resend`);
      expect(twice.statusCode).toBe(202);
    } finally {
      await partner.close();
    }
  });
});
