/**
 * Webhooks (docs/architecture.md "Notifications"): a company's events, queued as deliveries in the
 * writer's transaction by an after-write step (a rolled-back write sends nothing, a committed one
 * is never lost), POSTed signed per the Standard Webhooks specification by `deliverDueWebhooks`
 * (webhook-delivery.ts), which the job engine calls; nothing here runs on a timer of its own.
 *
 * The body is `{type, timestamp, data}` with the record's public fields only: what the public
 * check shows of it, and its id.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type WebhookEvent, WEBHOOK_TEST_EVENT } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { afterCommit } from '../db/after-commit';
import { prepared } from '../db/prepared';
import {
  accreditationBodies,
  certificationTypes,
  clientCertificates,
  webhookDeliveries,
  webhooks,
} from '../db/schema';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/crypto';
import type { ServiceContext } from '../services/context';
import { NO_SCHEME_REFS, type SchemeRefs, schemePublicFields } from '../services/scheme-public';
import type { AfterWriteStep, EntityRows, WriteEvent } from '../services/write-event';

type SchemeRow = EntityRows['scheme'];
type TrainingRow = EntityRows['training-certificate'];
type PlannedAuditRow = EntityRows['planned-audit'];

/**
 * The references of schemes' public fields, read in the writer's transaction with one query per
 * table for all of them; by scheme id (absent when the client or the type is not found).
 */
async function schemeRefsOf(tx: Executor, rows: readonly SchemeRow[]): Promise<Map<string, SchemeRefs>> {
  const out = new Map<string, SchemeRefs>();
  if (!rows.length) return out;
  const ids = (pick: (r: SchemeRow) => string | null) => [
    ...new Set(rows.map(pick).filter((id): id is string => !!id)),
  ];
  const clients = new Map(
    (
      await tx
        .select({
          id: clientCertificates.id,
          name: clientCertificates.name,
          address: clientCertificates.address,
          scope: clientCertificates.scope,
          ea_code: clientCertificates.ea_code,
        })
        .from(clientCertificates)
        .where(
          inArray(
            clientCertificates.id,
            ids((r) => r.certificate_id),
          ),
        )
    ).map((c) => [c.id, c]),
  );
  const types = new Map(
    (
      await tx
        .select({ id: certificationTypes.id, name: certificationTypes.name })
        .from(certificationTypes)
        .where(
          inArray(
            certificationTypes.id,
            ids((r) => r.certification_id),
          ),
        )
    ).map((t) => [t.id, t.name]),
  );
  const bodyIds = ids((r) => r.accredited_id);
  const bodies = new Map(
    bodyIds.length
      ? (
          await tx
            .select({ id: accreditationBodies.id, name: accreditationBodies.name })
            .from(accreditationBodies)
            .where(inArray(accreditationBodies.id, bodyIds))
        ).map((b) => [b.id, b.name])
      : [],
  );
  for (const row of rows) {
    const client = clients.get(row.certificate_id);
    const standard = types.get(row.certification_id);
    if (!client || standard === undefined) continue;
    out.set(row.id, {
      name: client.name,
      address: client.address,
      scope: client.scope,
      ea_code: client.ea_code,
      standard,
      accreditation: (row.accredited_id && bodies.get(row.accredited_id)) ?? null,
    });
  }
  return out;
}

/** A scheme's public fields (what the public check shows: services/scheme-public.ts) and its id. */
const schemeDataOf = (row: SchemeRow, ref: SchemeRefs | undefined, today: string): Record<string, unknown> =>
  schemePublicFields(row, ref ?? NO_SCHEME_REFS, today);

/** A training certificate's public fields. */
const trainingData = (row: TrainingRow): Record<string, unknown> => ({
  id: row.id,
  certificate_number: row.certificate_number,
  name: row.name,
  training: row.training,
  location: row.location,
  date: row.date,
});

/** A planned audit's fields a partner hears of (docs/rules.md#auditors-and-planned-audits). */
const plannedAuditData = (row: PlannedAuditRow): Record<string, unknown> => ({
  id: row.id,
  scheme_id: row.scheme_id,
  kind: row.kind,
  start_date: row.start_date,
  end_date: row.end_date,
  audit_days: row.audit_days,
  state: row.state,
});

/**
 * A planned audit's event: planned on create; done or cancelled when its state turns so (a PLANNED
 * one deleted is cancelled too); updated on any other change of a PLANNED one.
 */
