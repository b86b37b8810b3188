/**
 * The mail outbox against a real SMTP server (smtp-server, started here): what arrives (recipient,
 * subject, the Indonesian text), never twice for one dedupe key (also with two processes sending at
 * once), the backoff over 24 hours, and nothing sent without SMTP.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { SMTP_NOT_SET } from '@sertifikasi/shared-contracts';
import { loadConfig } from '../config';
import { type Database, openDatabase } from '../db';
import { mailOutbox } from '../db/schema';
import { createTestContext, type TestContext } from '../../test/helpers';
import {
  createMailer,
  dedupeKey,
  MAIL_RETRY_DELAYS_MS,
  type MailToQueue,
  queueMail,
  sendDueMail,
} from './mail';
import { reminderMail } from './messages';

interface Arrived {
  from: string;
  to: string[];
  raw: string;
  /** The outbox row the message came from (its X-Sertifikasi-Outbox-Id header). */
  outboxId: string | undefined;
}

/** Decodes quoted-printable soft breaks and escapes, enough to read a plain-text body. */
const readable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

let ctx: TestContext;
let smtp: SMTPServer;
let port: number;
const arrived: Arrived[] = [];
let company: string;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'lsp' && auth.password === 'rahasia') return callback(null, { user: 'lsp' });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('tolak@')) {
        const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = chunks.map((c) => c.toString('utf8')).join('');
        arrived.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          outboxId: /^X-Sertifikasi-Outbox-Id: (.+)$/im.exec(raw)?.[1]?.trim(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
  ctx = await createTestContext(
    {
      SMTP_URL: `smtp://lsp:rahasia@127.0.0.1:${port}`,
      // A loopback server without TLS (TLS itself: mail-tls.test.ts).
      SMTP_INSECURE: 'true',
      MAIL_FROM: 'LSP Mutu <pengingat@lsp-mutu.test>',
    },
    { now: new Date('2026-03-02T01:00:00Z') },
  );
  company = await ctx.make.company('PT LSP Mutu');
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

let seq = 0;
function reminder(to: string, over: Partial<MailToQueue['dedupe']> = {}): MailToQueue {
  seq++;
  const { subject, text } = reminderMail({
    subject: 'SURVEILLANCE',
    body: { name: 'PT LSP Mutu', email: 'info@lsp-mutu.test', phone: '021-555' },
    client: 'PT Maju Bersama',
    certNumber: `QMS/2025/${seq}`,
    standard: 'ISO 9001:2015',
    due: '2026-04-01',
    daysLeft: 30,
  });
  return {
    companyId: company,
    recipient: to,
    subject,
    text,
    dedupe: { record: `scheme-${seq}`, kind: 'audit-reminder', due: '2026-04-01', step: '30', ...over },
  };
}

const queue = (mail: MailToQueue) => ctx.database.db.transaction((tx) => queueMail(tx, ctx.clock, mail));
const rowOf = async (key: string) =>
  (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.dedupe_key, key)))[0]!;

describe('SMTP settings', () => {
  it('take smtp:// or smtps:// with credentials; anything else stops the start', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com:465' }).smtpUrl).toBe(
      'smtps://u:p@smtp.example.com:465',
    );
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(() => loadConfig({ SMTP_URL: 'http://smtp.example.com' })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ SMTP_URL: 'bukan url' })).toThrow(/SMTP_URL/);
    expect(createMailer(loadConfig({}))).toBeNull();
  });
});

