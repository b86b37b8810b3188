/**
 * Email (docs/architecture.md "Notifications"): every message is a row of the outbox
 * (`mail_outbox`), queued in the transaction of whatever decided to send it, at most once per
 * dedupe key (record, kind, due date, step), and sent through SMTP by `sendDueMail`, which the job
 * engine calls; nothing here runs on a timer of its own.
 */
import nodemailer from 'nodemailer';
import { type MailKind, SMTP_NOT_SET } from '@sertifikasi/shared-contracts';
import type { Config } from '../config';
import type { Db, Executor } from '../db';
import { mailOutbox } from '../db/schema';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/crypto';
import { HOUR, MINUTE, type DueResult, processDue, scheduleOf } from './retry';

/** Where mail goes out: an SMTP transport and the sender. */
export interface Mailer {
  from: string;
  send(message: {
    to: string;
    subject: string;
    text: string;
    html?: string | null;
    /** An iCalendar (RFC 5545) sent as the message's calendar part. */
    ical?: string | null;
    id: string;
    /** The signed link that stops these messages (List-Unsubscribe), if any. */
    unsubscribe?: string | null;
  }): Promise<void>;
  close(): void;
}

/** SMTP waits at most this long for a connection, the greeting and each reply. */
const SMTP_TIMEOUT_MS = 30_000;

/**
 * The mailer of SMTP_URL and MAIL_FROM (nodemailer); null when SMTP_URL is unset. TLS
 * (docs/rules.md#notifications): `smtp://` must switch to TLS with STARTTLS before anything else is
 * said, login included (`requireTLS`: a server, or a network in between, that offers no STARTTLS
 * gets no password and no message), and the server's certificate must be valid for its name; only
 * SMTP_INSECURE=true allows plain text (STARTTLS still used when offered) and any certificate.
 * `smtps://` is TLS from the first byte.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'smtpInsecure'>): Mailer | null {
  if (!config.smtpUrl) return null;
  // The URL's query sets no TLS option (config.ts refuses those), so these hold.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    requireTLS: !config.smtpInsecure,
    tls: { rejectUnauthorized: !config.smtpInsecure },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as never);
  return {
    from: config.mailFrom,
    async send(message) {
      await transport.sendMail({
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        // An invitation or its cancellation: the calendar part carries the METHOD its text says.
        ...(message.ical
          ? {
              icalEvent: {
                method: /^METHOD:(\w+)/m.exec(message.ical)?.[1] ?? 'PUBLISH',
                content: message.ical,
              },
            }
          : {}),
        headers: {
          // The outbox row, for whoever reads the message's headers.
          'X-Sertifikasi-Outbox-Id': message.id,
          ...(message.unsubscribe
            ? {
                // RFC 2369 and RFC 8058: a mail program's own 'unsubscribe', one POST to the link.
                'List-Unsubscribe': `<${message.unsubscribe}>`,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              }
            : {}),
        },
      });
    },
    close: () => transport.close(),
  };
}

/** What a message is about and when: one message at most per key. */
export interface DedupeParts {
  /** The record it is about (a scheme's or a user's id). */
  record: string;
  kind: MailKind;
  /** The date the message is about (`YYYY-MM-DD`): an item's due date, a digest's Monday. */
  due: string;
  /** Which of the reminders before a date it is (`90`, `30`, `7`, `late`...). */
  step: string;
}

export const dedupeKey = (p: DedupeParts): string => `${p.kind}|${p.record}|${p.due}|${p.step}`;

export interface MailToQueue {
  /** The company the message is about (its scope in 'Log Notifikasi'); null when about several. */
  companyId: string | null;
  recipient: string;
  subject: string;
  text: string;
  html?: string | null;
  /** The signed link that stops this kind of mail to the recipient (List-Unsubscribe), if any. */
  unsubscribe?: string | null;
  /** An iCalendar (RFC 5545) to send with it (a planned audit's invitation or cancellation). */
  ical?: string | null;
  dedupe: DedupeParts;
}

