/**
 * Webhooks (docs/architecture.md "Notifications"): a company's events, queued as deliveries in the
 * writer's transaction by an after-write step (a rolled-back write sends nothing, a committed one
 * is never lost), POSTed signed per the Standard Webhooks specification by `deliverDueWebhooks`,
 * which the job engine calls; nothing here runs on a timer of its own.
 *
 * The body is `{type, timestamp, data}` with the record's public fields only: what the public
 * check shows of it, and its id.
 */
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { effectiveStatus, type WebhookEvent, WEBHOOK_TEST_EVENT } from '@sertifikasi/shared-contracts';
import type { Db, Executor } from '../db';
import { prepared } from '../db/prepared';
import {
  accreditedBodies,
  certificationTypes,
  clientCertificates,
  webhookAttempts,
  webhookDeliveries,
  webhooks,
} from '../db/schema';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/crypto';
import type { AfterWriteStep, EntityRows, WriteEvent } from '../services/write-event';
import { guardedLookup, literalHostRefused, WEBHOOK_URL_MESSAGES } from './address';
import {
  type DueResult,
  HOUR,
  MINUTE,
  processDue,
  requeue,
  SECOND,
  scheduleOf,
  type TryOutcome,
} from './retry';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (the form the library reads). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** One try waits this long for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10 * SECOND;

/** The waits after the 1st, 2nd... failed try: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then `failed`. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
] as const;

/** A claimed delivery is the sender's for this long (a try ends within WEBHOOK_TIMEOUT_MS). */
const WEBHOOK_LEASE_MS = 2 * MINUTE;

type SchemeRow = EntityRows['scheme'];
type TrainingRow = EntityRows['training-certificate'];

/** A scheme's public fields (what the public check shows), read in the writer's transaction. */
async function schemeData(tx: Executor, row: SchemeRow, today: string): Promise<Record<string, unknown>> {
  const [ref] = await tx
    .select({
      name: clientCertificates.name,
      address: clientCertificates.address,
      scope: clientCertificates.scope,
      ea_code: clientCertificates.ea_code,
      standard: certificationTypes.name,
      accreditation: accreditedBodies.name,
    })
    .from(clientCertificates)
    .innerJoin(certificationTypes, eq(certificationTypes.id, row.certification_id))
    .leftJoin(accreditedBodies, eq(accreditedBodies.id, sql`${row.accredited_id}::uuid`))
    .where(eq(clientCertificates.id, row.certificate_id));
  const status = effectiveStatus(row.status as never, row.expired_date, today);
  return {
    id: row.id,
    cert_number: row.cert_number,
    name: ref?.name ?? null,
    address: ref?.address ?? null,
    scope: ref?.scope ?? null,
    ea_code: ref?.ea_code ?? null,
    standard: ref?.standard ?? null,
    accreditation: row.is_accredited ? (ref?.accreditation ?? null) : null,
    issue_date: row.issue_date,
    expired_date: row.expired_date,
    surveillance_date: row.surveillance_date,
    status,
    // As the public check: the description explains a status other than ACTIVE.
    description: status === 'ACTIVE' ? null : row.description,
  };
}

/** A training certificate's public fields. */
const trainingData = (row: TrainingRow): Record<string, unknown> => ({
  id: row.id,
  certificate_number: row.certificate_number,
  name: row.name,
  training: row.training,
  location: row.location,
  date: row.date,
});

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

/** Queues one delivery of `type` to a webhook in the caller's transaction; answers its id. */
export async function queueDelivery(
  tx: Executor,
  clock: Clock,
  webhook: { id: string; company_id: string },
  type: string,
  data: Record<string, unknown>,
): Promise<string> {
  const [id] = await queueDeliveries(tx, clock, [{ webhook, type, data }]);
  return id!;
}

