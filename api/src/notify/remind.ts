/**
 * The reminder run and the weekly digest (docs/rules.md#notifications, docs/architecture.md
 * "Notifications"): what the job engine's daily and weekly tasks do (jobs/notify.ts).
 *
 * The reminder run reads the items due (`scheme_cycle_due`) and the ACTIVE schemes' expiry dates
 * whose reminder window holds today, in key order and batches (never a query per scheme), asks
 * `reminderSteps` which step each is at, and in one transaction per batch records the steps not yet
 * decided (`reminders_sent`, keyed as the outbox) and, for those only, queues the client's mail
 * (an email given and 'Kirim pengingat ke klien' on) and a `reminder.due` delivery for each active
 * webhook of the company that wants it. Two processes or two runs on one day decide a step once:
 * the key's insert is the decision. Each mail to a client carries the signed link that turns its
 * reminders off (notify/unsubscribe.ts), in its text and as `List-Unsubscribe`.
 */
import { sql } from 'drizzle-orm';
import { addDays, ALL, type CompanyScope } from '@sertifikasi/shared-contracts';
import type { Db, Executor } from '../db';
import type { Clock } from '../lib/clock';
import { dedupeKey, type MailToQueue, queueMails } from './mail';
import {
  DIGEST_LIST,
  type DigestCompany,
  type DigestItem,
  digestMail,
  reminderMail,
  type ReminderSubject,
} from './messages';
import { type DueItem, LATE_WINDOW_DAYS, type ReminderStep, reminderSteps } from './reminders';
import { type UnsubscribeLinks, unsubscribeLinks } from './unsubscribe';
import { queueDeliveries } from './webhooks';

/** Items read and decided a transaction. */
export const REMIND_BATCH = 1000;

/** Furthest ahead a step opens: 90 days before the due date or the expiry. */
const AHEAD_DAYS = 90;

/** An item due with what its texts name. */
interface ItemRow {
  scheme_id: string;
  company_id: string;
  kind: ReminderSubject;
  due: string;
  cert_number: string | null;
  client_id: string;
  client: string;
  client_email: string | null;
  send_reminders: boolean;
  standard: string;
  body_name: string;
  body_email: string | null;
  body_phone: string | null;
}

const rowsOf = async <T>(exec: Executor, query: ReturnType<typeof sql>): Promise<T[]> => {
  const result: unknown = await exec.execute(query);
  return (result as { rows: T[] }).rows;
};

/** What the texts of an item read, joined to the batch's keys (one statement a batch). */
const NAMES = sql`
  s.cert_number, s.certificate_id as client_id, c.name as client, c.email as client_email, c.send_reminders,
  t.name as standard, co.name as body_name, co.email as body_email, co.phone as body_phone`;
const JOINS = sql`
  join client_certificates c on c.id = s.certificate_id
  join certification_types t on t.id = s.certification_id
  join companies co on co.id = s.company_id`;

/**
 * The audits and suspension limits whose window holds today, after the key `after`: due from
 * LATE_WINDOW_DAYS ago to AHEAD_DAYS ahead, not of a certificate that has expired.
 */
function cycleBatch(exec: Executor, today: string, after: [string, string] | null) {
  return rowsOf<ItemRow>(
    exec,
    sql`select d.scheme_id, d.company_id, d.kind, d.due_date::text as due, ${NAMES}
      from (select * from scheme_cycle_due d
            where d.due_date >= ${addDays(today, -LATE_WINDOW_DAYS)}::date
              and d.due_date <= ${addDays(today, AHEAD_DAYS)}::date
              ${after ? sql`and (d.due_date, d.scheme_id) > (${after[0]}::date, ${after[1]}::uuid)` : sql``}
              and not (d.status = 'ACTIVE' and d.expired_date < ${today}::date)
            order by d.due_date, d.scheme_id
            limit ${REMIND_BATCH}) d
      join schemes s on s.id = d.scheme_id
      ${JOINS}
      order by d.due_date, d.scheme_id`,
  );
}

/** The ACTIVE schemes expiring after today and within AHEAD_DAYS, after the key `after`. */
function expiryBatch(exec: Executor, today: string, after: [string, string] | null) {
  return rowsOf<ItemRow>(
    exec,
    sql`select s.id as scheme_id, s.company_id, 'EXPIRY' as kind, s.expired_date::text as due, ${NAMES}
      from (select * from schemes s
            where s.status = 'ACTIVE'
              and s.expired_date > ${today}::date
              and s.expired_date <= ${addDays(today, AHEAD_DAYS)}::date
              ${after ? sql`and (s.expired_date, s.id) > (${after[0]}::date, ${after[1]}::uuid)` : sql``}
            order by s.expired_date, s.id
            limit ${REMIND_BATCH}) s
      ${JOINS}
      order by s.expired_date, s.id`,
  );
}

