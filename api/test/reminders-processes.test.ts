/**
 * Reminders on a cluster (docs/operations.md#email-and-webhooks): two API processes on one
 * database run the job engine with the reminders, the digest and the senders scheduled every
 * minute. Over two runs of each, every reminder and the digest reach the real SMTP server once, and
 * `reminder.due` reaches a real HTTP receiver once per step, signed per Standard Webhooks.
 */
import { type ChildProcess } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { addDays } from '@sertifikasi/shared-contracts';
import { buildApp } from '../src/app';
import { type Database, openDatabase } from '../src/db';
import { freePort } from '../src/db/embedded';
import { mailOutbox, scheduledRuns, users, webhookDeliveries } from '../src/db/schema';
import { createClock } from '../src/lib/clock';
import { seedAdministrator, seedPermissions } from '../src/services/seed';
import { fixtures } from './fixtures';
import { call, login, testConfig } from './helpers';
import { runApi, waitFor } from './processes';
import { type Receiver, startReceiver, startSmtp } from './receivers';
import { copyPostgresTemplate } from './template';

/** A date a year earlier (the issue date whose first surveillance is due on `date`). */
const yearBefore = (date: string) => `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;

describe('two API processes running the reminder jobs', () => {
  let copy: { url: string; drop: () => Promise<void> };
  let database: Database;
  let smtp: Receiver;
  let receiver: Receiver;
  const arrived: { to: string; outboxId: string }[] = [];
  const received: { id: string; type: string; data: Record<string, unknown> }[] = [];
  let secret = '';
  const servers: ChildProcess[] = [];

  beforeAll(async () => {
    smtp = await startSmtp((to, raw) => {
      const outboxId = /^X-Sertifikasi-Outbox-Id: (.+)$/im.exec(raw)?.[1]?.trim() ?? '';
      for (const address of to) arrived.push({ to: address, outboxId });
    });
    receiver = await startReceiver((body, headers) => {
      try {
        const event = new Webhook(secret).verify(body, headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown>;
        };
        received.push({ id: String(headers['webhook-id']), ...event });
        return 200;
      } catch {
        return 401;
      }
    });
    copy = await copyPostgresTemplate();
    database = await openDatabase({ databaseUrl: copy.url, poolSize: 4 });
  });
  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await database.close();
    await copy.drop();
    await smtp.close();
    await receiver.close();
  });

  it('sends each reminder and the digest once, and delivers each reminder.due once', async () => {
    // The records, written by an app of this process on the same database (its jobs off).
    const config = testConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    await seedPermissions(database.db);
    await seedAdministrator(database.db, {
      username: 'admin',
      password: 'cluster-admin-pw',
      cost: config.argon2,
    });
    const clock = createClock(config.timeZone);
    const app = await buildApp({ config, db: database.db, clock });
    await app.ready();
    const token = await login(app, 'admin', 'cluster-admin-pw');
    const make = fixtures(app, (u, p) => login(app, u, p));
    const today = clock.today();
    const company = await make.company('PT LSP Gugus', { email: 'info@gugus.test' });
    const type = await make.certificationType(company, 'ISO 9001:2015');
    const hook = await call(app, token, 'POST', '/api/webhook', {
      company_id: company,
      url: `${receiver.url}/hook`,
      events: ['reminder.due'],
    });
    expect(hook.statusCode).toBe(201);
    secret = hook.json<{ secret: string }>().secret;
    // Due in 90 and 30 days, and late since yesterday: one step each today.
    const schemes: Record<string, string> = {};
    for (const [n, due] of [
      ['90', addDays(today, 90)],
      ['30', addDays(today, 30)],
      ['late', addDays(today, -1)],
    ] as const) {
      const client = await make.client(company, `PT Klien ${n}`, { email: `klien${n}@gugus.test` });
      schemes[n] = await make.scheme({
        company,
        type,
        client,
        status: 'ACTIVE',
        issue_date: yearBefore(due),
        cert_number: `QMS/GUGUS/${n}`,
      });
    }
    const planner = await make.user({
      username: 'perencana',
      company_ids: [company],
      keys: ['audit-schedule'],
    });
    await database.db.update(users).set({ email: 'perencana@gugus.test' }).where(eq(users.id, planner.id));
    await app.close();
    const env = {
      DATABASE_URL: copy.url,
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'cluster-admin-pw',
      BACKUP_SCHEDULE: 'off',
      REMINDER_SCHEDULE: '* * * * *',
      DIGEST_SCHEDULE: '* * * * *',
      NOTIFY_SEND_SCHEDULE: '* * * * *',
      JOB_CRON_CHECK_SECONDS: '1',
      JOB_POLL_MS: '500',
      SMTP_URL: smtp.url,
      // The loopback SMTP server has no TLS (TLS itself: src/notify/mail-tls.test.ts).
      SMTP_INSECURE: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const proc = runApi('src/server.ts', [], { ...env, PORT: String(port) });
      servers.push(proc.child);
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok,
        `API process ${i + 1} to listen\n${proc.output()}`,
      );
    }

    const runOf = async (name: string) =>
      (await database.db.select().from(scheduledRuns).where(eq(scheduledRuns.name, name)))[0]
        ?.last_success_at;
    // Two runs of the reminders and of the digest (minutes apart), whichever processes ran them.
    const first = await waitFor(() => runOf('reminders'), 'the first reminder run', { timeoutMs: 150_000 });
    await waitFor(
      async () =>
        ((await runOf('reminders'))?.getTime() ?? 0) > first.getTime() && (await runOf('weekly-digest')),
      'a second reminder run',
      { timeoutMs: 150_000 },
    );
    // Everything queued has gone out.
    await waitFor(
      async () =>
        (await database.db.select().from(mailOutbox)).every((m) => m.state === 'sent') &&
        (await database.db.select().from(webhookDeliveries)).every((d) => d.state === 'sent'),
      'the outbox and the deliveries to be sent',
      { timeoutMs: 150_000 },
    );

    const outbox = await database.db.select().from(mailOutbox);
    expect(outbox.map((m) => m.recipient).sort()).toEqual([
      'klien30@gugus.test',
      'klien90@gugus.test',
      'klienlate@gugus.test',
      'perencana@gugus.test',
    ]);
    // One arrival per message, never a second copy.
    expect(arrived.map((a) => a.to).sort()).toEqual(outbox.map((m) => m.recipient).sort());
    expect(new Set(arrived.map((a) => a.outboxId)).size).toBe(arrived.length);
    const bySubject = Object.fromEntries(outbox.map((m) => [m.recipient, m.subject]));
    expect(bySubject['klienlate@gugus.test']).toBe('Terlambat: audit surveilan sertifikat QMS/GUGUS/late');
    expect(bySubject['klien30@gugus.test']).toBe('Pengingat: audit surveilan sertifikat QMS/GUGUS/30');

    const steps = received
      .filter((r) => r.type === 'reminder.due')
      .map((r) => `${String(r.data.cert_number)} ${String(r.data.step)}`)
      .sort();
    expect(steps).toEqual(['QMS/GUGUS/30 30', 'QMS/GUGUS/90 90', 'QMS/GUGUS/late late']);
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
  }, 480_000);
});
