import { and, asc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ALL, type CompanyScope, type LookupOption } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { accreditationBodies, certificationTypes, clientCertificates, companies } from '../../db/schema';
import { preparedShapes } from '../../db/prepared';
import { isAnyOf, scopeIds } from '../../lib/list';

type Owned = PgTable & { id: AnyPgColumn; company_id: AnyPgColumn; name: AnyPgColumn };

/** `[{id, name, company_id, company}]` of a company-owned table within a scope, in `order`. */
function options(key: string, table: Owned, order: ReturnType<typeof asc>[]) {
  const query = preparedShapes(`lookup.${key}`, ['scoped'], ['scope'], (db, p, on, name) =>
    db
      .select({
        id: table.id,
        name: table.name,
        company_id: table.company_id,
        company: { id: companies.id, name: companies.name },
      })
      .from(table as PgTable)
      .innerJoin(companies, eq(companies.id, table.company_id))
      .where(and(on.scoped ? isAnyOf(table.company_id, p.scope) : undefined))
      .orderBy(...order, asc(table.id))
      .prepare(name),
  );
  return async (db: Executor, scope: CompanyScope) =>
    (await query(db, { scoped: scope !== ALL }, { scope: scopeIds(scope) })) as LookupOption[];
}

export const certificationTypeOptions = options('certification', certificationTypes, [
  asc(certificationTypes.position),
  asc(sql`lower(${certificationTypes.name})`),
]);
export const accreditationBodyOptions = options('accredited', accreditationBodies, [
  asc(sql`lower(${accreditationBodies.name})`),
]);
export const clientCertificateOptions = options('company-certificate', clientCertificates, [
  asc(sql`lower(${clientCertificates.name})`),
]);
