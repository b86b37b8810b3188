/**
 * Reminders and the weekly digest against the real parts: a real SMTP server (smtp-server) and a
 * real HTTP receiver verifying the Standard Webhooks signature. The app's clock is moved through an
 * item's steps (90, 30 and 7 days before, the day after it is late) and a certificate's expiry (90,
 * 60 and 30 days before): what arrives, to whom, in Indonesian, and never a second copy, however
 * often the run is repeated (also two runs at once); the client's opt-out; the digest's content and
 * scope.
 */
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { addDays } from '@sertifikasi/shared-contracts';
import { loadConfig } from '../config';
import { remindersSent, schemeCycleDue, users } from '../db/schema';
import { call, createTestContext, type TestContext } from '../../test/helpers';
import { type Receiver, startReceiver, startSmtp } from '../../test/receivers';
import { sendDueMail } from './mail';
import { runDigest, runReminders } from './remind';
import { deliverDueWebhooks } from './webhook-delivery';

interface Arrived {
  to: string[];
  subject: string;
  body: string;
}

/** The subject and plain text of a raw message (quoted-printable and encoded words decoded). */
function readMessage(raw: string): { subject: string; body: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subjectLine = /^Subject: (.*)$/im.exec(unfolded)?.[1] ?? '';
  const subject = subjectLine.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
  const qp = rest
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/(=[0-9A-F]{2})+/g, (m) =>
      Buffer.from(
        m
          .split('=')
          .slice(1)
          .map((h) => parseInt(h, 16)),
      ).toString('utf8'),
    );
  return { subject, body: qp.replace(/\r\n/g, '\n') };
}

interface Received {
  type: string;
  data: Record<string, unknown>;
}

let ctx: TestContext;
let smtp: Receiver;
let receiver: Receiver;
const arrived: Arrived[] = [];
const received: Received[] = [];
let secret = '';
let company: string;
let other: string;

const DAY = (date: string) => new Date(`${date}T01:00:00Z`); // 08:00 in Jakarta

beforeAll(async () => {
  smtp = await startSmtp((to, raw) => arrived.push({ to, ...readMessage(raw) }));
  receiver = await startReceiver((body, headers) => {
    // The app's clock is moved, so the receiver reads time as the app does: the signature is
    // checked against the body, the id and the time it names (a real receiver's tolerance).
    const now = jest.spyOn(Date, 'now').mockReturnValue(ctx.clock.now().getTime());
    try {
      // Throws unless the signature is right for this body, id and time.
      received.push(new Webhook(secret).verify(body, headers as Record<string, string>) as Received);
      return 204;
    } catch {
      return 401;
    } finally {
      now.mockRestore();
    }
  });
  ctx = await createTestContext(
    {
      SMTP_URL: smtp.url,
      // The loopback SMTP server has no TLS (TLS itself: mail-tls.test.ts).
      SMTP_INSECURE: 'true',
      MAIL_FROM: 'LSP Mutu <pengingat@lsp-mutu.test>',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    { now: DAY('2026-01-15') },
  );
  company = await ctx.make.company('PT LSP Mutu', { email: 'info@lsp-mutu.test', phone: '021-555' });
  other = await ctx.make.company('PT Lain Sertifikasi');
  const hook = await call(ctx.app, ctx.adminToken, 'POST', '/api/webhook', {
    company_id: company,
    url: `${receiver.url}/hook`,
    events: ['reminder.due'],
  });
  expect(hook.statusCode).toBe(201);
  secret = hook.json<{ secret: string }>().secret;
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
  await receiver.close();
});

/** One day of the job: the run (twice at once, as two processes would), then the senders. */
async function day(date: string): Promise<void> {
  ctx.clock.set(DAY(date));
  await Promise.all([
    runReminders(ctx.database.db, ctx.clock, ctx.app.config),
    runReminders(ctx.database.db, ctx.clock, ctx.app.config),
  ]);
  await runReminders(ctx.database.db, ctx.clock, ctx.app.config);
  while ((await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer)).tried > 0);
  while ((await deliverDueWebhooks(ctx.database.db, ctx.clock, { allowPrivate: true })).tried > 0);
}

