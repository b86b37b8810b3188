import { type AnyColumn, and, asc, between, count, eq, gt, gte, lt, sql } from 'drizzle-orm';
import {
  ALL,
  type CompanyScope,
  type DashboardTotals,
  EFFECTIVE_STATUSES,
  type EffectiveStatus,
  EXPIRING_LIST_LIMIT,
  type ExpiringScheme,
  type SchemeStatus,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  certificationTypes,
  certifiedClientCounts,
  clientCertificates,
  companies,
  registerTotals,
  schemeCounts,
  schemeStatusCounts,
  schemeIssueCounts,
  schemes,
  TRAINING_PERSONS,
  trainingCertificates,
  trainingCounts,
  trainingPersonCounts,
} from '../../db/schema';
import { type Placeholders, preparedShapes } from '../../db/prepared';
import { isAnyOf, scopeIds } from '../../lib/list';

/**
 * The dashboard's queries (docs/rules.md#dashboard-and-reports), prepared once per database: each has two
 * shapes, scoped (a list of company ids, `company_id = any($scope)`, served by the
 * `(company_id, ...)` indexes) and unscoped (ALL for a caller whose scope is ALL). "Today" is
 * always a parameter (the deployment's time zone, not the database's).
 */

const schemeScope = (p: Placeholders<'scope'>, on: { scoped: boolean }) =>
  on.scoped ? isAnyOf(schemes.company_id, p.scope) : undefined;
const trainingScope = (p: Placeholders<'scope'>, on: { scoped: boolean }) =>
  on.scoped ? isAnyOf(trainingCertificates.company_id, p.scope) : undefined;

/**
 * The figures come from the register counts (services/register-counts.ts), kept by every write:
 * a few rows per company and date, never every scheme. EXPIRED is the ACTIVE count dated before
 * today; "today" is a parameter, so a day passing changes the sum, not a stored row.
 */
const countScope = <
  T extends
    typeof schemeCounts | typeof schemeStatusCounts | typeof certifiedClientCounts | typeof trainingCounts,
>(
  table: T,
  p: Placeholders<'scope'>,
  on: { scoped: boolean },
) => (on.scoped ? isAnyOf(table.company_id, p.scope) : undefined);

const total = (n: AnyColumn) => sql<number>`coalesce(sum(${n}), 0)`.mapWith(Number);

/** Schemes per stored status: a few rows per company (every expiry date together). */
const schemesByStatus = preparedShapes(
  'dashboard.schemes-by-status',
  ['scoped'],
  ['scope'],
  (db, p, on, name) =>
    db
      .select({ status: schemeStatusCounts.status, total: total(schemeStatusCounts.n) })
      .from(schemeStatusCounts)
      .where(countScope(schemeStatusCounts, p, on))
      .groupBy(schemeStatusCounts.status)
      .prepare(name),
);

/**
 * EXPIRED: the schemes stored ACTIVE whose expiry is before today, a range of scheme_counts (its
 * key for a company, its status and expiry index for ALL); the dashboard shows them apart from ACTIVE.
 */
const expiredSchemes = preparedShapes(
  'dashboard.schemes-expired',
  ['scoped'],
  ['scope', 'today'],
  (db, p, on, name) =>
    db
      .select({ total: total(schemeCounts.n) })
      .from(schemeCounts)
      .where(
        and(
          countScope(schemeCounts, p, on),
          eq(schemeCounts.status, 'ACTIVE'),
          lt(schemeCounts.expired_date, sql`${p.today}`),
        ),
      )
      .prepare(name),
);

/** Clients with at least one ACTIVE, unexpired scheme: those certified until today or later. */
const certifiedClients = preparedShapes(
  'dashboard.certified-clients',
  ['scoped'],
  ['scope', 'today'],
  (db, p, on, name) =>
    db
      .select({ total: total(certifiedClientCounts.n) })
      .from(certifiedClientCounts)
      .where(and(countScope(certifiedClientCounts, p, on), gte(certifiedClientCounts.until, sql`${p.today}`)))
      .prepare(name),
);

/** Training certificates of the companies in scope, and their distinct persons when one company. */
const trainingTotals = preparedShapes('dashboard.training-totals', ['scoped'], ['scope'], (db, p, on, name) =>
  db
    .select({ total: total(trainingCounts.certificates), persons: total(trainingCounts.persons) })
    .from(trainingCounts)
    .where(countScope(trainingCounts, p, on))
    .prepare(name),
);

/** Distinct persons over every company (a person trained by two companies counts once). */
const personsOverall = preparedShapes('dashboard.training-persons', [], ['name'], (db, p, _on, name) =>
  db
    .select({ n: registerTotals.n })
    .from(registerTotals)
    .where(eq(registerTotals.name, p.name))
    .prepare(name),
);