/**
 * Queues a message in the caller's transaction, to be sent at `clock.now()` or later. A message
 * with the same dedupe key already queued (or sent, or failed) is left as it is: answers false.
 * Several processes queuing the same reminder at once leave one row (the unique key decides).
 */
export async function queueMail(tx: Executor, clock: Clock, mail: MailToQueue): Promise<boolean> {
  return (await queueMails(tx, clock, [mail])) > 0;
}

/**
 * Queues many messages in one statement (the reminder job's batches), each at most once per dedupe
 * key as `queueMail`; answers how many were new.
 */
export async function queueMails(tx: Executor, clock: Clock, mails: readonly MailToQueue[]): Promise<number> {
  if (mails.length === 0) return 0;
  const now = clock.now();
  const rows = await tx
    .insert(mailOutbox)
    .values(
      mails.map((mail) => ({
        id: newId(),
        company_id: mail.companyId,
        recipient: mail.recipient,
        subject: mail.subject,
        kind: mail.dedupe.kind,
        body_text: mail.text,
        body_html: mail.html ?? null,
        unsubscribe_url: mail.unsubscribe ?? null,
        ical: mail.ical ?? null,
        dedupe_key: dedupeKey(mail.dedupe),
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflictDoNothing({ target: mailOutbox.dedupe_key })
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/**
 * The waits after the 1st, 2nd... failed try of a message: about 24 hours in all (23 h 51 min),
 * then it is `failed`.
 */
export const MAIL_RETRY_DELAYS_MS = [
  1 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  8 * HOUR,
] as const;

/** A claimed message is the sender's for this long (SMTP's own timeouts end a try well before). */
const MAIL_LEASE_MS = 10 * MINUTE;

/** Why nothing went to a server without STARTTLS (docs/rules.md#notifications). */
const NO_STARTTLS =
  'server SMTP tidak menawarkan STARTTLS, dan tanpa TLS kata sandi tidak dikirim (SMTP_INSECURE=true mengizinkannya)';

/** An SMTP failure as staff read it: the server's reply when there is one. */
function mailError(err: unknown): string {
  const e = err as { response?: string; code?: string; message?: string; command?: string };
  const text = e.response || e.message || String(err);
  // requireTLS met a server (or a network in between) that offers no STARTTLS.
  const noStartTls = e.code === 'ETLS' && (e.command === 'STARTTLS' || /STARTTLS/.test(e.message ?? ''));
  const why = noStartTls ? `${NO_STARTTLS}: ` : e.code ? `${e.code} ` : '';
  return `Gagal mengirim email: ${why}${text}`.slice(0, 1000);
}

/**
 * Sends the messages whose time has come (up to `limit` a call, default 20): claimed so that two
 * processes never send the same one, then sent one by one through `mailer`, each outcome recorded
 * with the backoff of MAIL_RETRY_DELAYS_MS. Without a mailer (SMTP_URL unset) nothing is sent and
 * each message records 'SMTP belum diatur' (it is tried again later, in case SMTP is set by then).
 * The job engine calls it; nothing else does it on a timer.
 */
export function sendDueMail(
  db: Db,
  clock: Clock,
  mailer: Mailer | null,
  options: { limit?: number; ids?: readonly string[] } = {},
): Promise<DueResult> {
  return processDue(db, clock, {
    table: mailOutbox,
    leaseMs: MAIL_LEASE_MS,
    retryDelayMs: scheduleOf(MAIL_RETRY_DELAYS_MS),
    ...options,
    async attempt(row) {
      if (!mailer) return { ok: false, error: SMTP_NOT_SET };
      try {
        await mailer.send({
          id: row.id,
          to: row.recipient,
          subject: row.subject,
          text: row.body_text,
          html: row.body_html,
          unsubscribe: row.unsubscribe_url,
          ical: row.ical,
        });
        return { ok: true, error: null };
      } catch (err) {
        return { ok: false, error: mailError(err) };
      }
    },
  });
}