export interface ReminderRunResult {
  /** Steps decided by this run (each once, ever). */
  steps: number;
  /** Messages queued to clients. */
  mails: number;
  /** `reminder.due` deliveries queued. */
  deliveries: number;
}

/** The public body of a `reminder.due` delivery. */
const reminderData = (step: ReminderStep, row: ItemRow) => ({
  scheme_id: row.scheme_id,
  cert_number: row.cert_number,
  name: row.client,
  standard: row.standard,
  kind: row.kind,
  due_date: row.due,
  step: step.step,
  days_left: step.daysLeft,
});

/** Decides one batch's steps in one transaction (see the file's comment). */
async function decideBatch(
  db: Db,
  clock: Clock,
  links: UnsubscribeLinks,
  today: string,
  rows: ItemRow[],
): Promise<ReminderRunResult> {
  const byScheme = new Map(rows.map((r) => [`${r.scheme_id}:${r.kind}`, r]));
  const items: DueItem[] = rows.map((r) => ({
    kind: r.kind,
    due: r.due,
    schemeId: r.scheme_id,
    clientId: r.client_id,
    companyId: r.company_id,
  }));
  const steps = reminderSteps(items, today);
  if (steps.length === 0) return { steps: 0, mails: 0, deliveries: 0 };
  return db.transaction(async (tx) => {
    const keys = steps.map((s) => dedupeKey(s.dedupe));
    const fresh = new Set(
      (
        await rowsOf<{ key: string }>(
          tx,
          sql`insert into reminders_sent (key, company_id, at)
            select k, c, ${clock.now()} from unnest(${sql.param(keys)}::text[], ${sql.param(steps.map((s) => s.item.companyId))}::uuid[]) as x(k, c)
            on conflict do nothing returning key`,
        )
      ).map((r) => r.key),
    );
    const decided = steps.filter((s) => fresh.has(dedupeKey(s.dedupe)));
    if (decided.length === 0) return { steps: 0, mails: 0, deliveries: 0 };
    const companies = [...new Set(decided.map((s) => s.item.companyId))];
    const hooks = await rowsOf<{ id: string; company_id: string }>(
      tx,
      sql`select id, company_id from webhooks
        where company_id = any(${sql.param(companies)}::uuid[]) and is_active and 'reminder.due' = any(events)`,
    );
    const mails: MailToQueue[] = [];
    const deliveries: Parameters<typeof queueDeliveries>[2][number][] = [];
    for (const step of decided) {
      const row = byScheme.get(`${step.item.schemeId}:${step.item.kind}`)!;
      const email = row.client_email?.trim();
      if (email && row.send_reminders) {
        const unsubscribe = links.link(row.client_id, email);
        mails.push({
          companyId: row.company_id,
          recipient: email,
          unsubscribe,
          ...reminderMail({
            subject: row.kind,
            body: { name: row.body_name, email: row.body_email, phone: row.body_phone },
            client: row.client,
            certNumber: row.cert_number ?? '-',
            standard: row.standard,
            due: row.due,
            daysLeft: step.daysLeft,
            unsubscribe,
          }),
          dedupe: step.dedupe,
        });
      }
      for (const hook of hooks) {
        if (hook.company_id === row.company_id)
          deliveries.push({ webhook: hook, type: 'reminder.due', data: reminderData(step, row) });
      }
    }
    const queued = await queueMails(tx, clock, mails);
    await queueDeliveries(tx, clock, deliveries);
    return { steps: decided.length, mails: queued, deliveries: deliveries.length };
  });
}

/**
 * One reminder run for today (`clock.today()`): every step due today that no run decided before.
 * `publicBaseUrl`: PUBLIC_BASE_URL, of the unsubscribe links. `stopping`: checked between batches
 * (a graceful stop ends after the current one; the next run picks up the rest).
 */
export async function runReminders(
  db: Db,
  clock: Clock,
  opts: { publicBaseUrl: string; stopping?: AbortSignal },
): Promise<ReminderRunResult> {
  const today = clock.today();
  const links = await unsubscribeLinks(db, opts.publicBaseUrl);
  const total: ReminderRunResult = { steps: 0, mails: 0, deliveries: 0 };
  for (const read of [cycleBatch, expiryBatch]) {
    let after: [string, string] | null = null;
    for (;;) {
      if (opts.stopping?.aborted) return total;
      const rows = await read(db, today, after);
      if (rows.length === 0) break;
      const done = await decideBatch(db, clock, links, today, rows);
      total.steps += done.steps;
      total.mails += done.mails;
      total.deliveries += done.deliveries;
      const last = rows[rows.length - 1]!;
      after = [last.due, last.scheme_id];
      if (rows.length < REMIND_BATCH) break;
    }
  }
  await pruneDecided(db, clock.now());
  return total;
}

