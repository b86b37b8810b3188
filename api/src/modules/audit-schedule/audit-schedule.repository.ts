/**
 * The audit schedule's reads (docs/product.md, "The certification cycle"): the stored items due
 * (`scheme_cycle_due`, kept by services/cycle-due.ts) filtered by scope, window, certification type
 * and search, soonest first. Today enters only here, as comparisons: an ACTIVE scheme is listed
 * while `expired_date >= today`, and the state and days left are worked out per row read
 * (`cycleState`, `daysLeft`), so no stored row changes when a day passes. The first page reads the
 * due-date index from its start; the count stops past the list's cap.
 */
import { and, asc, count, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import {
  ALL,
  type AuditDueSummary,
  type AuditScheduleQuery,
  type AuditScheduleRow,
  addDays,
  type CompanyScope,
  CYCLE_RULES,
  type CycleKind,
  cycleState,
  daysLeft,
  windowEnd,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { certificationTypes, clientCertificates, companies, schemeCycleDue, schemes } from '../../db/schema';
import { keysetBatches } from '../../db/keyset';
import { searchDocument } from '../../db/search';
import { COUNT_LIMIT, matchesSearch } from '../../lib/list';

/** The same search documents as the scheme report's (their trigram indexes serve them). */
const clientSearch = searchDocument([
  clientCertificates.name,
  clientCertificates.certificate_number,
  clientCertificates.region,
]);
const schemeSearch = searchDocument([schemes.cert_number]);

const inScope = (scope: CompanyScope): SQL | undefined =>
  scope === ALL ? undefined : scope.length ? inArray(schemeCycleDue.company_id, scope) : sql`false`;

/** Items listed today: SUSPENDED ones, and ACTIVE ones not yet expired. */
const listedOn = (today: string): SQL =>
  or(eq(schemeCycleDue.status, 'SUSPENDED'), gte(schemeCycleDue.expired_date, today))!;

export interface ScheduleFilter {
  query: Pick<AuditScheduleQuery, 'window' | 'certification' | 'search'>;
  scope: CompanyScope;
  today: string;
}

/** The conditions on the stored items (the search is on the joined rows: `scheduleSearch`). */
export function scheduleWhere(f: ScheduleFilter): SQL | undefined {
  const end = windowEnd(f.query.window, f.today);
  return and(
    inScope(f.scope),
    listedOn(f.today),
    end.before ? lt(schemeCycleDue.due_date, end.before) : undefined,
    end.through ? lte(schemeCycleDue.due_date, end.through) : undefined,
    f.query.certification.length
      ? inArray(schemeCycleDue.certification_id, f.query.certification)
      : undefined,
  );
}

const scheduleSearch = (search: string): SQL | undefined =>
  search ? or(matchesSearch(clientSearch, search), matchesSearch(schemeSearch, search)) : undefined;

const rowFields = {
  scheme_id: schemeCycleDue.scheme_id,
  company_id: schemeCycleDue.company_id,
  company_name: companies.name,
  certificate_id: schemes.certificate_id,
  client_name: clientCertificates.name,
  client_logo: clientCertificates.logo,
  certification_id: schemeCycleDue.certification_id,
  cert_name: certificationTypes.name,
  cert_number: schemes.cert_number,
  kind: schemeCycleDue.kind,
  due_date: schemeCycleDue.due_date,
  surveillance_date: schemes.surveillance_date,
  expired_date: schemeCycleDue.expired_date,
};

function scheduleSelect(db: Executor, f: ScheduleFilter, extra?: SQL) {
  return db
    .select(rowFields)
    .from(schemeCycleDue)
    .innerJoin(schemes, eq(schemes.id, schemeCycleDue.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemeCycleDue.certification_id))
    .innerJoin(companies, eq(companies.id, schemeCycleDue.company_id))
    .where(and(scheduleWhere(f), scheduleSearch(f.query.search), extra))
    .orderBy(asc(schemeCycleDue.due_date), asc(schemeCycleDue.scheme_id));
}

type SelectRow = Awaited<ReturnType<ReturnType<typeof scheduleSelect>['execute']>>[number];

const toRow = (r: SelectRow, today: string): AuditScheduleRow => ({
  ...r,
  cert_number: r.cert_number ?? '',
  kind: r.kind as CycleKind,
  days_left: daysLeft(r.due_date, today),
  state: cycleState(r.due_date, today),
});

/** One page of the schedule, soonest first. */
export async function schedulePage(
  db: Executor,
  f: ScheduleFilter,
  limit: number,
  offset: number,
): Promise<AuditScheduleRow[]> {
  const rows = await scheduleSelect(db, f).limit(limit).offset(offset);
  return rows.map((r) => toRow(r, f.today));
}

/** How many items match, counted up to COUNT_LIMIT (a larger count answers a capped total). */
export async function scheduleCount(db: Executor, f: ScheduleFilter): Promise<number> {
  const search = scheduleSearch(f.query.search);
  const inner = search
    ? db
        .select({ one: sql`1` })
        .from(schemeCycleDue)
        .innerJoin(schemes, eq(schemes.id, schemeCycleDue.scheme_id))
        .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
        .where(and(scheduleWhere(f), search))
        .limit(COUNT_LIMIT)
    : db
        .select({ one: sql`1` })
        .from(schemeCycleDue)
        .where(scheduleWhere(f))
        .limit(COUNT_LIMIT);
  const [row] = await db.select({ n: count() }).from(inner.as('matched'));
  return Number(row?.n ?? 0);
}

/** Every matching row, soonest first, a batch at a time (keyset on due date and scheme id). */
export function scheduleBatches(
  db: Executor,
  f: ScheduleFilter,
  batchSize: number,
): AsyncGenerator<AuditScheduleRow[]> {
  return keysetBatches(
    batchSize,
    (after: SelectRow | null) =>
      scheduleSelect(
        db,
        f,
        after
          ? sql`(${schemeCycleDue.due_date}, ${schemeCycleDue.scheme_id}) > (${after.due_date}, ${after.scheme_id})`
          : undefined,
      ).limit(batchSize),
    (rows) => rows.map((r) => toRow(r, f.today)),
  );
}

/**
 * The dashboard card: items late, and items due from today through 30 days, in the scope. Two
 * range counts on the due-date index.
 */
export async function dueSummary(db: Executor, scope: CompanyScope, today: string): Promise<AuditDueSummary> {
  const soonEnd = addDays(today, CYCLE_RULES.soonDays);
  const [row] = await db
    .select({
      late: sql<number>`count(*) filter (where ${schemeCycleDue.due_date} < ${today})`.mapWith(Number),
      soon: sql<number>`count(*) filter (where ${schemeCycleDue.due_date} >= ${today})`.mapWith(Number),
    })
    .from(schemeCycleDue)
    .where(and(inScope(scope), listedOn(today), lte(schemeCycleDue.due_date, soonEnd)));
  return { late: row?.late ?? 0, soon: row?.soon ?? 0 };
}
