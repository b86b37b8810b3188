import { and, asc, between, count, countDistinct, eq, gte, sql } from 'drizzle-orm';
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
import { certificationTypes, clientCertificates, schemes, trainingCertificates } from '../../db/schema';
import { type Placeholders, preparedShapes } from '../../db/prepared';
import { isAnyOf } from '../../lib/list';

/**
 * The dashboard's queries (DECISIONS.md section 9), prepared once per database: each has two
 * shapes, scoped (a list of company ids, `company_id = any($scope)`, served by the
 * `(company_id, ...)` indexes) and unscoped (ALL for a caller whose scope is ALL). "Today" is
 * always a parameter (the deployment's time zone, not the database's).
 */

const scopeValue = (scope: CompanyScope): string[] => (scope === ALL ? [] : scope);
const shape = (scope: CompanyScope) => ({ scoped: scope !== ALL });

const schemeScope = (p: Placeholders<'scope'>, on: { scoped: boolean }) =>
  on.scoped ? isAnyOf(schemes.company_id, p.scope) : undefined;
const trainingScope = (p: Placeholders<'scope'>, on: { scoped: boolean }) =>
  on.scoped ? isAnyOf(trainingCertificates.company_id, p.scope) : undefined;

/** EXPIRED for an ACTIVE scheme past its expiry, else the stored status. */
const effectiveStatusSql = (today: unknown) =>
  sql<string>`case when ${schemes.status} = 'ACTIVE' and ${schemes.expired_date} < ${today} then 'EXPIRED' else ${schemes.status} end`;

const schemesByStatus = preparedShapes(
  'dashboard.schemes-by-status',
  ['scoped'],
  ['scope', 'today'],
  (db, p, on, name) =>
    db
      .select({ status: effectiveStatusSql(p.today), total: count() })
      .from(schemes)
      .where(schemeScope(p, on))
      .groupBy(sql`1`) // the status expression above (its parameter would not match a second copy)
      .prepare(name),
);

/** Clients with at least one ACTIVE, unexpired scheme. */
const certifiedClients = preparedShapes(
  'dashboard.certified-clients',
  ['scoped'],
  ['scope', 'today'],
  (db, p, on, name) =>
    db
      .select({ total: countDistinct(schemes.certificate_id) })
      .from(schemes)
      .where(
        and(schemeScope(p, on), eq(schemes.status, 'ACTIVE'), gte(schemes.expired_date, sql`${p.today}`)),
      )
      .prepare(name),
);

/** Training certificates and the distinct persons among them (name trimmed, ignoring case). */
const trainingTotals = preparedShapes('dashboard.training-totals', ['scoped'], ['scope'], (db, p, on, name) =>
  db
    .select({
      total: count(),
      persons: sql<number>`count(distinct lower(trim(${trainingCertificates.name})))`.mapWith(Number),
    })
    .from(trainingCertificates)
    .where(trainingScope(p, on))
    .prepare(name),
);

/** Schemes stored ACTIVE expiring within [from, to], soonest first, with how many there are in all. */
const expiringSchemes = preparedShapes(
  'dashboard.expiring',
  ['scoped'],
  ['scope', 'from', 'to', 'limit'],
  (db, p, on, name) =>
    db
      .select({
        id: schemes.id,
        company_id: schemes.company_id,
        cert_name: certificationTypes.name,
        cert_number: schemes.cert_number,
        expired_date: schemes.expired_date,
        profile_id: clientCertificates.id,
        profile_name: clientCertificates.name,
        profile_logo: clientCertificates.logo,
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(schemes)
      .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
      .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
      .where(
        and(
          schemeScope(p, on),
          eq(schemes.status, 'ACTIVE'),
          between(schemes.expired_date, sql`${p.from}`, sql`${p.to}`),
        ),
      )
      .orderBy(asc(schemes.expired_date), asc(clientCertificates.name), asc(schemes.id))
      .limit(p.limit)
      .prepare(name),
);

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
  const on = shape(scope);
  const values = { scope: scopeValue(scope), today: dates.today };
  const [byStatus, certified, training, expiring] = await Promise.all([
    schemesByStatus(db, on, values),
    certifiedClients(db, on, values),
    trainingTotals(db, on, { scope: values.scope }),
    expiringSchemes(db, on, {
      scope: values.scope,
      from: dates.monthStart,
      to: dates.monthEnd,
      limit: EXPIRING_LIST_LIMIT,
    }),
  ]);
  const totals = new Map(byStatus.map((r) => [r.status, Number(r.total)]));
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
    training_certificate: Number(training[0]?.persons ?? 0),
    training_certificate_total: Number(training[0]?.total ?? 0),
    company_certificate_scheme_bystatus: bystatus,
    company_certificate_expired_in_amonth: list,
    company_certificate_expired_in_amonth_total: expiring[0]?.total ?? 0,
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

const schemesPerDay = preparedShapes(
  'dashboard.schemes-per-day',
  ['scoped'],
  ['scope', 'from', 'to', 'statuses'],
  (db, p, on, name) =>
    db
      .select({ day: schemes.issue_date, total: count() })
      .from(schemes)
      .where(
        and(
          schemeScope(p, on),
          between(schemes.issue_date, sql`${p.from}`, sql`${p.to}`),
          isAnyOf(schemes.status, p.statuses),
        ),
      )
      .groupBy(schemes.issue_date)
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
  const rows = await schemesPerDay(db, shape(scope), {
    scope: scopeValue(scope),
    from: range.start,
    to: range.end,
    statuses: [...statuses],
  });
  return rows.map((r) => ({ day: r.day, total: Number(r.total) }));
}

export async function trainingsPerDay(
  db: Executor,
  scope: CompanyScope,
  range: { start: string; end: string },
): Promise<DayCount[]> {
  if (scope !== ALL && scope.length === 0) return [];
  const rows = await trainingPerDay(db, shape(scope), {
    scope: scopeValue(scope),
    from: range.start,
    to: range.end,
  });
  return rows.map((r) => ({ day: r.day, total: Number(r.total) }));
}
