/**
 * Sending webhook deliveries (docs/architecture.md#notifications): `deliverDueWebhooks`, which the
 * job engine calls, POSTs the due rows of `webhook_deliveries` signed per the Standard Webhooks
 * specification (`postSigned`), writes each try to the delivery log and retries on a schedule.
 * Endpoints are sent to side by side, each one delivery at a time, and an endpoint failing again
 * and again is paused (docs/rules.md#notifications). What is queued, and when, is in webhooks.ts.
 */
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { WEBHOOK_TEST_EVENT } from '@sertifikasi/shared-contracts';
import type { Db, Executor } from '../db';
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/crypto';
import {
  type AllowedPorts,
  guardedLookup,
  literalHostRefused,
  portRefused,
  WEBHOOK_URL_MESSAGES,
} from './address';
import {
  claimDue,
  type DueResult,
  type DueWork,
  HOUR,
  MINUTE,
  requeue,
  SECOND,
  scheduleOf,
  type TryOutcome,
  tryClaimed,
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

/** Deliveries in flight at once in one process, each to another endpoint (WEBHOOK_CONCURRENCY). */
export const WEBHOOK_CONCURRENCY = 8;

/** Failed tries in a row after which an endpoint is paused (the breaker). */
export const WEBHOOK_BREAKER_FAILURES = 5;
/** The first pause; each further failed try doubles it, up to WEBHOOK_BREAKER_MAX_PAUSE_MS. */
export const WEBHOOK_BREAKER_PAUSE_MS = MINUTE;
export const WEBHOOK_BREAKER_MAX_PAUSE_MS = HOUR;

/** While deliveries are in flight, due ones are looked for this often (rows other processes queued). */
const RECHECK_MS = SECOND;

/** What one POST came to. */
interface PostOutcome extends TryOutcome {
  status: number | null;
  durationMs: number;
  /** False when no POST was made for want of a webhook (deleted, inactive): the breaker ignores it. */
  byEndpoint: boolean;
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
  options: { allowPrivate: boolean; allowPorts?: AllowedPorts; timeoutMs: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): PostOutcome => ({
    ok: error === null,
    status,
    error,
    durationMs: Math.round(performance.now() - started),
    byEndpoint: true,
  });
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return Promise.resolve(done(null, 'URL webhook tidak valid'));
  }
  if (!options.allowPrivate) {
    if (url.protocol !== 'https:') return Promise.resolve(done(null, WEBHOOK_URL_MESSAGES.https));
    if (portRefused(url, { allowPrivate: false, allowPorts: options.allowPorts ?? [] }))
      return Promise.resolve(done(null, WEBHOOK_URL_MESSAGES.port));
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
  /** WEBHOOK_ALLOW_PRIVATE: private addresses, plain HTTP and any port may be reached. */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOW_PORTS: ports besides 443 (none unless given). */
  allowPorts?: AllowedPorts;
  /** Per try; WEBHOOK_TIMEOUT_MS (10 s) unless a test shortens it. */
  timeoutMs?: number;
  /** Deliveries in flight at once, each to another endpoint (WEBHOOK_CONCURRENCY unless given). */
  concurrency?: number;
  /** Aborted when the process stops: nothing more is claimed, the tries in flight end. */
  stopping?: AbortSignal;
  /** Rung when a write has queued deliveries: due ones are looked for at once. */
  doorbell?: Doorbell;
  /** Nothing more is claimed after this long (the job's bound); unset: until nothing is due. */
  forMs?: number;
}

/** A wake-up call: `wait` ends at the next `ring` (or one rung since the last wait), or after `ms`. */
export class Doorbell {
  private rung = false;
  private readonly waiting = new Set<() => void>();

  ring(): void {
    this.rung = true;
    for (const wake of [...this.waiting]) wake();
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        this.rung = false;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiting.add(wake);
      if (this.rung) wake();
    });
  }
}

/**
 * Deliveries of a paused endpoint wait (the breaker): not claimed until its pause ends. A user's
 * 'Kirim Tes' and 'Kirim Ulang' have their first try even so (docs/rules.md#notifications): a
 * `webhook.test` delivery not tried yet, and a delivery tried before whose tries were started afresh
 * (tries logged, none counted).
 */
const notPaused = (now: Date) =>
  sql`(not exists (select 1 from ${webhooks} where ${webhooks.id} = ${webhookDeliveries.webhook_id} and ${webhooks.paused_until} > ${now}) or (${webhookDeliveries.attempts} = 0 and (${webhookDeliveries.event_type} = ${WEBHOOK_TEST_EVENT} or exists (select 1 from ${webhookAttempts} where ${webhookAttempts.delivery_id} = ${webhookDeliveries.id}))))`;

/**
 * The breaker after a try that reached for the endpoint: a 2xx closes it (no failures, no pause);
 * a failure counts, and from the WEBHOOK_BREAKER_FAILURES-th in a row pauses the endpoint for
 * WEBHOOK_BREAKER_PAUSE_MS, doubled with each further failure up to WEBHOOK_BREAKER_MAX_PAUSE_MS.
 */
