import { and, asc, between, count, eq, gte, sql } from 'drizzle-orm';
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
  clientCertificates,
  companies,
  schemes,
  trainingCertificates,
} from '../../db/schema';
import { type Placeholders, preparedShapes } from '../../db/prepared';
import { isAnyOf } from '../../lib/list';

/**
 * The dashboard's queries (DECISIONS.md section 9), prepared once per database: each has two
 * shapes, scoped (a list of company ids, `company_id = any($scope)`, served by the
 * `(company_id, ...)` indexes) and unscoped (ALL for a caller whose scope is ALL). "Today" is
 * always a parameter (the deployment's time zone, not the database's).
 */

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

/**
 * Clients with at least one ACTIVE, unexpired scheme: the distinct clients grouped first (a hash
 * aggregate), then counted; count(distinct) would sort them all.
 */
const certifiedClients = preparedShapes(
  'dashboard.certified-clients',
  ['scoped'],
  ['scope', 'today'],
  (db, p, on, name) => {
    const clients = db
      .select({ id: schemes.certificate_id })
      .from(schemes)
      .where(
        and(schemeScope(p, on), eq(schemes.status, 'ACTIVE'), gte(schemes.expired_date, sql`${p.today}`)),
      )
      .groupBy(schemes.certificate_id)
      .as('certified');
    return db.select({ total: count() }).from(clients).prepare(name);
  },
);

/** Training certificates, and the distinct persons among them (name trimmed, ignoring case), likewise. */
const trainingTotals = preparedShapes(
  'dashboard.training-totals',
  ['scoped'],
  ['scope'],
  (db, p, on, name) => {
    const persons = db
      .select({
        person: sql<string>`lower(trim(${trainingCertificates.name}))`.as('person'),
        n: count().as('n'),
      })
      .from(trainingCertificates)
      .where(trainingScope(p, on))
      .groupBy(sql`1`)
      .as('persons');
    return db
      .select({ total: sql<number>`coalesce(sum(${persons.n}), 0)`.mapWith(Number), persons: count() })
      .from(persons)
      .prepare(name);
  },
);

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
  (db, p, on, name) => db.select({ total: count() }).from(schemes).where(expiringWhere(p, on)).prepare(name),
);

/**
 * The companies a scope covers, as a list even for ALL: every dashboard query then starts from a
 * `(company_id, ...)` index (a few companies), instead of reading every scheme of the database.
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
  const ids = await companyList(db, scope);
  if (ids.length === 0) return emptyTotals();
  const on = { scoped: true };
  const values = { scope: ids, today: dates.today };
  const month = { scope: ids, from: dates.monthStart, to: dates.monthEnd };
  const [byStatus, certified, training, expiring, expiringTotal] = await Promise.all([
    schemesByStatus(db, on, values),
    certifiedClients(db, on, values),
    trainingTotals(db, on, { scope: ids }),
    expiringSchemes(db, on, { ...month, limit: EXPIRING_LIST_LIMIT }),
    expiringCount(db, on, month),
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
  const ids = await companyList(db, scope);
  if (ids.length === 0) return [];
  const rows = await schemesPerDay(
    db,
    { scoped: true },
    {
      scope: ids,
      from: range.start,
      to: range.end,
      statuses: [...statuses],
    },
  );
  return rows.map((r) => ({ day: r.day, total: Number(r.total) }));
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
