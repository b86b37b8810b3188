import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ALL, type ClientSite, type CompanyScope } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { clientCertificates, clientSites, schemes } from '../../db/schema';

export type ClientSiteRow = typeof clientSites.$inferSelect;

/** A site as the API answers it (clientSiteSchema). */
export const toClientSiteDto = (row: ClientSiteRow): ClientSite => ({
  id: row.id,
  client_id: row.client_id,
  company_id: row.company_id,
  name: row.name,
  address: row.address,
  city: row.city,
  province: row.province,
  postcode: row.postcode,
  country: row.country,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const inScope = (
  column: typeof clientSites.company_id | typeof clientCertificates.company_id,
  scope: CompanyScope,
) => (scope === ALL ? undefined : scope.length ? inArray(column, [...scope]) : sql`false`);

/** The client `id` within the scope (its id and company), or undefined. */
export async function findClientInScope(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<{ id: string; company_id: string } | undefined> {
  const [row] = await db
    .select({ id: clientCertificates.id, company_id: clientCertificates.company_id })
    .from(clientCertificates)
    .where(and(eq(clientCertificates.id, id), inScope(clientCertificates.company_id, scope)))
    .limit(1);
  return row;
}

/** The sites of a client (any scope: callers check the client's), by name. */
export async function sitesOfClient(db: Executor, clientId: string): Promise<ClientSite[]> {
  const rows = await db
    .select()
    .from(clientSites)
    .where(eq(clientSites.client_id, clientId))
    .orderBy(asc(sql`lower(${clientSites.name})`), asc(clientSites.id));
  return rows.map(toClientSiteDto);
}

/** The stored site `id` within the scope, or undefined; `lock` takes its row lock until the transaction ends. */
export async function findSiteRow(
  db: Executor,
  id: string,
  scope: CompanyScope,
  lock = false,
): Promise<ClientSiteRow | undefined> {
  const query = db
    .select()
    .from(clientSites)
    .where(and(eq(clientSites.id, id), inScope(clientSites.company_id, scope)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** True when a scheme of the site's client covers the site (docs/rules.md#register-data). */
export async function siteCovered(db: Executor, site: ClientSiteRow): Promise<boolean> {
  const rows = await db
    .select({ x: sql`1` })
    .from(schemes)
    .where(
      and(
        eq(schemes.certificate_id, site.client_id),
        sql`${schemes.sites} @> ${JSON.stringify([{ site_id: site.id }])}::jsonb`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