/**
 * A step is asked about only from its day (at most 90 days before the due date) until a week after
 * the due date, so a key decided more than KEEP_DECIDED_DAYS ago can never be asked again: removed,
 * so the table holds about three months of steps rather than every step ever.
 */
export const KEEP_DECIDED_DAYS = 100;

async function pruneDecided(db: Db, now: Date): Promise<void> {
  await db.execute(
    sql`delete from reminders_sent where at < ${new Date(now.getTime() - KEEP_DECIDED_DAYS * 86_400_000)}`,
  );
}

/** A user the digest goes to. */
interface Reader {
  id: string;
  name: string;
  email: string;
  scope_all: boolean;
  companies: string[];
}

/** An item of the digest's read, with its place among its company's late or soon ones. */
interface DigestRow extends DigestItem {
  company_id: string;
  late: boolean;
  n: number;
  total: number;
}

/**
 * The weekly digest for the week of `clock.today()`: to every active user holding `audit-schedule`
 * with an email, for the companies of their scope, the items late and those due within 30 days.
 * A user with nothing late or due gets no message. One message per user and week (its dedupe key:
 * the user, `weekly-digest`, the day, `weekly`). Answers how many were queued.
 */
export async function runDigest(db: Db, clock: Clock): Promise<number> {
  const today = clock.today();
  const readers = await rowsOf<Reader>(
    db,
    sql`select u.id, u.name, u.email, u.scope_all,
        coalesce((select array_agg(uc.company_id::text) from user_companies uc where uc.user_id = u.id), '{}') as companies
      from users u
      where u.is_active and coalesce(trim(u.email), '') <> ''
        and exists (select 1 from role_permissions rp join permissions p on p.id = rp.permission_id
                    where rp.role_id = u.roles_id and p.name = 'audit-schedule')`,
  );
  if (readers.length === 0) return 0;
  const scopeOf = (r: Reader): CompanyScope => (r.scope_all ? ALL : r.companies);
  const wanted = readers.some((r) => r.scope_all) ? null : [...new Set(readers.flatMap((r) => r.companies))];
  // Every company's late and soon items at once: the first DIGEST_LIST of each, with their totals.
  const soonUntil = addDays(today, 30);
  const rows = await rowsOf<DigestRow>(
    db,
    sql`select * from (
        select d.company_id, d.kind as subject, d.due_date::text as due, s.cert_number as "certNumber",
          c.name as client, t.name as standard, d.due_date < ${today}::date as late,
          row_number() over w as n, count(*) over (partition by d.company_id, d.due_date < ${today}::date) as total
        from scheme_cycle_due d
        join schemes s on s.id = d.scheme_id
        join client_certificates c on c.id = s.certificate_id
        join certification_types t on t.id = s.certification_id
        where d.due_date <= ${soonUntil}::date
          and not (d.status = 'ACTIVE' and d.expired_date < ${today}::date)
          ${wanted ? sql`and d.company_id = any(${sql.param(wanted)}::uuid[])` : sql``}
        window w as (partition by d.company_id, d.due_date < ${today}::date order by d.due_date, s.cert_number)
      ) x where n <= ${DIGEST_LIST}
      order by company_id, late desc, n`,
  );
  const names = new Map(
    (await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from companies`)).map((c) => [
      c.id,
      c.name,
    ]),
  );
  const perCompany = new Map<string, DigestCompany>();
  for (const r of rows) {
    const c = perCompany.get(r.company_id) ?? {
      name: names.get(r.company_id) ?? '',
      late: { count: 0, items: [] },
      soon: { count: 0, items: [] },
    };
    const part = r.late ? c.late : c.soon;
    part.count = Number(r.total);
    part.items.push({
      subject: r.subject,
      client: r.client,
      certNumber: r.certNumber ?? '-',
      standard: r.standard,
      due: r.due,
    });
    perCompany.set(r.company_id, c);
  }
  const mails: MailToQueue[] = [];
  for (const reader of readers) {
    const scope = scopeOf(reader);
    const ids = (scope === ALL ? [...perCompany.keys()] : scope.filter((id) => perCompany.has(id))).sort(
      (a, b) => (names.get(a) ?? '').localeCompare(names.get(b) ?? ''),
    );
    if (ids.length === 0) continue;
    const inScope = scope === ALL ? [...names.keys()] : scope;
    mails.push({
      companyId: inScope.length === 1 ? inScope[0]! : null,
      recipient: reader.email.trim(),
      ...digestMail({ user: reader.name, monday: today, companies: ids.map((id) => perCompany.get(id)!) }),
      dedupe: { record: reader.id, kind: 'weekly-digest', due: today, step: 'weekly' },
    });
  }
  return db.transaction((tx) => queueMails(tx, clock, mails));
}
