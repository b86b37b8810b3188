/**
 * The audit schedule's reads (docs/product.md, "The certification cycle"): the stored items due
 * (`scheme_cycle_due`, kept by services/cycle-due.ts) filtered by scope, window, certification type
 * and search, soonest first. Today enters only here, as comparisons: an ACTIVE scheme is listed
 * while `expired_date >= today` (services/cycle-due.ts `cycleListedOn`, as the reminders read),
 * and the state and days left are worked out per row read (`cycleState`, `daysLeft`), so no
 * stored row changes when a day passes. The first page reads the
 * due-date index from its start (prepared statements, one per shape of filters). Totals and the
 * dashboard card sum the counts per due date (`scheme_cycle_due_counts`), less the ACTIVE schemes
 * expired before today (`scheme_counts`): every such scheme's item is due before today; with a
 * search or a type filter the rows are counted, up to the list's cap.
 *
 * Long file: the page, its total and the dashboard card are one selection of the items due, in the
 * prepared shapes they share.
 */
import { and, asc, count, eq, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
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
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db';
import {
  auditors,
  certificationTypes,
  clientCertificates,
  companies,
  plannedAudits,
  plannedAuditTeam,
  schemeCounts,
  schemeCycleDue,
  schemeCycleDueCounts,
  schemes,
} from '../../db/schema';
import { preparedShapes } from '../../db/prepared';
import { cycleListedOn } from '../../services/cycle-due';
import { keysetBatches } from '../../db/keyset';
import { clientSearch, schemeSearch } from '../../db/search-documents';
import {
  COUNT_LIMIT,
  inCompanies,
  isAnyOf,
  likePattern,
  matchesPattern,
  matchesSearch,
  scopeIds,
} from '../../lib/list';

export interface ScheduleFilter {
  query: Pick<AuditScheduleQuery, 'window' | 'certification' | 'search'>;
  scope: CompanyScope;
  today: string;
}

/** The conditions on the stored items (the search is on the joined rows: `scheduleSearch`). */
export function scheduleWhere(f: ScheduleFilter): SQL | undefined {
  const end = windowEnd(f.query.window, f.today);
  return and(
    inCompanies(schemeCycleDue.company_id, f.scope),
    cycleListedOn(f.today),
    end.before ? lt(schemeCycleDue.due_date, end.before) : undefined,
    end.through ? lte(schemeCycleDue.due_date, end.through) : undefined,
    f.query.certification.length
      ? inArray(schemeCycleDue.certification_id, f.query.certification)
      : undefined,
  );
}

const scheduleSearch = (search: string): SQL | undefined =>
  search ? or(matchesSearch(clientSearch, search), matchesSearch(schemeSearch, search)) : undefined;

/**
 * The scheme's earliest PLANNED audit with its lead auditor, as one JSON value (null: none): a
 * correlated subquery per row read (the page's rows only), on the partial index of PLANNED audits
 * by scheme and start date and the team's primary key; no query per row from here.
 */
const plannedAuditOf = sql<AuditScheduleRow['planned_audit']>`(
  select json_build_object(
    'id', pa.id, 'start_date', pa.start_date, 'end_date', pa.end_date,
    'lead', (select a.name from ${plannedAuditTeam} pt join ${auditors} a on a.id = pt.auditor_id
             where pt.planned_audit_id = pa.id and pt.role = 'LEAD_AUDITOR' limit 1))
  from ${plannedAudits} pa
  where pa.scheme_id = ${schemeCycleDue.scheme_id} and pa.state = 'PLANNED'
  order by pa.start_date, pa.id
  limit 1)`;

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
  planned_audit: plannedAuditOf,
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

/** The page's statement, one per shape of filters; every value a placeholder. */
const pageOf = preparedShapes(
  'audit-schedule.page',
  ['scoped', 'before', 'through', 'certification', 'search'],
  ['scope', 'today', 'end', 'certification', 'pattern', 'limit', 'offset'],
  (db, p, on, name) =>
    db
      .select(rowFields)
      .from(schemeCycleDue)
      .innerJoin(schemes, eq(schemes.id, schemeCycleDue.scheme_id))
      .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
      .innerJoin(certificationTypes, eq(certificationTypes.id, schemeCycleDue.certification_id))
      .innerJoin(companies, eq(companies.id, schemeCycleDue.company_id))
      .where(
        and(
          on.scoped ? isAnyOf(schemeCycleDue.company_id, p.scope) : undefined,
          cycleListedOn(p.today),
          on.before ? sql`${schemeCycleDue.due_date} < ${p.end}` : undefined,
          on.through ? sql`${schemeCycleDue.due_date} <= ${p.end}` : undefined,
          on.certification ? isAnyOf(schemeCycleDue.certification_id, p.certification) : undefined,
          on.search
            ? or(matchesPattern(clientSearch, p.pattern), matchesPattern(schemeSearch, p.pattern))
            : undefined,
        ),
      )
      .orderBy(asc(schemeCycleDue.due_date), asc(schemeCycleDue.scheme_id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
);

/** One page of the schedule, soonest first. */
export async function schedulePage(
  db: Executor,
  f: ScheduleFilter,
  limit: number,
  offset: number,
): Promise<AuditScheduleRow[]> {
  const end = windowEnd(f.query.window, f.today);
  const rows = await pageOf(
    db,
    {
      scoped: f.scope !== ALL,
      before: !!end.before,
      through: !!end.through,
      certification: f.query.certification.length > 0,
      search: f.query.search !== '',
    },
    {
      scope: scopeIds(f.scope),
      today: f.today,
      end: end.before ?? end.through ?? f.today,
      certification: f.query.certification,
      pattern: likePattern(f.query.search),
      limit,
      offset,
    },
  );
  return rows.map((r) => toRow(r, f.today));
}

/**
 * The filter the schedule opens with and most pages have: the window and the scope only (no search,
 * no certification type). Such a page and its total are one prepared statement
 * (`schedulePageAndTotal`).
 */
export const schedulePlain = (f: ScheduleFilter): boolean => !f.query.search && !f.query.certification.length;

/**
 * A page of the plain filter and its total in one round trip. The total: the counts per due date in
 * the window, less the ACTIVE schemes expired before today (as `scheduleCount`). The page: the keys
 * of its rows first (due date, scheme id), an index-only walk of the due-date index, which holds
 * status and expiry, so the expired ACTIVE items at its start are passed in the index without
 * reading their rows; then only those rows joined to their scheme, client, type, company and plan.
 * One statement per shape (scope or ALL, and the window's end).
 */
const pageAndTotalOf = preparedShapes(
  'audit-schedule.page-total',
  ['scoped', 'before', 'through'],
  ['scope', 'today', 'end', 'limit', 'offset'],
  (db, p, on, name) => {
    const today = sql`${p.today}::date`;
    const end = sql`${p.end}::date`;
    const scoped = (column: AnyPgColumn | SQL) => (on.scoped ? sql` and ${column} = any(${p.scope})` : sql``);
    const window = (column: AnyPgColumn | SQL) =>
      on.before ? sql` and ${column} < ${end}` : on.through ? sql` and ${column} <= ${end}` : sql``;
    const due = sql`select coalesce(sum(${schemeCycleDueCounts.n}), 0) from ${schemeCycleDueCounts}
      where true${scoped(schemeCycleDueCounts.company_id)}${window(schemeCycleDueCounts.due_date)}`;
    const expired = sql`select coalesce(sum(${schemeCounts.n}), 0) from ${schemeCounts}
      where ${schemeCounts.status} = 'ACTIVE' and ${schemeCounts.expired_date} < ${today}${scoped(schemeCounts.company_id)}`;
    const total = sql`select greatest(0, (${due}) - (${expired})) as total`;
    const keys = sql`select k.scheme_id from ${schemeCycleDue} k
      where (k.status = 'SUSPENDED' or k.expired_date >= ${today})${scoped(sql`k.company_id`)}${window(sql`k.due_date`)}
      order by k.due_date, k.scheme_id
      limit ${p.limit} offset ${p.offset}`;
    const page = sql`select ${schemeCycleDue.scheme_id} as scheme_id, ${schemeCycleDue.company_id} as company_id,
        ${companies.name} as company_name, ${schemes.certificate_id} as certificate_id,
        ${clientCertificates.name} as client_name, ${clientCertificates.logo} as client_logo,
        ${schemeCycleDue.certification_id} as certification_id, ${certificationTypes.name} as cert_name,
        ${schemes.cert_number} as cert_number, ${schemeCycleDue.kind} as kind, ${schemeCycleDue.due_date} as due_date,
        ${schemes.surveillance_date} as surveillance_date, ${schemeCycleDue.expired_date} as expired_date,
        ${plannedAuditOf} as planned_audit
      from (${keys}) keys
      join ${schemeCycleDue} on ${schemeCycleDue.scheme_id} = keys.scheme_id
      join ${schemes} on ${schemes.id} = ${schemeCycleDue.scheme_id}
      join ${clientCertificates} on ${clientCertificates.id} = ${schemes.certificate_id}
      join ${certificationTypes} on ${certificationTypes.id} = ${schemeCycleDue.certification_id}
      join ${companies} on ${companies.id} = ${schemeCycleDue.company_id}`;
    const field = <T>(column: string) => sql<T>`${sql.identifier('p')}.${sql.identifier(column)}`;
    return db
      .select({
        total: sql<string>`t.total`,
        scheme_id: field<string | null>('scheme_id'),
        company_id: field<string>('company_id'),
        company_name: field<string>('company_name'),
        certificate_id: field<string>('certificate_id'),
        client_name: field<string>('client_name'),
        client_logo: field<string | null>('client_logo'),
        certification_id: field<string>('certification_id'),
        cert_name: field<string>('cert_name'),
        cert_number: field<string | null>('cert_number'),
        kind: field<string>('kind'),
        due_date: field<string>('due_date'),
        surveillance_date: field<string | null>('surveillance_date'),
        expired_date: field<string>('expired_date'),
        planned_audit: field<AuditScheduleRow['planned_audit']>('planned_audit'),
      })
      .from(sql`(${total}) t left join lateral (${page}) p on true`)
      .orderBy(sql`p.due_date, p.scheme_id`)
      .prepare(name);
  },
);

/** A page of the plain filter (`schedulePlain`) and its total, in one statement. */
export async function schedulePageAndTotal(
  db: Executor,
  f: ScheduleFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AuditScheduleRow[]; total: number }> {
  if (f.scope !== ALL && f.scope.length === 0) return { rows: [], total: 0 };
  const end = windowEnd(f.query.window, f.today);
  const rows = await pageAndTotalOf(
    db,
    { scoped: f.scope !== ALL, before: !!end.before, through: !!end.through },
    {
      scope: scopeIds(f.scope),
      today: f.today,
      end: end.before ?? end.through ?? f.today,
      limit,
      offset,
    },
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows
      .filter((r) => r.scheme_id !== null)
      .map(({ total: _, ...r }) => toRow(r as SelectRow, f.today)),
  };
}

/** Items due up to a date (`before`: strictly before it; neither: every one) in the scope, from the counts. */
const dueCountOf = preparedShapes(
  'audit-schedule.due-count',
  ['scoped', 'before', 'through', 'from'],
  ['scope', 'end', 'start'],
  (db, p, on, name) =>
    db
      .select({ n: sql<number>`coalesce(sum(${schemeCycleDueCounts.n}), 0)`.mapWith(Number) })
      .from(schemeCycleDueCounts)
      .where(
        and(
          on.scoped ? isAnyOf(schemeCycleDueCounts.company_id, p.scope) : undefined,
          on.before ? sql`${schemeCycleDueCounts.due_date} < ${p.end}` : undefined,
          on.through ? sql`${schemeCycleDueCounts.due_date} <= ${p.end}` : undefined,
          on.from ? sql`${schemeCycleDueCounts.due_date} >= ${p.start}` : undefined,
        ),
      )
      .prepare(name),
);

/** ACTIVE schemes expired before today in the scope: each still has an item, due before today. */
const expiredActiveOf = preparedShapes(
  'audit-schedule.expired-active',
  ['scoped'],
  ['scope', 'today'],
  (db, p, on, name) =>
    db
      .select({ n: sql<number>`coalesce(sum(${schemeCounts.n}), 0)`.mapWith(Number) })
      .from(schemeCounts)
      .where(
        and(
          on.scoped ? isAnyOf(schemeCounts.company_id, p.scope) : undefined,
          eq(schemeCounts.status, 'ACTIVE'),
          sql`${schemeCounts.expired_date} < ${p.today}`,
        ),
      )
      .prepare(name),
);

async function countedDue(
  db: Executor,
  scope: CompanyScope,
  range: { before?: string; through?: string; from?: string },
): Promise<number> {
  const [row] = (await dueCountOf(
    db,
    { scoped: scope !== ALL, before: !!range.before, through: !!range.through, from: !!range.from },
    { scope: scopeIds(scope), end: range.before ?? range.through ?? '', start: range.from ?? '' },
  )) as { n: number }[];
  return row?.n ?? 0;
}

async function expiredActive(db: Executor, scope: CompanyScope, today: string): Promise<number> {
  const [row] = (await expiredActiveOf(db, { scoped: scope !== ALL }, { scope: scopeIds(scope), today })) as {
    n: number;
  }[];
  return row?.n ?? 0;
}

/**
 * How many items match: from the counts when only the window and the scope filter (every window
 * takes the late items, among which the expired ACTIVE schemes' are taken off); otherwise the rows
 * counted up to COUNT_LIMIT (a larger count answers a capped total).
 */
export async function scheduleCount(db: Executor, f: ScheduleFilter): Promise<number> {
  if (!f.query.search && !f.query.certification.length) {
    const [due, expired] = await Promise.all([
      countedDue(db, f.scope, windowEnd(f.query.window, f.today)),
      expiredActive(db, f.scope, f.today),
    ]);
    return Math.max(0, due - expired);
  }
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
 * The dashboard card: items late, and items due from today through 30 days, in the scope; sums of
 * the counts per due date (a few rows per day of the range), the expired ACTIVE schemes taken off
 * the late ones.
 */
export async function dueSummary(db: Executor, scope: CompanyScope, today: string): Promise<AuditDueSummary> {
  const [late, expired, soon] = await Promise.all([
    countedDue(db, scope, { before: today }),
    expiredActive(db, scope, today),
    countedDue(db, scope, { from: today, through: addDays(today, CYCLE_RULES.soonDays) }),
  ]);
  return { late: Math.max(0, late - expired), soon };
}