const dueOf = async (scheme: string) =>
  (await ctx.database.db.select().from(schemeCycleDue).where(eq(schemeCycleDue.scheme_id, scheme)))[0]!;

describe('reminders', () => {
  it('reach the client at 90, 30 and 7 days before an audit and the day after it is late, once each; never an opted-out client', async () => {
    const type = await ctx.make.certificationType(company, 'ISO 9001:2015');
    const client = await ctx.make.client(company, 'PT Maju Bersama', { email: 'mutu@majubersama.test' });
    const quiet = await ctx.make.client(company, 'PT Diam Saja', {
      email: 'diam@diamsaja.test',
      send_reminders: 'false',
    });
    const scheme = await ctx.make.scheme({
      company,
      type,
      client,
      status: 'ACTIVE',
      issue_date: '2025-06-01',
      cert_number: 'QMS/2025/001',
    });
    const quietScheme = await ctx.make.scheme({
      company,
      type,
      client: quiet,
      status: 'ACTIVE',
      issue_date: '2025-06-01',
      cert_number: 'QMS/2025/002',
    });
    const item = await dueOf(scheme);
    expect(item).toMatchObject({ kind: 'SURVEILLANCE', due_date: '2026-06-01' });
    const due = item.due_date;
    const days = [-120, -90, -89, -60, -31, -30, -29, -8, -7, -6, -1, 0, 1, 2, 3, 30].map((d) =>
      addDays(due, d),
    );
    const seen: Record<string, string[]> = {};
    for (const d of days) {
      const before = arrived.length;
      await day(d);
      seen[d] = arrived.slice(before).map((a) => `${a.to.join(',')} ${a.subject}`);
    }
    expect(seen).toEqual({
      ...Object.fromEntries(days.map((d) => [d, []])),
      [addDays(due, -90)]: ['mutu@majubersama.test Pengingat: audit surveilan sertifikat QMS/2025/001'],
      [addDays(due, -30)]: ['mutu@majubersama.test Pengingat: audit surveilan sertifikat QMS/2025/001'],
      [addDays(due, -7)]: ['mutu@majubersama.test Pengingat: audit surveilan sertifikat QMS/2025/001'],
      [addDays(due, 1)]: ['mutu@majubersama.test Terlambat: audit surveilan sertifikat QMS/2025/001'],
    });
    const [first] = arrived;
    expect(first!.body).toContain('Yth. PT Maju Bersama,');
    expect(first!.body).toContain(
      'Kami dari PT LSP Mutu mengingatkan bahwa audit surveilan untuk sertifikat nomor QMS/2025/001 ' +
        '(ISO 9001:2015) jatuh tempo dalam 90 hari, pada 01 Juni 2026.',
    );
    expect(first!.body).toContain('Kontak: info@lsp-mutu.test / 021-555');
    expect(arrived.at(-1)!.body).toContain('telah lewat 1 hari (jatuh tempo 01 Juni 2026)');
    expect(arrived.some((a) => a.to.includes('diam@diamsaja.test'))).toBe(false);
    // Decisions older than a step can be asked about are let go: the 90-day one (120 days ago).
    const kept = (await ctx.database.db.select().from(remindersSent)).map((r) => r.key);
    expect(kept.filter((k) => k.includes(scheme)).map((k) => k.split('|').at(-1))).toEqual(
      expect.arrayContaining(['30', '7', 'late']),
    );
    expect(kept.filter((k) => k.includes(scheme) && k.endsWith('|90'))).toEqual([]);

    // The company's webhook hears of every step, the opted-out client's too, each once, signed.
    const steps = (id: string) =>
      received.filter((r) => r.type === 'reminder.due' && r.data.scheme_id === id).map((r) => r.data.step);
    expect(steps(scheme)).toEqual(['90', '30', '7', 'late']);
    expect(steps(quietScheme)).toEqual(['90', '30', '7', 'late']);
    expect(received.find((r) => r.data.scheme_id === scheme)!.data).toEqual({
      scheme_id: scheme,
      cert_number: 'QMS/2025/001',
      name: 'PT Maju Bersama',
      standard: 'ISO 9001:2015',
      kind: 'SURVEILLANCE',
      due_date: '2026-06-01',
      step: '90',
      days_left: 90,
    });
  });

  it('reach the client at 90, 60 and 30 days before the certificate expires, once each', async () => {
    const type = await ctx.make.certificationType(other, 'ISO 14001:2015');
    const client = await ctx.make.client(other, 'PT Hijau Lestari', { email: 'lingkungan@hijau.test' });
    await ctx.make.scheme({
      company: other,
      type,
      client,
      status: 'ACTIVE',
      issue_date: '2024-06-01',
      expired_date: '2027-06-01',
      cert_number: 'EMS/2024/007',
    });
    const before = arrived.length;
    const expiry = '2027-06-01';
    for (const d of [-100, -90, -80, -61, -60, -59, -30, -29, -1, 0, 1].map((n) => addDays(expiry, n)))
      await day(d);
    const mine = arrived.slice(before).filter((a) => a.to.includes('lingkungan@hijau.test'));
    expect(mine.filter((a) => a.subject.includes('berakhirnya masa berlaku')).map((a) => a.subject)).toEqual([
      'Pengingat: berakhirnya masa berlaku sertifikat EMS/2024/007',
      'Pengingat: berakhirnya masa berlaku sertifikat EMS/2024/007',
      'Pengingat: berakhirnya masa berlaku sertifikat EMS/2024/007',
    ]);
    const texts = mine.filter((a) => a.subject.includes('berakhirnya')).map((a) => a.body);
    expect(texts[0]).toContain('jatuh tempo dalam 90 hari, pada 01 Juni 2027');
    expect(texts[1]).toContain('jatuh tempo dalam 60 hari, pada 01 Juni 2027');
    expect(texts[2]).toContain('jatuh tempo dalam 30 hari, pada 01 Juni 2027');
    expect(texts[0]).toContain('PT Hijau Lestari');
    expect(texts[0]).toContain('(ISO 14001:2015)');
  });
});