describe('sending through SMTP', () => {
  it('delivers a queued reminder: recipient, sender, subject and the Indonesian text', async () => {
    const mail = reminder('direktur@majubersama.test');
    expect(await queue(mail)).toBe(true);
    const result = await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer);
    expect(result).toMatchObject({ tried: 1, sent: 1 });
    const got = arrived.filter((m) => m.to.includes('direktur@majubersama.test'));
    expect(got).toHaveLength(1);
    expect(got[0]!.from).toBe('pengingat@lsp-mutu.test');
    const text = readable(got[0]!.raw);
    expect(text).toContain(`Subject: ${mail.subject}`);
    expect(mail.subject).toMatch(/^Pengingat: audit surveilan sertifikat QMS\/2025\/\d+$/);
    expect(text).toContain('Yth. PT Maju Bersama');
    expect(text).toContain('Kami dari PT LSP Mutu mengingatkan bahwa audit surveilan untuk sertifikat nomor');
    expect(text).toContain('(ISO 9001:2015) jatuh tempo dalam 30 hari, pada 01 April 2026.');
    expect(text).toContain('Kontak: info@lsp-mutu.test / 021-555');
    const row = await rowOf(dedupeKey(mail.dedupe));
    expect(row).toMatchObject({ state: 'sent', attempts: 1, last_error: null });
    expect(row.sent_at?.toISOString()).toBe('2026-03-02T01:00:00.000Z');
  });

  it('queues one message per dedupe key, and sends it once', async () => {
    const mail = reminder('satu@majubersama.test');
    expect(await queue(mail)).toBe(true);
    // The same reminder decided again (another process, a later run): nothing new.
    expect(await queue({ ...mail, subject: 'lain' })).toBe(false);
    await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer);
    expect(await queue(mail)).toBe(false);
    await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer);
    expect(arrived.filter((m) => m.to.includes('satu@majubersama.test'))).toHaveLength(1);
    // Another step of the same item is another message.
    expect(await queue({ ...mail, dedupe: { ...mail.dedupe, step: '7' } })).toBe(true);
  });

  it('two processes sending at once never send a message twice', async () => {
    let second: Database | undefined;
    try {
      second = await openDatabase({ databaseUrl: ctx.database.pool.options.connectionString!, poolSize: 4 });
      const mails = Array.from({ length: 12 }, (_, i) => reminder(`paralel${i}@majubersama.test`));
      for (const mail of mails) await queue(mail);
      const otherMailer = createMailer(ctx.app.config)!;
      // Each process sends a few at a time until nothing is due, both at once.
      const drain = async (db: Database['db'], mailer: typeof otherMailer) => {
        let tried = 0;
        for (;;) {
          const r = await sendDueMail(db, ctx.clock, mailer, { limit: 2 });
          if (r.tried === 0) return tried;
          tried += r.tried;
        }
      };
      const [a, b] = await Promise.all([
        drain(ctx.database.db, ctx.app.mailer!),
        drain(second.db, otherMailer),
      ]);
      otherMailer.close();
      expect(a + b).toBeGreaterThanOrEqual(12);
      // Every message was claimed once: one try each, one copy each.
      for (const mail of mails) {
        expect(await rowOf(dedupeKey(mail.dedupe))).toMatchObject({ state: 'sent', attempts: 1 });
      }
      const ids = arrived.filter((m) => m.to[0]?.startsWith('paralel')).map((m) => m.outboxId);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    } finally {
      await second?.close();
    }
  });

  it('a refused message is tried again with backoff for about a day, then failed', async () => {
    const mail = reminder('tolak@majubersama.test');
    await queue(mail);
    const key = dedupeKey(mail.dedupe);
    const start = ctx.clock.now().getTime();
    let result = await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer, {
      ids: [(await rowOf(key)).id],
    });
    expect(result).toMatchObject({ tried: 1, retrying: 1 });
    let row = await rowOf(key);
    expect(row).toMatchObject({ state: 'queued', attempts: 1 });
    expect(row.last_error).toMatch(/^Gagal mengirim email: .*550/);
    expect(row.next_attempt_at.getTime()).toBe(start + MAIL_RETRY_DELAYS_MS[0]);
    // Not due yet: not tried.
    result = await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer, { ids: [row.id] });
    expect(result.tried).toBe(0);
    try {
      for (const delay of MAIL_RETRY_DELAYS_MS) {
        ctx.clock.set(new Date(ctx.clock.now().getTime() + delay));
        result = await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer, { ids: [row.id] });
        expect(result.tried).toBe(1);
      }
      row = await rowOf(key);
      expect(row).toMatchObject({ state: 'failed', attempts: MAIL_RETRY_DELAYS_MS.length + 1 });
      const span = ctx.clock.now().getTime() - start;
      expect(span).toBeGreaterThan(23 * 3600_000);
      expect(span).toBeLessThanOrEqual(24 * 3600_000);
      ctx.clock.set(new Date(ctx.clock.now().getTime() + 24 * 3600_000));
      expect((await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer, { ids: [row.id] })).tried).toBe(
        0,
      );
    } finally {
      ctx.clock.set(new Date('2026-03-02T01:00:00Z'));
    }
    expect(arrived.filter((m) => m.to.includes('tolak@majubersama.test'))).toHaveLength(0);
  });

  it('without SMTP nothing is sent and the message says why', async () => {
    const mail = reminder('tanpa-smtp@majubersama.test');
    await queue(mail);
    const row0 = await rowOf(dedupeKey(mail.dedupe));
    const result = await sendDueMail(
      ctx.database.db,
      ctx.clock,
      createMailer({ smtpUrl: undefined, mailFrom: 'x', smtpInsecure: false }),
      {
        ids: [row0.id],
      },
    );
    expect(result).toMatchObject({ tried: 1, sent: 0 });
    const row = await rowOf(dedupeKey(mail.dedupe));
    expect(row).toMatchObject({ state: 'queued', last_error: SMTP_NOT_SET });
    expect(arrived.filter((m) => m.to.includes('tanpa-smtp@majubersama.test'))).toHaveLength(0);
  });
});

describe('calendar invitations', () => {
  it('sends the iCalendar as the message’s text/calendar part with its METHOD', async () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Tes//ID',
      'METHOD:CANCEL',
      'BEGIN:VEVENT',
      'UID:planned-audit-tes@sistem-sertifikasi',
      'SEQUENCE:2',
      'STATUS:CANCELLED',
      'DTSTAMP:20260302T010000Z',
      'DTSTART;VALUE=DATE:20260310',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    expect(await queue({ ...reminder('auditor@lsp-mutu.test'), ical: ics })).toBe(true);
    await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer);
    const got = arrived.filter((m) => m.to.includes('auditor@lsp-mutu.test'));
    expect(got).toHaveLength(1);
    expect(got[0]!.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/i);
    expect(readable(got[0]!.raw)).toContain('UID:planned-audit-tes@sistem-sertifikasi');
  });
});