function plannedAuditEvents(
  action: WriteEvent['action'],
  before: PlannedAuditRow | null,
  after: PlannedAuditRow | null,
): WebhookEvent[] {
  if (action === 'create') return ['audit.planned'];
  if (action === 'delete') return before?.state === 'PLANNED' ? ['audit.cancelled'] : [];
  if (!before || !after || before.state !== 'PLANNED') return [];
  if (after.state === 'DONE') return ['audit.done'];
  if (after.state === 'CANCELLED') return ['audit.cancelled'];
  return ['audit.updated'];
}

/** The scheme columns whose change the public sees (a new QR image alone is not an event). */
const SCHEME_PUBLIC: readonly (keyof SchemeRow)[] = [
  'cert_number',
  'status',
  'issue_date',
  'expired_date',
  'surveillance_date',
  'description',
  'certificate_id',
  'certification_id',
  'accredited_id',
  'is_accredited',
];
const TRAINING_PUBLIC: readonly (keyof TrainingRow)[] = [
  'certificate_number',
  'name',
  'training',
  'location',
  'date',
];

const changed = <R>(before: R, after: R, columns: readonly (keyof R)[]) =>
  columns.some((c) => String(before[c] ?? '') !== String(after[c] ?? ''));

/**
 * The event types of one write: none for records no webhook hears of, for an update that changed
 * nothing public, and for a scheme that is a DRAFT before and after (the public never sees one).
 * A status change is `scheme.updated` and `scheme.status_changed`.
 */
export function eventTypesOf(event: WriteEvent): WebhookEvent[] {
  if (event.entity === 'scheme') {
    const { before, after } = event;
    if ((before?.status ?? 'DRAFT') === 'DRAFT' && (after?.status ?? 'DRAFT') === 'DRAFT') return [];
    if (event.action === 'create') return ['scheme.created'];
    if (event.action === 'delete') return ['scheme.deleted'];
    if (!before || !after || !changed(before, after, SCHEME_PUBLIC)) return [];
    return before.status !== after.status ? ['scheme.updated', 'scheme.status_changed'] : ['scheme.updated'];
  }
  if (event.entity === 'planned-audit') return plannedAuditEvents(event.action, event.before, event.after);
  if (event.entity === 'training-certificate') {
    if (event.action === 'create') return ['training.created'];
    if (event.action === 'delete') return ['training.deleted'];
    const { before, after } = event;
    return before && after && changed(before, after, TRAINING_PUBLIC) ? ['training.updated'] : [];
  }
  return [];
}

/** The JSON body of a delivery, as it is signed and sent. */
export const webhookBody = (type: string, timestamp: Date, data: Record<string, unknown>): string =>
  JSON.stringify({ type, timestamp: timestamp.toISOString(), data });

/** A delivery to queue: its webhook, event type and public data (and its id, when the caller chose one). */
export interface DeliveryToQueue {
  webhook: { id: string; company_id: string };
  type: string;
  data: Record<string, unknown>;
  id?: string;
}

/**
 * Queues one delivery of `type` to a webhook in the caller's transaction ('Kirim Tes', under `id`
 * when given); answers its id.
 */
export async function queueDelivery(
  tx: Executor,
  clock: Clock,
  webhook: DeliveryToQueue['webhook'],
  type: string,
  data: Record<string, unknown>,
  id?: string,
): Promise<string> {
  const [queued] = await queueDeliveries(tx, clock, [{ webhook, type, data, ...(id ? { id } : {}) }]);
  return queued!;
}

/**
 * Queues deliveries in one statement, queued now and due now; answers their ids. The one place a
 * `webhook_deliveries` row is made: the after-write step, the reminder run and 'Kirim Tes' queue
 * through it.
 */
export async function queueDeliveries(
  tx: Executor,
  clock: Clock,
  deliveries: readonly DeliveryToQueue[],
): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const now = clock.now();
  const rows = deliveries.map((d) => ({
    id: d.id ?? newId(),
    webhook_id: d.webhook.id,
    company_id: d.webhook.company_id,
    event_type: d.type,
    payload: webhookBody(d.type, now, d.data),
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }));
  await tx.insert(webhookDeliveries).values(rows);
  return rows.map((r) => r.id);
}

