/**
 * Webhooks of a company ('Webhook', permission `webhook`): create (the secret answered this once),
 * update (never to another company), delete, each audited without the secret; the URL checked by
 * notify/address.ts. 'Kirim Tes' and 'Kirim Ulang' queue a delivery for the sender job, audited
 * too. Reads and the deliveries' log are here too (docs/rules.md#notifications).
 */
import { and, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import {
  ALL,
  type CompanyListQuery,
  type CompanyScope,
  type DeleteResponse,
  type ListQuery,
  type ListResponse,
  MESSAGES,
  toFlag,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookInput,
  WEBHOOK_TEST_EVENT,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { afterCommit } from '../../db/after-commit';
import { companies, webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { invalid, notFound, refused } from '../../lib/errors';
import { inCompanies, listPage, searchAny } from '../../lib/list';
import { checkCompanyExists, checkCompanyInScope } from '../resource/resource.service';
import { webhookUrlProblem } from '../../notify/address';
import { newWebhookSecret, requeueDelivery } from '../../notify/webhook-delivery';
import { queueDelivery, testEventData, WEBHOOK_DELIVERIES_QUEUED } from '../../notify/webhooks';
import type { ServiceContext } from '../../services/context';
import {
  type RecordWrite,
  rowsById,
  runWriteSequence,
  type WriteAction,
} from '../../services/write-sequence';

type Row = typeof webhooks.$inferSelect;

const toWebhook = (row: Row, company: { id: string; name: string }): Webhook => ({
  id: row.id,
  company_id: row.company_id,
  company,
  url: row.url,
  description: row.description,
  events: row.events,
  is_active: toFlag(row.is_active),
  consecutive_failures: row.consecutive_failures,
  paused_until: row.paused_until?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const inScope = (scope: CompanyScope) => inCompanies(webhooks.company_id, scope);

const selection = { w: getTableColumns(webhooks), company: { id: companies.id, name: companies.name } };

/** A webhook in `scope`, or undefined (absent or outside it: the routes answer 404). */
export async function findWebhook(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<Webhook | undefined> {
  const [row] = await db
    .select(selection)
    .from(webhooks)
    .innerJoin(companies, eq(companies.id, webhooks.company_id))
    .where(and(eq(webhooks.id, id), inScope(scope)));
  return row && toWebhook(row.w, row.company);
}

/** The webhooks of the companies in `scope`, by URL. */
export async function listWebhooks(
  db: Executor,
  query: CompanyListQuery,
  scope: CompanyScope,
): Promise<ListResponse<Webhook>> {
  const where = and(inScope(scope), searchAny(query.search, [webhooks.url, webhooks.description]));
  return listPage(
    query,
    async () => (await db.select({ n: count() }).from(webhooks).where(where))[0]?.n ?? 0,
    async (limit, offset) =>
      (
        await db
          .select(selection)
          .from(webhooks)
          .innerJoin(companies, eq(companies.id, webhooks.company_id))
          .where(where)
          .orderBy(sql`lower(${webhooks.url})`, webhooks.id)
          .limit(limit)
          .offset(offset)
      ).map((r) => toWebhook(r.w, r.company)),
  );
}

/** 422 on `url` when it may not be saved (HTTPS, allowed port, public address; notify/address.ts). */
async function checkUrl(ctx: ServiceContext, url: string): Promise<void> {
  const problem = await webhookUrlProblem(url, {
    allowPrivate: ctx.config.webhookAllowPrivate,
    allowPorts: ctx.config.webhookAllowPorts,
  });
  if (problem) throw invalid({ url: problem }, problem);
}

/**
 * A webhook stays with the company it was made for (its secret and queued deliveries are that
 * company's): another company on update is 422 on `company_id`.
 */
export const WEBHOOK_COMPANY_FIXED =
  'Perusahaan webhook tidak dapat diubah; hapus webhook ini dan buat yang baru untuk perusahaan lain';

/**
 * A write of one webhook through the one write sequence (services/write-sequence.ts): no after-write
 * step follows a webhook; audited with the webhook as the API answers it (never its secret).
 */
const writeWebhook = async (
  ctx: ServiceContext,
  action: WriteAction,
  write: RecordWrite,
  run: () => Promise<unknown>,
): Promise<Webhook | undefined> =>
  (
    await runWriteSequence<unknown, Webhook>(ctx, {
      entity: undefined,
      auditEntity: 'webhook',
      action,
      writes: [write],
      write: async () => {
        await run();
      },
      answers: (ids) => rowsById(ids, (id) => findWebhook(ctx.tx, id, ALL)),
    })
  )[0];

export async function createWebhook(ctx: ServiceContext, input: WebhookInput): Promise<WebhookCreated> {
  const companyId = input.company_id.toLowerCase();
  checkCompanyInScope(ctx.actor.scope, companyId);
  await checkCompanyExists(ctx.tx, companyId);
  await checkUrl(ctx, input.url);
  const id = newId();
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  const created = await writeWebhook(ctx, 'create', { id, companyId, current: null }, () =>
    ctx.tx.insert(webhooks).values({
      id,
      company_id: companyId,
      url: input.url,
      description: input.description ?? null,
      events: [...new Set(input.events)],
      secret,
      is_active: input.is_active === 'true',
      created_at: now,
      updated_at: now,
    }),
  );
  return { ...created!, secret };
}

export async function updateWebhook(ctx: ServiceContext, id: string, input: WebhookInput): Promise<Webhook> {
  const before = await findWebhook(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  const companyId = input.company_id.toLowerCase();
  checkCompanyInScope(ctx.actor.scope, companyId);
  if (companyId !== before.company_id)
    throw invalid({ company_id: WEBHOOK_COMPANY_FIXED }, WEBHOOK_COMPANY_FIXED);
  if (input.url !== before.url) await checkUrl(ctx, input.url);
  const after = await writeWebhook(ctx, 'update', { id: before.id, companyId, current: before, before }, () =>
    ctx.tx
      .update(webhooks)
      .set({
        url: input.url,
        description: input.description ?? null,
        events: [...new Set(input.events)],
        is_active: input.is_active === 'true',
        updated_at: ctx.clock.now(),
      })
      .where(eq(webhooks.id, before.id)),
  );
  return after!;
}

export async function removeWebhook(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const before = await findWebhook(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  await writeWebhook(
    ctx,
    'delete',
    { id: before.id, companyId: before.company_id, current: before, before },
    () => ctx.tx.delete(webhooks).where(eq(webhooks.id, before.id)),
  );
  return { success: true, message: MESSAGES.deleted };
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Deliveries with their tries, newest try first. */
async function withTries(db: Executor, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const tries = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.delivery_id,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(webhookAttempts.at), desc(webhookAttempts.id))
    : [];
  return rows.map((row) => ({
    id: row.id,
    webhook_id: row.webhook_id,
    event_type: row.event_type,
    state: row.state as WebhookDelivery['state'],
    attempts: row.attempts,
    last_status: row.last_status,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    tries: tries
      .filter((t) => t.delivery_id === row.id)
      .map((t) => ({ at: t.at.toISOString(), status: t.status, duration_ms: t.duration_ms, error: t.error })),
  }));
}

const deliveryRows = (db: Executor, id: string, scope: CompanyScope) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), inCompanies(webhookDeliveries.company_id, scope)));

/** A delivery of a webhook in `scope`, with its tries; undefined when absent or outside it. */
export async function findDelivery(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<WebhookDelivery | undefined> {
  return (await withTries(db, await deliveryRows(db, id, scope)))[0];
}

/** The audit log's name of webhook deliveries. */
const DELIVERY_ENTITY = 'webhook-delivery';

/** Why 'Kirim Ulang' refuses a delivery still in the queue (the sender will try it anyway). */
export const RESEND_QUEUED = 'Pengiriman masih dalam antrean';

/**
 * A write of one delivery through the one write sequence (services/write-sequence.ts), audited
 * with the delivery as the API answers it; the transaction is marked so that the sender job is
 * woken once it commits (db/after-commit.ts, jobs/notify.ts): the answer says `queued`, the try
 * follows within seconds (docs/rules.md#notifications).
 */
async function writeDelivery(
  ctx: ServiceContext,
  action: WriteAction,
  write: RecordWrite,
  run: () => Promise<unknown>,
): Promise<WebhookDelivery> {
  const [answer] = await runWriteSequence<unknown, WebhookDelivery>(ctx, {
    entity: undefined,
    auditEntity: DELIVERY_ENTITY,
    action,
    writes: [write],
    write: async () => {
      await run();
      afterCommit(ctx.tx, WEBHOOK_DELIVERIES_QUEUED);
    },
    answers: (ids) => rowsById(ids, (id) => findDelivery(ctx.tx, id, ALL)),
  });
  return answer!;
}

/** Kirim Tes: a `webhook.test` delivery of a webhook in the actor's scope (404 outside it), queued. */
export async function sendTest(ctx: ServiceContext, webhookId: string): Promise<WebhookDelivery> {
  const webhook = await findWebhook(ctx.tx, webhookId, ctx.actor.scope);
  if (!webhook) throw notFound();
  const id = newId();
  return writeDelivery(ctx, 'create', { id, companyId: webhook.company_id, current: null }, () =>
    queueDelivery(
      ctx.tx,
      ctx.clock,
      webhook,
      WEBHOOK_TEST_EVENT,
      testEventData({ id: webhook.id, company: webhook.company.name }),
      id,
    ),
  );
}

/**
 * Kirim Ulang: a sent or failed delivery of the actor's scope back in the queue, due now, its tries
 * afresh. 404 outside the scope; 422 for one still queued (also when it became so meanwhile).
 */
export async function resendDelivery(ctx: ServiceContext, deliveryId: string): Promise<WebhookDelivery> {
  const [row] = await deliveryRows(ctx.tx, deliveryId, ctx.actor.scope);
  if (!row) throw notFound();
  if (row.state === 'queued') throw refused(RESEND_QUEUED);
  const [before] = await withTries(ctx.tx, [row]);
  return writeDelivery(
    ctx,
    'update',
    { id: row.id, companyId: row.company_id, current: row, before },
    async () => {
      if (!(await requeueDelivery(ctx.tx, row.id, ctx.clock.now()))) throw refused(RESEND_QUEUED);
    },
  );
}

/** The deliveries of one webhook, newest first, with their tries. */
export async function listDeliveries(
  db: Executor,
  webhookId: string,
  query: ListQuery,
): Promise<ListResponse<WebhookDelivery>> {
  const where = and(
    eq(webhookDeliveries.webhook_id, webhookId),
    searchAny(query.search, [webhookDeliveries.event_type]),
  );
  return listPage(
    query,
    async () => (await db.select({ n: count() }).from(webhookDeliveries).where(where))[0]?.n ?? 0,
    async (limit, offset) =>
      withTries(
        db,
        await db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
          .limit(limit)
          .offset(offset),
      ),
  );
}
