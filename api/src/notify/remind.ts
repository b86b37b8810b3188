/**
 * The reminder run and the weekly digest (docs/rules.md#notifications, docs/architecture.md
 * "Notifications"): what the job engine's daily and weekly tasks do (jobs/notify.ts).
 *
 * The reminder run reads the items due (`scheme_cycle_due`, listed by the rule 'Jadwal Audit' lists
 * by) and the ACTIVE schemes' expiry dates whose reminder window holds today, in key order and
 * batches (never a query per scheme; notify/remind-items.ts), asks `reminderSteps` which step each
 * is at, and in one transaction per batch records the steps not yet decided (`reminders_sent`,
 * keyed as the outbox) and, for those only, queues the client's mail (an email given and 'Kirim
 * pengingat ke klien' on) and a `reminder.due` delivery for each active webhook of the company
 * that wants it. Two processes or two runs on one day decide a step once:
 * the key's insert is the decision. Each mail to a client carries the signed link that turns its
 * reminders off (notify/unsubscribe.ts), in its text and as `List-Unsubscribe`.
 */
import { and, arrayContains, asc, desc, eq, exists, inArray, lt, lte, sql } from 'drizzle-orm';
import {
  addDays,
  ALL,
  AUDIT_SCHEDULE,
  type CompanyScope,
  CYCLE_RULES,
  type WebhookEvent,
} from '@sertifikasi/shared-contracts';
import type { Db } from '../db';
import {
  certificationTypes,
  clientCertificates,
  companies,
  permissions,
  remindersSent,
  rolePermissions,
  schemeCycleDue,
  schemes,
  userCompanies,
  users,
  webhooks,
} from '../db/schema';
import type { Clock } from '../lib/clock';
import { inCompanies } from '../lib/list';
import { cycleListedOn } from '../services/cycle-due';
import { dedupeKey, type MailToQueue, queueMails } from './mail';
import { DIGEST_LIST, type DigestCompany, type DigestItem, digestMail, reminderMail } from './messages';
import { cycleBatch, expiryBatch, type ItemRow, REMIND_BATCH } from './remind-items';
import { type DueItem, type ReminderStep, reminderSteps } from './reminders';
import { type UnsubscribeLinks, unsubscribeLinks } from './unsubscribe';
import { type DeliveryToQueue, queueDeliveries } from './webhooks';

/** The webhook event of a reminder step. */
const REMINDER_EVENT: WebhookEvent = 'reminder.due';

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
    const now = clock.now();
    const fresh = new Set(
      (
        await tx
          .insert(remindersSent)
          .values(steps.map((s) => ({ key: dedupeKey(s.dedupe), company_id: s.item.companyId, at: now })))
          .onConflictDoNothing()
          .returning({ key: remindersSent.key })
      ).map((r) => r.key),
    );
    const decided = steps.filter((s) => fresh.has(dedupeKey(s.dedupe)));
    if (decided.length === 0) return { steps: 0, mails: 0, deliveries: 0 };
    const hooks = await tx
      .select({ id: webhooks.id, company_id: webhooks.company_id })
      .from(webhooks)
      .where(
        and(
          inArray(webhooks.company_id, [...new Set(decided.map((s) => s.item.companyId))]),
          eq(webhooks.is_active, true),
          arrayContains(webhooks.events, [REMINDER_EVENT]),
        ),
      );
    const mails: MailToQueue[] = [];
    const deliveries: DeliveryToQueue[] = [];
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
          deliveries.push({ webhook: hook, type: REMINDER_EVENT, data: reminderData(step, row) });
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
  await db
    .delete(remindersSent)
    .where(lt(remindersSent.at, new Date(now.getTime() - KEEP_DECIDED_DAYS * 86_400_000)));
}

/** The active users holding `audit-schedule` with an email, and the companies of their scope. */
const digestReaders = (db: Db) =>
  db
    .select({
      id: users.id,
      name: users.name,
      email: sql<string>`${users.email}`,
      scope_all: users.scope_all,
      companies: sql<
        string[]
      >`coalesce((select array_agg(${userCompanies.company_id}::text) from ${userCompanies}
        where ${userCompanies.user_id} = ${users.id}), '{}')`,
    })
    .from(users)
    .where(
      and(
        eq(users.is_active, true),
        sql`coalesce(trim(${users.email}), '') <> ''`,
        exists(
          db
            .select({ one: sql`1` })
            .from(rolePermissions)
            .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
            .where(
              and(
                eq(rolePermissions.role_id, users.roles_id),
                eq(permissions.name, AUDIT_SCHEDULE.permission),
              ),
            ),
        ),
      ),
    );
type Reader = Awaited<ReturnType<typeof digestReaders>>[number];

/**
 * Every company's late and soon items at once (of `wanted`, the readers' companies; ALL: every
 * company): the stored items listed today (`cycleListedOn`) due before today (late, as
 * `cycleState` says LATE) or through CYCLE_RULES.soonDays ahead; the first DIGEST_LIST of each
 * company's late and soon ones, soonest first, with how many there are (`total`).
 */
function digestItems(db: Db, today: string, wanted: CompanyScope) {
  const late = lt(schemeCycleDue.due_date, today);
  const part = sql`partition by ${schemeCycleDue.company_id}, ${late}`;
  const x = db
    .select({
      company_id: schemeCycleDue.company_id,
      subject: schemeCycleDue.kind,
      due: schemeCycleDue.due_date,
      certNumber: schemes.cert_number,
      client: sql<string>`${clientCertificates.name}`.as('client'),
      standard: sql<string>`${certificationTypes.name}`.as('standard'),
      late: sql<boolean>`${late}`.as('late'),
      n: sql<number>`row_number() over (${part} order by ${schemeCycleDue.due_date}, ${schemes.cert_number})`.as(
        'n',
      ),
      total: sql<number>`count(*) over (${part})`.as('total'),
    })
    .from(schemeCycleDue)
    .innerJoin(schemes, eq(schemes.id, schemeCycleDue.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .where(
      and(
        lte(schemeCycleDue.due_date, addDays(today, CYCLE_RULES.soonDays)),
        cycleListedOn(today),
        inCompanies(schemeCycleDue.company_id, wanted),
      ),
    )
    .as('x');
  return db.select().from(x).where(lte(x.n, DIGEST_LIST)).orderBy(asc(x.company_id), desc(x.late), asc(x.n));
}

/**
 * The weekly digest for the week of `clock.today()`: to every active user holding `audit-schedule`
 * with an email, for the companies of their scope, the items late and those due within
 * CYCLE_RULES.soonDays (30 days). A user with nothing late or due gets no message. One message per
 * user and week (its dedupe key: the user, `weekly-digest`, the day, `weekly`). Answers how many
 * were queued.
 */
export async function runDigest(db: Db, clock: Clock): Promise<number> {
  const today = clock.today();
  const readers = await digestReaders(db);
  if (readers.length === 0) return 0;
  const scopeOf = (r: Reader): CompanyScope => (r.scope_all ? ALL : r.companies);
  const wanted = readers.some((r) => r.scope_all) ? ALL : [...new Set(readers.flatMap((r) => r.companies))];
  const rows = await digestItems(db, today, wanted);
  const names = new Map(
    (await db.select({ id: companies.id, name: companies.name }).from(companies)).map((c) => [c.id, c.name]),
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
      subject: r.subject as DigestItem['subject'],
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
