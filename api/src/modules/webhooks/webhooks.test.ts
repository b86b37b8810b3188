/**
 * 'Webhook' routes: what may be saved (HTTPS, public addresses only), the secret shown once, the
 * company scope, and the refusal of private addresses again at delivery (the address the
 * connection would use, so a name turning private later is refused too).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { auditLog, webhooks } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';
import type { SignedIn } from '../../../test/fixtures';
import { WEBHOOK_URL_MESSAGES } from '../../notify/address';
import { deliverDueWebhooks } from '../../notify/webhook-delivery';
import { queueDelivery } from '../../notify/webhooks';
import { RESEND_QUEUED, WEBHOOK_COMPANY_FIXED } from './webhooks.service';
import { webhookDeliveries } from '../../db/schema';

const ctx = useTestContext();
let alfa: string;
let beta: string;
let alfaUser: SignedIn;

beforeAll(async () => {
  ({ alfa, beta, editor: alfaUser } = await ctx.make.cast('webhook', 'Webhook', { editor: ['webhook'] }));
});

const PUBLIC_URL = 'https://93.184.215.14/hook';
const body = (over: Record<string, unknown> = {}) => ({
  company_id: alfa,
  url: PUBLIC_URL,
  events: ['scheme.created', 'training.deleted'],
  ...over,
});

describe('saving a webhook', () => {
  it('answers the secret once; lists, edits and the audit log never show it', async () => {
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      '/api/webhook',
      body({ description: 'ERP mitra' }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json<{ id: string; secret: string }>();
    expect(created).toMatchObject({
      company_id: alfa,
      company: { id: alfa, name: 'PT Alfa Webhook' },
      url: PUBLIC_URL,
      description: 'ERP mitra',
      events: ['scheme.created', 'training.deleted'],
      is_active: 'true',
    });
    expect(created.secret).toMatch(/^whsec_/);
    const list = await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook?company_id=${alfa}`);
    expect(list.json().data).toHaveLength(1);
    expect(list.body).not.toContain(created.secret);
    const put = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/webhook/${created.id}`,
      body({ is_active: 'false' }),
    );
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ is_active: 'false' });
    expect(put.body).not.toContain('whsec_');
    // The secret stays what was shown.
    const [row] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(row!.secret).toBe(created.secret);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity_id, created.id));
    expect(audit.length).toBe(2);
    expect(JSON.stringify(audit)).not.toContain(created.secret);
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/webhook/${created.id}`);
  });

  it('refuses private, loopback and link-local addresses, ports other than 443, and plain HTTP', async () => {
    const refused: [string, string][] = [
      ['https://127.0.0.1/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://10.1.2.3/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://192.168.1.20/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://172.20.0.1/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://169.254.169.254/latest/meta-data', WEBHOOK_URL_MESSAGES.private],
      ['https://[::1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[fe80::1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[::ffff:10.0.0.1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://localhost/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[::a00:1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[::ffff:0:a9fe:a9fe]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[64:ff9b:1::a00:1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[fec0::1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://[2002:c0a8:101::1]/hook', WEBHOOK_URL_MESSAGES.private],
      ['https://93.184.215.14:8443/hook', WEBHOOK_URL_MESSAGES.port],
      ['https://93.184.215.14:22/hook', WEBHOOK_URL_MESSAGES.port],
      ['https://localhost:8443/hook', WEBHOOK_URL_MESSAGES.port],
      ['http://93.184.215.14/hook', WEBHOOK_URL_MESSAGES.https],
      ['https://mitra:rahasia@93.184.215.14/hook', WEBHOOK_URL_MESSAGES.credentials],
      ['ftp://93.184.215.14/hook', 'URL harus berupa URL yang valid (contoh: https://contoh.co.id)'],
    ];
    for (const [url, message] of refused) {
      const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/webhook', body({ url }));
      expect([url, res.statusCode, res.json().errors]).toEqual([url, 422, { url: message }]);
    }
    expect(await ctx.database.db.select().from(webhooks)).toHaveLength(0);
  });

  it('refuses an empty or unknown event list', async () => {
    for (const events of [[], ['scheme.archived'], 'scheme.created']) {
      const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/webhook', body({ events }));
      expect([events, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([
        events,
        422,
        [expect.stringMatching(/^events/)],
      ]);
    }
  });
});

describe('company scope', () => {
  it('a scoped user sees and manages only their companies’ webhooks', async () => {
    const theirs = await ctx.make.webhook(beta, PUBLIC_URL);
    const mine = await ctx.make.webhook(alfa, PUBLIC_URL);
    const token = alfaUser.token;
    const all = await call(ctx.app, token, 'GET', '/api/webhook?company_id=ALL');
    expect(all.json<{ data: { id: string }[] }>().data.map((w) => w.id)).toEqual([mine]);
    expect((await call(ctx.app, token, 'GET', `/api/webhook?company_id=${beta}`)).statusCode).toBe(403);
    expect((await call(ctx.app, token, 'POST', '/api/webhook', body({ company_id: beta }))).statusCode).toBe(
      403,
    );
    expect(
      (await call(ctx.app, token, 'PUT', `/api/webhook/${mine}`, body({ company_id: beta }))).statusCode,
    ).toBe(403);
    expect((await call(ctx.app, token, 'PUT', `/api/webhook/${theirs}`, body())).statusCode).toBe(404);
    expect((await call(ctx.app, token, 'DELETE', `/api/webhook/${theirs}`)).statusCode).toBe(404);
    expect((await call(ctx.app, token, 'GET', `/api/webhook/${theirs}/deliveries`)).statusCode).toBe(404);
    expect((await call(ctx.app, token, 'POST', `/api/webhook/${theirs}/test`)).statusCode).toBe(404);
    const delivery = await ctx.make.failedDelivery(beta);
    expect((await call(ctx.app, token, 'POST', `/api/webhook-delivery/${delivery}/resend`)).statusCode).toBe(
      404,
    );
    expect((await call(ctx.app, token, 'GET', `/api/webhook-delivery/${delivery}`)).statusCode).toBe(404);
    // Nothing was queued or started afresh outside the scope.
    const [theirDelivery] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, delivery));
    expect(theirDelivery).toMatchObject({ state: 'failed', attempts: 7 });
    expect(
      await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhook_id, theirs)),
    ).toHaveLength(0);
    expect((await call(ctx.app, token, 'DELETE', `/api/webhook/${mine}`)).json()).toEqual({
      success: true,
      message: expect.any(String),
    });
    // The admin (scope ALL) still sees the other company's.
    const admin = await call(ctx.app, ctx.adminToken, 'GET', '/api/webhook?company_id=ALL');
    expect(admin.json<{ data: { company_id: string }[] }>().data.map((w) => w.company_id)).toEqual(
      expect.arrayContaining([beta]),
    );
  });
});

describe('private addresses and ports at delivery', () => {
  /** A TCP server on loopback counting the connections made to it. */
  async function listener() {
    const server = net.createServer((socket) => {
      seen.connections++;
      socket.destroy();
    });
    const seen = { connections: 0 };
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      port,
      seen,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('never connects to a port other than 443 (Kirim Tes of a webhook saved before)', async () => {
    const far = await listener();
    try {
      // Stored before (while the deployment allowed the port, or private addresses).
      const webhookId = await ctx.make.webhook(alfa, `https://127.0.0.1:${far.port}/hook`);
      const res = await call(ctx.app, ctx.adminToken, 'POST', `/api/webhook/${webhookId}/test`);
      expect(res.statusCode).toBe(202);
      const queued = res.json<{ id: string }>();
      expect(queued).toMatchObject({ event_type: 'webhook.test', state: 'queued', attempts: 0, tries: [] });
      // The sender (off in this file: here by hand), with the deployment's settings.
      await deliverDueWebhooks(ctx.database.db, ctx.clock, {
        allowPrivate: ctx.app.config.webhookAllowPrivate,
        allowPorts: ctx.app.config.webhookAllowPorts,
      });
      const tried = await call(ctx.app, ctx.adminToken, 'GET', `/api/webhook-delivery/${queued.id}`);
      expect(tried.json()).toMatchObject({
        state: 'queued',
        tries: [{ status: null, error: WEBHOOK_URL_MESSAGES.port }],
      });
      expect(far.seen.connections).toBe(0);
    } finally {
      await far.close();
    }
  });

  it('never connects to a loopback address, by IP or by a name that resolves to one', async () => {
    const far = await listener();
    try {
      // Any port allowed here: the address alone is refused.
      const settings = { allowPrivate: false, allowPorts: '*' } as const;
      for (const url of [`https://127.0.0.1:${far.port}/hook`, `https://localhost:${far.port}/hook`]) {
        const webhookId = await ctx.make.webhook(alfa, url);
        await ctx.database.db
          .update(webhookDeliveries)
          .set({ state: 'sent' })
          .where(eq(webhookDeliveries.company_id, alfa));
        const delivery = await queueDelivery(
          ctx.database.db,
          ctx.clock,
          { id: webhookId, company_id: alfa },
          'webhook.test',
          {},
        );
        expect(await deliverDueWebhooks(ctx.database.db, ctx.clock, settings)).toMatchObject({
          tried: 1,
          retrying: 1,
        });
        const [row] = await ctx.database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.id, delivery));
        expect(row!.last_error).toBe(WEBHOOK_URL_MESSAGES.private);
      }
      expect(far.seen.connections).toBe(0);
    } finally {
      await far.close();
    }
  });
});