/** Distinct persons over several companies (not ALL): one pass over their persons. */
const personsAcross = preparedShapes('dashboard.training-persons-across', [], ['scope'], (db, p, _on, name) =>
  db
    .select({ n: sql<number>`count(distinct ${trainingPersonCounts.person})`.mapWith(Number) })
    .from(trainingPersonCounts)
    .where(and(isAnyOf(trainingPersonCounts.company_id, p.scope), gt(trainingPersonCounts.n, 0)))
    .prepare(name),
);

async function trainingFigures(
  db: Executor,
  scope: CompanyScope,
): Promise<{ total: number; persons: number }> {
  const on = { scoped: scope !== ALL };
  const [row] = await trainingTotals(db, on, { scope: scopeIds(scope) });
  const totals = { total: row?.total ?? 0, persons: row?.persons ?? 0 };
  if (scope === ALL) {
    const [all] = await personsOverall(db, {}, { name: TRAINING_PERSONS });
    return { ...totals, persons: all?.n ?? 0 };
  }
  if (scope.length > 1) {
    const [across] = await personsAcross(db, {}, { scope });
    return { ...totals, persons: across?.n ?? 0 };
  }
  return totals;
}

const expiringWhere = (p: Placeholders<'scope' | 'from' | 'to'>, on: { scoped: boolean }) =>
  and(
    schemeScope(p, on),
    eq(schemes.status, 'ACTIVE'),
    between(schemes.expired_date, sql`${p.from}`, sql`${p.to}`),
  );

/**
 * Schemes stored ACTIVE expiring within [from, to], soonest first: the first `limit` are chosen on
 * the schemes alone ((company_id, expired_date) index), and only those are joined to their client
 * and type.
 */
const expiringSchemes = preparedShapes(
  'dashboard.expiring',
  ['scoped'],
  ['scope', 'from', 'to', 'limit'],
  (db, p, on, name) => {
    const soonest = db
      .select({
        id: schemes.id,
        company_id: schemes.company_id,
        certificate_id: schemes.certificate_id,
        certification_id: schemes.certification_id,
        cert_number: schemes.cert_number,
        expired_date: schemes.expired_date,
      })
      .from(schemes)
      .where(expiringWhere(p, on))
      .orderBy(asc(schemes.expired_date), asc(schemes.id))
      .limit(p.limit)
      .as('soonest');
    return db
      .select({
        id: soonest.id,
        company_id: soonest.company_id,
        cert_name: certificationTypes.name,
        cert_number: soonest.cert_number,
        expired_date: soonest.expired_date,
        profile_id: clientCertificates.id,
        profile_name: clientCertificates.name,
        profile_logo: clientCertificates.logo,
      })
      .from(soonest)
      .innerJoin(clientCertificates, eq(clientCertificates.id, soonest.certificate_id))
      .innerJoin(certificationTypes, eq(certificationTypes.id, soonest.certification_id))
      .orderBy(asc(soonest.expired_date), asc(soonest.id))
      .prepare(name);
  },
);

const expiringCount = preparedShapes(
  'dashboard.expiring-count',
  ['scoped'],
  ['scope', 'from', 'to'],
  (db, p, on, name) =>
    db
      .select({ total: total(schemeCounts.n) })
      .from(schemeCounts)
      .where(
        and(
          countScope(schemeCounts, p, on),
          eq(schemeCounts.status, 'ACTIVE'),
          between(schemeCounts.expired_date, sql`${p.from}`, sql`${p.to}`),
        ),
      )
      .prepare(name),
);

/**
 * The companies a scope covers, as a list even for ALL: the training chart then starts from the
 * `(company_id, date)` index (a few companies), instead of reading every certificate. (The
 * figures read the register counts and the expiring list its partial index, without it.)
 */
const allCompanyIds = preparedShapes('dashboard.all-company-ids', [], [], (db, _p, _on, name) =>
  db.select({ id: companies.id }).from(companies).prepare(name),
);
async function companyList(db: Executor, scope: CompanyScope): Promise<string[]> {
  if (scope !== ALL) return scope;
  return (await allCompanyIds(db, {}, {})).map((r) => r.id);
}

export interface MonthRange {
  /** Today, `YYYY-MM-DD` in the deployment's time zone. */
  today: string;
  /** First and last day of today's month. */
  monthStart: string;
  monthEnd: string;
}

