import { type AnyColumn, and, between, count, sql } from 'drizzle-orm';
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

const trainingScope = (p: Placeholders<'scope'>, on: { scoped: boolean }) =>
  on.scoped ? isAnyOf(trainingCertificates.company_id, p.scope) : undefined;

const total = (n: AnyColumn) => sql<number>`coalesce(sum(${n}), 0)`.mapWith(Number);

/**
 * Every figure of the dashboard in one statement (one round trip, one pool connection; each figure
 * a scalar subquery over the register counts, the expiring list a JSON array): the figures come from
 * the register counts (services/register-counts.ts), kept by every write, a few rows per company and
 * date, never every scheme. EXPIRED is the ACTIVE count dated before today; "today" is a parameter,
 * so a day passing changes the sum, not a stored row. Shapes: `scoped` (a list of company ids,
 * served by the `(company_id, ...)` keys) or ALL; `across` (several companies: their distinct
 * persons counted, a person trained by two counts once) or one company (its stored persons), or ALL
 * (the stored total over every company).
 */
const totalsOf = preparedShapes(
  'dashboard.totals',
  ['scoped', 'across'],
  ['scope', 'today', 'from', 'to', 'limit', 'name'],
  (db, p, on, name) => {
    const scoped = (column: AnyColumn) => (on.scoped ? sql` and ${column} = any(${p.scope})` : sql``);
    const persons = !on.scoped
      ? sql`(select ${registerTotals.n} from ${registerTotals} where ${registerTotals.name} = ${p.name})`
      : on.across
        ? sql`(select count(distinct ${trainingPersonCounts.person}) from ${trainingPersonCounts}
            where ${trainingPersonCounts.n} > 0${scoped(trainingPersonCounts.company_id)})`
        : sql`(select sum(${trainingCounts.persons}) from ${trainingCounts} where true${scoped(trainingCounts.company_id)})`;
    // The soonest ACTIVE expiries of the month are chosen on the schemes alone (for ALL straight from
    // schemes_active_expiry_idx), and only those are joined to their client and type.
    // Each row a JSON array (the order of ExpiringRow), not an object: no key names repeated per row
    // for the driver to receive and parse.
    const expiring = sql`(select coalesce(json_agg(json_build_array(e.id, e.company_id, e.cert_name,
        e.cert_number, e.expired_date, e.profile_id, e.profile_name, e.profile_logo)
        order by e.expired_date, e.id), '[]') from (
        select s.id, s.company_id, ${certificationTypes.name} as cert_name, s.cert_number, s.expired_date,
          ${clientCertificates.id} as profile_id, ${clientCertificates.name} as profile_name,
          ${clientCertificates.logo} as profile_logo
        from (select ${schemes.id} as id, ${schemes.company_id} as company_id,
            ${schemes.certificate_id} as certificate_id, ${schemes.certification_id} as certification_id,
            ${schemes.cert_number} as cert_number, ${schemes.expired_date} as expired_date
          from ${schemes}
          where ${schemes.status} = 'ACTIVE' and ${schemes.expired_date} between ${p.from} and ${p.to}${scoped(schemes.company_id)}
          order by ${schemes.expired_date}, ${schemes.id} limit ${p.limit}) s
        join ${clientCertificates} on ${clientCertificates.id} = s.certificate_id
        join ${certificationTypes} on ${certificationTypes.id} = s.certification_id) e)`;
    return db
      .select({
        byStatus: sql<
          [string, number][]
        >`(select coalesce(json_agg(json_build_array(b.status, b.n)), '[]') from (
            select ${schemeStatusCounts.status} as status, sum(${schemeStatusCounts.n}) as n from ${schemeStatusCounts}
            where true${scoped(schemeStatusCounts.company_id)} group by ${schemeStatusCounts.status}) b)`,
        expired: sql<string | null>`(select sum(${schemeCounts.n}) from ${schemeCounts}
          where ${schemeCounts.status} = 'ACTIVE' and ${schemeCounts.expired_date} < ${p.today}${scoped(schemeCounts.company_id)})`,
        certified: sql<string | null>`(select sum(${certifiedClientCounts.n}) from ${certifiedClientCounts}
          where ${certifiedClientCounts.until} >= ${p.today}${scoped(certifiedClientCounts.company_id)})`,
        trainings: sql<string | null>`(select sum(${trainingCounts.certificates}) from ${trainingCounts}
          where true${scoped(trainingCounts.company_id)})`,
        persons: sql<string | number | null>`${persons}`,
        expiring: sql<ExpiringRow[]>`${expiring}`,
        expiringTotal: sql<string | null>`(select sum(${schemeCounts.n}) from ${schemeCounts}
          where ${schemeCounts.status} = 'ACTIVE' and ${schemeCounts.expired_date} between ${p.from} and ${p.to}${scoped(schemeCounts.company_id)})`,
      })
      .from(sql`(select 1) as one`)
      .prepare(name);
  },
);

/** A scheme of the expiring list as the statement sends it: id, company, type, number, expiry, client id, name, logo. */
type ExpiringRow = [
  id: string,
  company_id: string,
  cert_name: string,
  cert_number: string | null,
  expired_date: string,
  profile_id: string,
  profile_name: string,
  profile_logo: string | null,
];

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
  const [row] = await totalsOf(
    db,
    { scoped: scope !== ALL, across: scope !== ALL && scope.length > 1 },
    {
      scope: scopeIds(scope),
      today: dates.today,
      from: dates.monthStart,
      to: dates.monthEnd,
      limit: EXPIRING_LIST_LIMIT,
      name: TRAINING_PERSONS,
    },
  );
  if (!row) return emptyTotals();
  const totals = new Map(row.byStatus.map(([status, n]) => [status, Number(n)]));
  // EXPIRED is counted apart from the ACTIVE rows it is stored among.
  const expiredTotal = Number(row.expired ?? 0);
  totals.set('EXPIRED', expiredTotal);
  totals.set('ACTIVE', (totals.get('ACTIVE') ?? 0) - expiredTotal);
  const bystatus = EFFECTIVE_STATUSES.map((status) => ({ status, total: totals.get(status) ?? 0 }));
  const list: ExpiringScheme[] = row.expiring.map(
    ([id, companyId, certName, certNumber, expiredDate, profileId, profileName, profileLogo]) => ({
      id,
      company_id: companyId,
      cert_name: certName,
      cert_number: certNumber,
      expired_date: expiredDate,
      status: (expiredDate < dates.today ? 'EXPIRED' : 'ACTIVE') satisfies EffectiveStatus,
      profile: { id: profileId, name: profileName, logo: profileLogo },
    }),
  );
  return {
    company_certificate: Number(row.certified ?? 0),
    company_certificate_total: bystatus.reduce((sum, r) => sum + r.total, 0),
    training_certificate: Number(row.persons ?? 0),
    training_certificate_total: Number(row.trainings ?? 0),
    company_certificate_scheme_bystatus: bystatus,
    company_certificate_expired_in_amonth: list,
    company_certificate_expired_in_amonth_total: Number(row.expiringTotal ?? 0),
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
