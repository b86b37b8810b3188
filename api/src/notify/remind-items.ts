/**
 * What the reminder run reads (notify/remind.ts, docs/rules.md#notifications): the items whose
 * reminder window holds today, a batch at a time in key order, with what their texts name. The
 * audits and suspension limits are the certification cycle's stored items due (`scheme_cycle_due`,
 * kept by services/cycle-due.ts) listed today by the same rule as 'Jadwal Audit'
 * (`cycleListedOn`); the expiries are the ACTIVE schemes' expiry dates.
 */
import { and, asc, eq, gt, gte, lte, sql, type SQLWrapper } from 'drizzle-orm';
import { addDays, type CycleKind } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { certificationTypes, clientCertificates, companies, schemeCycleDue, schemes } from '../db/schema';
import { cycleListedOn } from '../services/cycle-due';
import type { ReminderSubject } from './messages';
import { AHEAD_DAYS, LATE_WINDOW_DAYS } from './reminders';

/** Items read and decided a transaction. */
export const REMIND_BATCH = 1000;

/** What the texts of an item read, joined to the batch's keys (one statement a batch). */
const NAMES = {
  cert_number: schemes.cert_number,
  client_id: schemes.certificate_id,
  client: clientCertificates.name,
  client_email: clientCertificates.email,
  send_reminders: clientCertificates.send_reminders,
  standard: certificationTypes.name,
  body_name: companies.name,
  body_email: companies.email,
  body_phone: companies.phone,
};

/** An item due with what its texts name. */
export interface ItemRow {
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

/** The keyset condition: after `(due, id)` of the last row read. */
const afterKey = (due: SQLWrapper, id: SQLWrapper, after: [string, string] | null) =>
  after ? sql`(${due}, ${id}) > (${after[0]}, ${after[1]})` : undefined;

/**
 * The audits and suspension limits whose window holds today, after the key `after`: the stored items
 * listed today (`cycleListedOn`, as the schedule lists them) due from LATE_WINDOW_DAYS ago to
 * AHEAD_DAYS ahead. The batch's keys first, then their names.
 */
export async function cycleBatch(
  exec: Executor,
  today: string,
  after: [string, string] | null,
): Promise<ItemRow[]> {
  const d = exec
    .select({
      scheme_id: schemeCycleDue.scheme_id,
      company_id: schemeCycleDue.company_id,
      kind: schemeCycleDue.kind,
      due_date: schemeCycleDue.due_date,
    })
    .from(schemeCycleDue)
    .where(
      and(
        gte(schemeCycleDue.due_date, addDays(today, -LATE_WINDOW_DAYS)),
        lte(schemeCycleDue.due_date, addDays(today, AHEAD_DAYS)),
        afterKey(schemeCycleDue.due_date, schemeCycleDue.scheme_id, after),
        cycleListedOn(today),
      ),
    )
    .orderBy(asc(schemeCycleDue.due_date), asc(schemeCycleDue.scheme_id))
    .limit(REMIND_BATCH)
    .as('d');
  const rows = await exec
    .select({ scheme_id: d.scheme_id, company_id: d.company_id, kind: d.kind, due: d.due_date, ...NAMES })
    .from(d)
    .innerJoin(schemes, eq(schemes.id, d.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .orderBy(asc(d.due_date), asc(d.scheme_id));
  return rows.map((r) => ({ ...r, kind: r.kind as CycleKind }));
}

/** The ACTIVE schemes expiring after today and within AHEAD_DAYS, after the key `after`. */
export async function expiryBatch(
  exec: Executor,
  today: string,
  after: [string, string] | null,
): Promise<ItemRow[]> {
  const s = exec
    .select({ id: schemes.id, expired_date: schemes.expired_date })
    .from(schemes)
    .where(
      and(
        eq(schemes.status, 'ACTIVE'),
        gt(schemes.expired_date, today),
        lte(schemes.expired_date, addDays(today, AHEAD_DAYS)),
        afterKey(schemes.expired_date, schemes.id, after),
      ),
    )
    .orderBy(asc(schemes.expired_date), asc(schemes.id))
    .limit(REMIND_BATCH)
    .as('s');
  const rows = await exec
    .select({ scheme_id: schemes.id, company_id: schemes.company_id, due: schemes.expired_date, ...NAMES })
    .from(s)
    .innerJoin(schemes, eq(schemes.id, s.id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .orderBy(asc(s.expired_date), asc(s.id));
  return rows.map((r) => ({ ...r, kind: 'EXPIRY' as const }));
}