export async function dashboardTotals(
  db: Executor,
  scope: CompanyScope,
  dates: MonthRange,
): Promise<DashboardTotals> {
  if (scope !== ALL && scope.length === 0) return emptyTotals();
  // The counts: over every company at once for ALL (a few rows a date), else the scope's.
  const counts = { scoped: scope !== ALL };
  const ids = scopeIds(scope);
  const values = { scope: ids, today: dates.today };
  const month = { from: dates.monthStart, to: dates.monthEnd };
  const [byStatus, expired, certified, training, expiring, expiringTotal] = await Promise.all([
    schemesByStatus(db, counts, { scope: ids }),
    expiredSchemes(db, counts, values),
    certifiedClients(db, counts, values),
    trainingFigures(db, scope),
    // ALL: the soonest ACTIVE expiries straight from schemes_active_expiry_idx, no company filter.
    expiringSchemes(db, counts, { ...month, scope: ids, limit: EXPIRING_LIST_LIMIT }),
    expiringCount(db, counts, { ...month, scope: ids }),
  ]);
  const totals = new Map(byStatus.map((r) => [r.status, Number(r.total)]));
  // EXPIRED is counted apart from the ACTIVE rows it is stored among.
  const expiredTotal = Number(expired[0]?.total ?? 0);
  totals.set('EXPIRED', expiredTotal);
  totals.set('ACTIVE', (totals.get('ACTIVE') ?? 0) - expiredTotal);
  const bystatus = EFFECTIVE_STATUSES.map((status) => ({ status, total: totals.get(status) ?? 0 }));
  const list: ExpiringScheme[] = expiring.map((r) => ({
    id: r.id,
    company_id: r.company_id,
    cert_name: r.cert_name,
    cert_number: r.cert_number,
    expired_date: r.expired_date,
    status: (r.expired_date < dates.today ? 'EXPIRED' : 'ACTIVE') satisfies EffectiveStatus,
    profile: { id: r.profile_id, name: r.profile_name, logo: r.profile_logo },
  }));
  return {
    company_certificate: Number(certified[0]?.total ?? 0),
    company_certificate_total: bystatus.reduce((sum, r) => sum + r.total, 0),
    training_certificate: training.persons,
    training_certificate_total: training.total,
    company_certificate_scheme_bystatus: bystatus,
    company_certificate_expired_in_amonth: list,
    company_certificate_expired_in_amonth_total: Number(expiringTotal[0]?.total ?? 0),
  };
}

function emptyTotals(): DashboardTotals {
  return {
    company_certificate: 0,
    company_certificate_total: 0,
    training_certificate: 0,
    training_certificate_total: 0,
    company_certificate_scheme_bystatus: EFFECTIVE_STATUSES.map((status) => ({ status, total: 0 })),
    company_certificate_expired_in_amonth: [],
    company_certificate_expired_in_amonth_total: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Charts: counts per day in SQL (schemes by issue_date, training by date); the buckets (day, month,
// year) and the zeros are made by the caller, so one statement serves every granularity.
// ---------------------------------------------------------------------------------------------

/** Schemes issued per day, from the register counts (a few rows a day and company, not every scheme). */
const schemesPerDay = preparedShapes(
  'dashboard.schemes-per-day',
  ['scoped'],
  ['scope', 'from', 'to', 'statuses'],
  (db, p, on, name) =>
    db
      .select({ day: schemeIssueCounts.issue_date, total: total(schemeIssueCounts.n) })
      .from(schemeIssueCounts)
      .where(
        and(
          on.scoped ? isAnyOf(schemeIssueCounts.company_id, p.scope) : undefined,
          between(schemeIssueCounts.issue_date, sql`${p.from}`, sql`${p.to}`),
          isAnyOf(schemeIssueCounts.status, p.statuses),
        ),
      )
      .groupBy(schemeIssueCounts.issue_date)
      .prepare(name),
);

const trainingPerDay = preparedShapes(
  'dashboard.training-per-day',
  ['scoped'],
  ['scope', 'from', 'to'],
  (db, p, on, name) =>
    db
      .select({ day: trainingCertificates.date, total: count() })
      .from(trainingCertificates)
      .where(and(trainingScope(p, on), between(trainingCertificates.date, sql`${p.from}`, sql`${p.to}`)))
      .groupBy(trainingCertificates.date)
      .prepare(name),
);

export interface DayCount {
  day: string;
  total: number;
}

export async function schemeIssuesPerDay(
  db: Executor,
  scope: CompanyScope,
  range: { start: string; end: string },
  statuses: readonly SchemeStatus[],
): Promise<DayCount[]> {
  if (scope !== ALL && scope.length === 0) return [];
  const rows = await schemesPerDay(
    db,
    { scoped: scope !== ALL },
    {
      scope: scopeIds(scope),
      from: range.start,
      to: range.end,
      statuses: [...statuses],
    },
  );
  return rows.filter((r) => r.total > 0).map((r) => ({ day: r.day, total: r.total }));
}

export async function trainingsPerDay(
  db: Executor,
  scope: CompanyScope,
  range: { start: string; end: string },
): Promise<DayCount[]> {
  const ids = await companyList(db, scope);
  if (ids.length === 0) return [];
  const rows = await trainingPerDay(
    db,
    { scoped: true },
    {
      scope: ids,
      from: range.start,
      to: range.end,
    },
  );
  return rows.map((r) => ({ day: r.day, total: Number(r.total) }));
}