describe('the weekly digest', () => {
  it('goes to each active user holding Jadwal Audit with an email: late and due within 30 days of their companies', async () => {
    const today = '2026-01-19'; // a Monday
    ctx.clock.set(DAY(today));
    const type = await ctx.make.certificationType(company, 'ISO 45001:2018');
    // Late (due 2026-01-10), due in 20 days (2026-02-08), due in 60 days (not listed).
    for (const [issue, number] of [
      ['2025-01-10', 'OHS/LATE'],
      ['2025-02-08', 'OHS/SOON'],
      ['2025-03-20', 'OHS/LATER'],
    ] as const) {
      await ctx.make.scheme({ company, type, status: 'ACTIVE', issue_date: issue, cert_number: number });
    }
    const otherType = await ctx.make.certificationType(other, 'ISO 22000:2018');
    await ctx.make.scheme({
      company: other,
      type: otherType,
      status: 'ACTIVE',
      issue_date: '2025-01-25',
      cert_number: 'FSMS/SOON',
    });
    const staff = await ctx.make.user({
      username: 'jadwal.mutu',
      name: 'Rina Jadwal',
      company_ids: [company],
      keys: ['audit-schedule'],
    });
    const boss = await ctx.make.user({
      username: 'jadwal.semua',
      name: 'Budi Semua',
      company_ids: 'ALL',
      keys: ['audit-schedule'],
    });
    const noPerm = await ctx.make.user({
      username: 'tanpa.jadwal',
      company_ids: 'ALL',
      keys: ['company-certificate'],
    });
    const inactive = await ctx.make.user({
      username: 'nonaktif',
      company_ids: 'ALL',
      keys: ['audit-schedule'],
      is_active: 'false',
    });
    await ctx.make.user({ username: 'tanpa.email', company_ids: 'ALL', keys: ['audit-schedule'] });
    for (const [id, email] of [
      [staff.id, 'rina@lsp-mutu.test'],
      [boss.id, 'budi@lsp-mutu.test'],
      [noPerm.id, 'tanpa@lsp-mutu.test'],
      [inactive.id, 'nonaktif@lsp-mutu.test'],
    ] as const) {
      await ctx.database.db.update(users).set({ email }).where(eq(users.id, id));
    }
    const before = arrived.length;
    expect(await runDigest(ctx.database.db, ctx.clock)).toBe(2);
    expect(await runDigest(ctx.database.db, ctx.clock)).toBe(0);
    while ((await sendDueMail(ctx.database.db, ctx.clock, ctx.app.mailer)).tried > 0);
    const digests = arrived.slice(before);
    expect(digests.map((d) => d.to.join(',')).sort()).toEqual(['budi@lsp-mutu.test', 'rina@lsp-mutu.test']);
    const rina = digests.find((d) => d.to.includes('rina@lsp-mutu.test'))!;
    expect(rina.subject).toMatch(
      /^Ringkasan mingguan jadwal audit: \d+ terlambat, \d+ jatuh tempo dalam 30 hari$/,
    );
    expect(rina.body).toContain('Yth. Rina Jadwal,');
    expect(rina.body).toContain('PT LSP Mutu');
    expect(rina.body).toMatch(
      /Terlambat \(\d+\):\n(.*\n)*- OHS\/LATE .* \(ISO 45001:2018\): audit surveilan, 10 Januari 2026/,
    );
    expect(rina.body).toMatch(
      /Jatuh tempo dalam 30 hari \(\d+\):\n(.*\n)*- OHS\/SOON .* \(ISO 45001:2018\): audit surveilan, 08 Februari 2026/,
    );
    expect(rina.body).not.toContain('OHS/LATER');
    // Only her company: the other company's item is in the digest of the user with scope ALL.
    expect(rina.body).not.toContain('FSMS/SOON');
    expect(rina.body).not.toContain('PT Lain Sertifikasi');
    const budi = digests.find((d) => d.to.includes('budi@lsp-mutu.test'))!;
    expect(budi.body).toContain('OHS/LATE');
    expect(budi.body).toContain('PT Lain Sertifikasi');
    expect(budi.body).toMatch(/- FSMS\/SOON .* \(ISO 22000:2018\): audit surveilan, 25 Januari 2026/);
  });
});

describe('settings', () => {
  it('REMINDER_SCHEDULE, DIGEST_SCHEDULE and NOTIFY_SEND_SCHEDULE: 08:00 daily, Monday 07:00, every minute; `off`; a bad value stops the start', () => {
    expect(loadConfig({}).notify).toEqual({
      sendSchedule: '* * * * *',
      reminderSchedule: '0 8 * * *',
      digestSchedule: '0 7 * * 1',
    });
    expect(loadConfig({ REMINDER_SCHEDULE: 'off', DIGEST_SCHEDULE: 'OFF' }).notify).toMatchObject({
      reminderSchedule: null,
      digestSchedule: null,
    });
    expect(loadConfig({ REMINDER_SCHEDULE: '30 6 * * 1-5' }).notify.reminderSchedule).toBe('30 6 * * 1-5');
    expect(() => loadConfig({ DIGEST_SCHEDULE: 'senin' })).toThrow(
      'DIGEST_SCHEDULE must be a cron expression or "off", got "senin"',
    );
  });
});