async function tripBreaker(tx: Executor, webhookId: string, ok: boolean, at: Date): Promise<void> {
  if (ok) {
    await tx
      .update(webhooks)
      .set({ consecutive_failures: 0, paused_until: null })
      .where(
        and(
          eq(webhooks.id, webhookId),
          sql`(${webhooks.consecutive_failures} > 0 or ${webhooks.paused_until} is not null)`,
        ),
      );
    return;
  }
  const failures = sql`${webhooks.consecutive_failures} + 1`;
  const pauseMs = sql`least(${WEBHOOK_BREAKER_PAUSE_MS} * power(2, least(${failures} - ${WEBHOOK_BREAKER_FAILURES}, 12)), ${WEBHOOK_BREAKER_MAX_PAUSE_MS})`;
  await tx
    .update(webhooks)
    .set({
      consecutive_failures: failures,
      paused_until: sql`case when ${failures} >= ${WEBHOOK_BREAKER_FAILURES} then ${at}::timestamptz + make_interval(secs => ${pauseMs} / 1000.0) else ${webhooks.paused_until} end`,
    })
    .where(eq(webhooks.id, webhookId));
}

/** The retry loop's description of the deliveries (notify/retry.ts). */
function deliveryWork(
  db: Db,
  clock: Clock,
  settings: DeliverySettings,
): DueWork<typeof webhookDeliveries, PostOutcome> {
  const timeoutMs = settings.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const notSent = (error: string): PostOutcome => ({
    ok: false,
    error,
    status: null,
    durationMs: 0,
    byEndpoint: false,
  });
  return {
    table: webhookDeliveries,
    leaseMs: Math.max(WEBHOOK_LEASE_MS, timeoutMs * 2),
    retryDelayMs: scheduleOf(WEBHOOK_RETRY_DELAYS_MS),
    async attempt(row): Promise<PostOutcome> {
      const [hook] = await db
        .select({ url: webhooks.url, secret: webhooks.secret, is_active: webhooks.is_active })
        .from(webhooks)
        .where(eq(webhooks.id, row.webhook_id));
      if (!hook) return notSent('Webhook sudah dihapus');
      if (!hook.is_active) return notSent('Webhook tidak aktif');
      return postSigned(hook, row, clock.now(), {
        allowPrivate: settings.allowPrivate,
        allowPorts: settings.allowPorts ?? [],
        timeoutMs,
      });
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
      if (outcome.byEndpoint) await tripBreaker(tx, row.webhook_id, outcome.ok, at);
    },
  };
}

/**
 * POSTs the deliveries whose time has come, until none is due and none is in flight: claimed so
 * that two processes never send the same one (notify/retry.ts), each try written to the delivery
 * log (status, duration, error), retried after WEBHOOK_RETRY_DELAYS_MS. Endpoints go side by side
 * (at most `concurrency` tries at once), each one delivery at a time, the one due first: a slow
 * endpoint holds up only its own. A paused endpoint's deliveries wait ('Kirim Tes' and 'Kirim
 * Ulang' aside). The job engine calls it; nothing else does it on a timer.
 */
export async function deliverDueWebhooks(
  db: Db,
  clock: Clock,
  settings: DeliverySettings,
): Promise<DueResult> {
  const result: DueResult = { tried: 0, sent: 0, retrying: 0, failed: 0 };
  const work = deliveryWork(db, clock, settings);
  const bell = settings.doorbell ?? new Doorbell();
  const concurrency = Math.max(1, settings.concurrency ?? WEBHOOK_CONCURRENCY);
  const until = settings.forMs === undefined ? Infinity : Date.now() + settings.forMs;
  /** The try in flight of each endpoint, by webhook id. */
  const lanes = new Map<string, Promise<void>>();
  let failure: { err: unknown } | null = null;
  for (;;) {
    const claiming = !settings.stopping?.aborted && Date.now() < until && !failure;
    if (claiming && lanes.size < concurrency) {
      // The endpoints in flight are left out of this claim; one that ends meanwhile is claimed again
      // below (else a run could stop with its next delivery due).
      const inFlight = lanes.size;
      const now = clock.now();
      const rows = await claimDue(db, { ...work, limit: concurrency - lanes.size }, now, {
        onePer: webhookDeliveries.webhook_id,
        where: and(
          lanes.size ? notInArray(webhookDeliveries.webhook_id, [...lanes.keys()]) : undefined,
          notPaused(now),
        ),
      });
      for (const row of rows) {
        const lane = tryClaimed(db, clock, work, row, result)
          .catch((err: unknown) => {
            failure ??= { err };
          })
          .finally(() => {
            lanes.delete(row.webhook_id);
            bell.ring();
          });
        lanes.set(row.webhook_id, lane);
      }
      if (rows.length > 0 || lanes.size < inFlight) continue;
    }
    if (lanes.size === 0) break;
    await bell.wait(RECHECK_MS);
  }
  if (failure) throw (failure as { err: unknown }).err;
  return result;
}

/** 'Kirim Ulang' of a delivery: back in the queue, its retries afresh. */
export const requeueDelivery = (db: Executor, id: string, now: Date): Promise<boolean> =>
  requeue(db, webhookDeliveries, id, now);