/** Queues many deliveries in one statement (the reminder job's batches); answers their ids. */
export async function queueDeliveries(
  tx: Executor,
  clock: Clock,
  deliveries: readonly {
    webhook: { id: string; company_id: string };
    type: string;
    data: Record<string, unknown>;
  }[],
): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const now = clock.now();
  const rows = deliveries.map((d) => ({
    id: newId(),
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

/**
 * The after-write step (services/after-write.ts): a delivery for every active webhook of the
 * record's company that wants the event, in the writer's transaction.
 */
export const queueWebhookEvents: AfterWriteStep = async (ctx, event) => {
  const types = eventTypesOf(event);
  if (types.length === 0) return;
  const row = (event.after ?? event.before) as SchemeRow | TrainingRow;
  const hooks = await subscribedWebhooks(ctx.tx, { company: row.company_id, types });
  if (hooks.length === 0) return;
  const data =
    event.entity === 'scheme'
      ? await schemeData(ctx.tx, row as SchemeRow, ctx.clock.today())
      : trainingData(row as TrainingRow);
  for (const hook of hooks) {
    for (const type of types) {
      if (hook.events.includes(type)) await queueDelivery(ctx.tx, ctx.clock, hook, type, data);
    }
  }
};

/** The body of 'Kirim Tes'. */
export const testEventData = (webhook: { id: string; company: string }) => ({
  webhook_id: webhook.id,
  company: webhook.company,
  message: 'Tes webhook dari Sistem Sertifikasi',
});
export { WEBHOOK_TEST_EVENT };

/** What one POST came to. */
interface PostOutcome extends TryOutcome {
  status: number | null;
  durationMs: number;
}

/** How long the answer's body is read (its content is not kept). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs a signed body once: 10 s at most (`timeoutMs`), no redirects followed, the address checked
 * on the connection itself unless private ones are allowed. A 2xx answer is success.
 */
export function postSigned(
  target: { url: string; secret: string },
  delivery: { id: string; payload: string },
  at: Date,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): PostOutcome => ({
    ok: error === null,
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return Promise.resolve(done(null, 'URL webhook tidak valid'));
  }
  if (!options.allowPrivate) {
    if (url.protocol !== 'https:') return Promise.resolve(done(null, WEBHOOK_URL_MESSAGES.https));
    if (literalHostRefused(url)) return Promise.resolve(done(null, WEBHOOK_URL_MESSAGES.private));
  }
  const signature = new StandardWebhook(target.secret).sign(delivery.id, at, delivery.payload);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(delivery.payload),
          'user-agent': 'Sistem-Sertifikasi-Webhook/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const end = () =>
          finish(done(status, status >= 200 && status < 300 ? null : `Jawaban HTTP ${status}`));
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      finish(done(null, `Tidak ada jawaban dalam ${Math.round(options.timeoutMs / 1000)} detik`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const message =
        err.message === WEBHOOK_URL_MESSAGES.private
          ? WEBHOOK_URL_MESSAGES.private
          : `Koneksi gagal: ${err.code ?? err.message}`;
      finish(done(null, message));
    });
    req.end(delivery.payload);
  });
}

export interface DeliverySettings {
  /** WEBHOOK_ALLOW_PRIVATE: private addresses and plain HTTP may be reached. */
  allowPrivate: boolean;
  /** Per try; WEBHOOK_TIMEOUT_MS (10 s) unless a test shortens it. */
  timeoutMs?: number;
  limit?: number;
  /** Only these deliveries, when due ('Kirim Tes', 'Kirim Ulang'). */
  ids?: readonly string[];
}

/**
 * POSTs the deliveries whose time has come: claimed so that two processes never send the same one
 * (notify/retry.ts), each try written to the delivery log (status, duration, error), retried after
 * WEBHOOK_RETRY_DELAYS_MS. The job engine calls it; nothing else does it on a timer.
 */
export function deliverDueWebhooks(db: Db, clock: Clock, settings: DeliverySettings): Promise<DueResult> {
  const timeoutMs = settings.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return processDue(db, clock, {
    table: webhookDeliveries,
    leaseMs: Math.max(WEBHOOK_LEASE_MS, timeoutMs * 2),
    retryDelayMs: scheduleOf(WEBHOOK_RETRY_DELAYS_MS),
    ...(settings.limit ? { limit: settings.limit } : {}),
    ...(settings.ids ? { ids: settings.ids } : {}),
    async attempt(row): Promise<PostOutcome> {
      const [hook] = await db
        .select({ url: webhooks.url, secret: webhooks.secret, is_active: webhooks.is_active })
        .from(webhooks)
        .where(eq(webhooks.id, row.webhook_id));
      if (!hook) return { ok: false, error: 'Webhook sudah dihapus', status: null, durationMs: 0 };
      if (!hook.is_active) return { ok: false, error: 'Webhook tidak aktif', status: null, durationMs: 0 };
      return postSigned(hook, row, clock.now(), { allowPrivate: settings.allowPrivate, timeoutMs });
    },
    columns: (outcome) => ({ last_status: outcome.status }),
    async record(tx, row, outcome, at) {
      await tx.insert(webhookAttempts).values({
        id: newId(),
        delivery_id: row.id,
        at,
        status: outcome.status,
        duration_ms: outcome.durationMs,
        error: outcome.error,
      });
    },
  });
}

/** 'Kirim Ulang' of a delivery: back in the queue, its retries afresh. */
export const requeueDelivery = (db: Executor, id: string, now: Date): Promise<boolean> =>
  requeue(db, webhookDeliveries, id, now);
