import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { ALL, type Company, type CompanyScope, type ListQuery, toFlag } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  accreditationBodies,
  certificationTypes,
  clientCertificates,
  companies,
  schemes,
  trainingCertificates,
  trainingCounts,
  userCompanies,
} from '../../db/schema';
import { searchDocument } from '../../db/search';
import { type Placeholders, preparedShapes } from '../../db/prepared';
import { isAnyOf, likePattern, listPage, matchesPattern, scopeIds } from '../../lib/list';

type CompanyRow = typeof companies.$inferSelect;

/** Search looks in the visible columns (served by companies_search_idx). */
const companySearch = searchDocument([companies.name, companies.email, companies.phone, companies.website]);

/**
 * student_count is derived: the company's training certificates, as the register counts keep them
 * (services/register-counts.ts; one row a company, not a count per request). The outer table is
 * named explicitly: drizzle writes `${companies.id}` unqualified in a one-table select, which
 * inside the subquery would mean tc.company_id.
 */
const studentCount =
  sql<number>`coalesce((select tc.certificates from ${trainingCounts} tc where tc.company_id = ${companies}.id), 0)`.mapWith(
    Number,
  );

export function toCompanyDto(row: CompanyRow, students: number): Company {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    website: row.website,
    logo: row.logo,
    logo_cert: row.logo_cert,
    ttd_cert: row.ttd_cert,
    simple_dates: toFlag(row.simple_dates),
    public_certificate_download: toFlag(row.public_certificate_download),
    student_count: students,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The optional parts of the company queries: a scope filter (not ALL) and a search. */
const inScope = (p: Placeholders<'scope'>, on: { scoped: boolean }) =>
  on.scoped ? isAnyOf(companies.id, p.scope) : undefined;

const listWhere = (p: Placeholders<'scope' | 'pattern'>, on: { scoped: boolean; search: boolean }) =>
  and(inScope(p, on), on.search ? matchesPattern(companySearch, p.pattern) : undefined);

const countCompanies = preparedShapes(
  'company.count',
  ['scoped', 'search'],
  ['scope', 'pattern'],
  (db, p, on, name) => db.select({ n: count() }).from(companies).where(listWhere(p, on)).prepare(name),
);

const companyPage = preparedShapes(
  'company.page',
  ['scoped', 'search'],
  ['scope', 'pattern', 'limit', 'offset'],
  (db, p, on, name) =>
    db
      .select({ company: companies, students: studentCount })
      .from(companies)
      .where(listWhere(p, on))
      .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
);

export async function listCompanies(db: Executor, query: ListQuery, scope: CompanyScope) {
  const on = { scoped: scope !== ALL, search: !!query.search };
  const values = { scope: scopeIds(scope), pattern: likePattern(query.search) };
  return listPage(
    query,
    async () => (await countCompanies(db, on, values))[0]?.n ?? 0,
    async (limit, offset) =>
      (await companyPage(db, on, { ...values, limit, offset })).map((r) =>
        toCompanyDto(r.company, r.students),
      ),
  );
}

const companyById = preparedShapes('company.by-id', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select({ company: companies, students: studentCount })
    .from(companies)
    .where(and(eq(companies.id, p.id), inScope(p, on)))
    .limit(1)
    .prepare(name),
);

export async function findCompany(db: Executor, id: string, scope: CompanyScope): Promise<Company | null> {
  const [row] = await companyById(db, { scoped: scope !== ALL }, { id, scope: scopeIds(scope) });
  return row ? toCompanyDto(row.company, row.students) : null;
}

const companyRowById = preparedShapes('company.row-by-id', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select()
    .from(companies)
    .where(and(eq(companies.id, p.id), inScope(p, on)))
    .limit(1)
    .prepare(name),
);

export async function findCompanyRow(db: Executor, id: string, scope: CompanyScope) {
  const [row] = await companyRowById(db, { scoped: scope !== ALL }, { id, scope: scopeIds(scope) });
  return row;
}

const companyOptionRows = preparedShapes('company.options', ['scoped'], ['scope'], (db, p, on, name) =>
  db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(inScope(p, on))
    .orderBy(asc(sql`lower(${companies.name})`))
    .prepare(name),
);

/** `[{id, name}]` of the companies a scope may pick, by name. */
export async function companyOptions(db: Executor, scope: CompanyScope) {
  return companyOptionRows(db, { scoped: scope !== ALL }, { scope: scopeIds(scope) });
}

/** Ids among `ids` that are not companies. */
export async function missingCompanies(db: Executor, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const found = await db.select({ id: companies.id }).from(companies).where(inArray(companies.id, ids));
  const known = new Set(found.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

/** True when any record or user scope still refers to the company. */
export async function companyInUse(db: Executor, id: string): Promise<boolean> {
  const checks = [
    db
      .select({ x: sql`1` })
      .from(certificationTypes)
      .where(eq(certificationTypes.company_id, id))
      .limit(1),
    db
      .select({ x: sql`1` })
      .from(accreditationBodies)
      .where(eq(accreditationBodies.company_id, id))
      .limit(1),
    db
      .select({ x: sql`1` })
      .from(clientCertificates)
      .where(eq(clientCertificates.company_id, id))
      .limit(1),
    db
      .select({ x: sql`1` })
      .from(schemes)
      .where(eq(schemes.company_id, id))
      .limit(1),
    db
      .select({ x: sql`1` })
      .from(trainingCertificates)
      .where(eq(trainingCertificates.company_id, id))
      .limit(1),
    db
      .select({ x: sql`1` })
      .from(userCompanies)
      .where(eq(userCompanies.company_id, id))
      .limit(1),
  ];
  for (const check of checks) if ((await check).length) return true;
  return false;
}