/**
 * The active webhooks of a company that want any of `types`: every scheme and training write asks
 * (an import, for each row), so it is a prepared statement over `webhooks_company_idx`.
 */
const subscribedWebhooks = prepared('webhooks.subscribed', ['company', 'types'], (db, p, name) =>
  db
    .select({ id: webhooks.id, company_id: webhooks.company_id, events: webhooks.events })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.company_id, p.company),
        eq(webhooks.is_active, true),
        sql`${webhooks.events} && ${p.types}::text[]`,
      ),
    )
    .prepare(name),
);

/** A delivery of a write's event. */
type Queued = DeliveryToQueue & { type: WebhookEvent };

/**
 * The deliveries of writes, in order (a write's webhooks in the order they were read, each with the
 * write's types in order): the subscribed webhooks read once per company of the writes, the
 * schemes' references once for all of them.
 */
async function deliveriesOf(ctx: ServiceContext, events: readonly WriteEvent[]): Promise<Queued[]> {
  const writes = events
    .map((event) => ({
      event,
      types: eventTypesOf(event),
      row: (event.after ?? event.before) as SchemeRow | TrainingRow | PlannedAuditRow,
    }))
    .filter((w) => w.types.length > 0);
  if (!writes.length) return [];
  const typesByCompany = new Map<string, Set<WebhookEvent>>();
  for (const w of writes) {
    const set = typesByCompany.get(w.row.company_id) ?? new Set();
    for (const t of w.types) set.add(t);
    typesByCompany.set(w.row.company_id, set);
  }
  const hooksOf = new Map<string, { id: string; company_id: string; events: string[] }[]>();
  for (const [company, types] of typesByCompany) {
    const hooks = await subscribedWebhooks(ctx.tx, { company, types: [...types] });
    if (hooks.length) hooksOf.set(company, hooks);
  }
  if (!hooksOf.size) return [];
  const wanted = writes
    .map((w) => ({
      ...w,
      hooks: (hooksOf.get(w.row.company_id) ?? []).filter((h) => w.types.some((t) => h.events.includes(t))),
    }))
    .filter((w) => w.hooks.length > 0);
  const refs = await schemeRefsOf(
    ctx.tx,
    wanted.filter((w) => w.event.entity === 'scheme').map((w) => w.row as SchemeRow),
  );
  const today = ctx.clock.today();
  const out: Queued[] = [];
  for (const w of wanted) {
    const data =
      w.event.entity === 'scheme'
        ? schemeDataOf(w.row as SchemeRow, refs.get(w.row.id), today)
        : w.event.entity === 'planned-audit'
          ? plannedAuditData(w.row as PlannedAuditRow)
          : trainingData(w.row as TrainingRow);
    for (const hook of w.hooks)
      for (const type of w.types) if (hook.events.includes(type)) out.push({ webhook: hook, type, data });
  }
  return out;
}

/** The after-commit topic of a transaction that queued deliveries (db/after-commit.ts): the sender wakes. */
export const WEBHOOK_DELIVERIES_QUEUED = 'webhook-deliveries-queued';

/**
 * The after-write step (services/after-write.ts): a delivery for every active webhook of the
 * record's company that wants the event, in the writer's transaction. Its batch form does the same
 * for a batch's writes; either queues them with one insert (`queueDeliveries`) and marks the
 * transaction so that the sender is woken once it commits (jobs/notify.ts): once per transaction,
 * however many writes it holds.
 */
export const queueWebhookEvents: AfterWriteStep = Object.assign(
  (ctx: ServiceContext, event: WriteEvent): Promise<void> => queueEventsOf(ctx, [event]),
  { batch: (ctx: ServiceContext, events: readonly WriteEvent[]) => queueEventsOf(ctx, events) },
);

async function queueEventsOf(ctx: ServiceContext, events: readonly WriteEvent[]): Promise<void> {
  const queued = await deliveriesOf(ctx, events);
  if (!queued.length) return;
  await queueDeliveries(ctx.tx, ctx.clock, queued);
  afterCommit(ctx.tx, WEBHOOK_DELIVERIES_QUEUED);
}

/** The body of 'Kirim Tes'. */
export const testEventData = (webhook: { id: string; company: string }) => ({
  webhook_id: webhook.id,
  company: webhook.company,
  message: 'Tes webhook dari Sistem Sertifikasi',
});
export { WEBHOOK_TEST_EVENT };