describe("a webhook's company", () => {
  it('cannot change: an update naming another company is 422 on company_id, nothing changes', async () => {
    const id = await ctx.make.webhook(alfa, PUBLIC_URL);
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `/api/webhook/${id}`, body({ company_id: beta }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: expect.any(String),
      message: WEBHOOK_COMPANY_FIXED,
      errors: { company_id: WEBHOOK_COMPANY_FIXED },
    });
    const [row] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row!.company_id).toBe(alfa);
    // The same company, any letter case: an ordinary update.
    const same = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/webhook/${id}`,
      body({ company_id: alfa.toUpperCase(), description: 'tetap' }),
    );
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ company_id: alfa, description: 'tetap' });
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/webhook/${id}`);
  });
});

describe('Kirim Tes and Kirim Ulang', () => {
  it('are limited per user, each: the 6th in a minute is 429, another user still may', async () => {
    const user = await ctx.make.user({ username: 'penguji.kirim', keys: ['webhook'], company_ids: [alfa] });
    // Refused before any connection (a port other than 443): nothing leaves the machine.
    const id = await ctx.make.webhook(alfa, 'https://127.0.0.1:9/hook');
    const test = (token: string) => call(ctx.app, token, 'POST', `/api/webhook/${id}/test`);
    const resend = async (token: string) =>
      call(ctx.app, token, 'POST', `/api/webhook-delivery/${await ctx.make.failedDelivery(alfa)}/resend`);
    for (const send of [test, resend]) {
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await send(user.token));
      expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 202, 202, 429]);
      expect(answers[5]!.json()).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await test(ctx.adminToken)).statusCode).toBe(202);
    expect((await resend(ctx.adminToken)).statusCode).toBe(202);
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/webhook/${id}`);
  });
});

describe('Kirim Tes and Kirim Ulang, written', () => {
  const auditOf = (id: string) =>
    ctx.database.db.select().from(auditLog).where(eq(auditLog.entity_id, id)).orderBy(auditLog.at);

  it('Kirim Tes queues a webhook.test delivery, answered at once, with an audit row', async () => {
    const hook = await ctx.make.webhook(alfa, 'https://127.0.0.1:9/hook');
    const res = await call(ctx.app, alfaUser.token, 'POST', `/api/webhook/${hook}/test`);
    expect(res.statusCode).toBe(202);
    const queued = res.json<{ id: string }>();
    expect(queued).toMatchObject({
      webhook_id: hook,
      event_type: 'webhook.test',
      state: 'queued',
      tries: [],
    });
    const [row] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, queued.id));
    expect(JSON.parse(row!.payload)).toMatchObject({
      type: 'webhook.test',
      data: { webhook_id: hook, company: 'PT Alfa Webhook' },
    });
    expect(await auditOf(queued.id)).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'webhook-delivery',
        company_id: alfa,
        actor_id: alfaUser.id,
        after: res.json(),
      }),
    ]);
    // The one delivery, answered by its own route too.
    const read = await call(ctx.app, alfaUser.token, 'GET', `/api/webhook-delivery/${queued.id}`);
    expect(read.json()).toEqual(res.json());
  });

  it('Kirim Ulang starts a failed delivery afresh with an audit row; a queued one is 422, nothing written', async () => {
    const id = await ctx.make.failedDelivery(alfa);
    const res = await call(ctx.app, alfaUser.token, 'POST', `/api/webhook-delivery/${id}/resend`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id, state: 'queued', attempts: 0, last_error: null });
    const audit = await auditOf(id);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'update',
        entity: 'webhook-delivery',
        company_id: alfa,
        actor_id: alfaUser.id,
        before: expect.objectContaining({ id, state: 'failed', attempts: 7 }),
        after: res.json(),
      }),
    ]);
    // Queued now: the sender will try it anyway.
    const again = await call(ctx.app, alfaUser.token, 'POST', `/api/webhook-delivery/${id}/resend`);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ code: expect.any(String), message: RESEND_QUEUED });
    expect(await auditOf(id)).toHaveLength(1);
    const missing = '00000000-0000-4000-8000-00000000dead';
    expect(
      (await call(ctx.app, alfaUser.token, 'POST', `/api/webhook-delivery/${missing}/resend`)).statusCode,
    ).toBe(404);
    expect((await call(ctx.app, alfaUser.token, 'POST', `/api/webhook/${missing}/test`)).statusCode).toBe(
      404,
    );
  });

  it('asks for sign-in and the webhook permission', async () => {
    const id = await ctx.make.failedDelivery(alfa);
    const hook = await ctx.make.webhook(alfa);
    const other = await ctx.make.user({
      username: 'tanpa.webhook',
      keys: ['statistik'],
      company_ids: [alfa],
    });
    for (const [method, url] of [
      ['POST', `/api/webhook/${hook}/test`],
      ['POST', `/api/webhook-delivery/${id}/resend`],
      ['GET', `/api/webhook-delivery/${id}`],
    ] as const) {
      expect([url, (await call(ctx.app, null, method, url)).statusCode]).toEqual([url, 401]);
      expect([url, (await call(ctx.app, other.token, method, url)).statusCode]).toEqual([url, 403]);
    }
    expect(await auditOf(id)).toHaveLength(0);
  });
});
