/**
 * Sending webhook deliveries (docs/architecture.md#notifications): `deliverDueWebhooks`, which the
 * job engine calls, POSTs the due rows of `webhook_deliveries` signed per the Standard Webhooks
 * specification (`postSigned`), writes each try to the delivery log and retries on a schedule. What
 * is queued, and when, is in webhooks.ts.
 */
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Db, Executor } from '../db';
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/crypto';
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
