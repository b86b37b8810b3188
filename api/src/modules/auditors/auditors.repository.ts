/**
 * Reads of the auditor register (docs/rules.md#auditors-and-planned-audits): an auditor as the API
 * answers it (with its qualifications and conflicts, their type and client named), the list, and
 * what the planned audits' team rules read of auditors.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import {
  type Auditor,
  type AuditorListQuery,
  type CompanyScope,
  type ListResponse,
  toFlag,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  auditorConflicts,
  auditorQualifications,
  auditors,
  certificationTypes,
  clientCertificates,
  companies,
} from '../../db/schema';
import { inCompanies, listPage, searchAny } from '../../lib/list';

export type AuditorRow = typeof auditors.$inferSelect;

/** The stored rows of some auditors, by id (for the after-write steps). */
export async function auditorRows(db: Executor, ids: readonly string[]): Promise<Map<string, AuditorRow>> {
  const rows = ids.length
    ? await db
        .select()
        .from(auditors)
        .where(inArray(auditors.id, [...ids]))
    : [];
  return new Map(rows.map((r) => [r.id, r]));
}

/** The children of some auditors, by auditor id, in the order written. */
async function childrenOf(db: Executor, ids: readonly string[]) {
  const qualifications = ids.length
    ? await db
        .select({ q: auditorQualifications, certification: certificationTypes.name })
        .from(auditorQualifications)
        .innerJoin(certificationTypes, eq(certificationTypes.id, auditorQualifications.certification_id))
        .where(inArray(auditorQualifications.auditor_id, [...ids]))
        .orderBy(asc(auditorQualifications.position))
    : [];
  const conflicts = ids.length
    ? await db
        .select({ c: auditorConflicts, client: clientCertificates.name })
        .from(auditorConflicts)
        .innerJoin(clientCertificates, eq(clientCertificates.id, auditorConflicts.client_id))
        .where(inArray(auditorConflicts.auditor_id, [...ids]))
        .orderBy(asc(auditorConflicts.position))
    : [];
  return { qualifications, conflicts };
}

/** Auditors as the API answers them, in the order of `rows`. */
async function toAuditors(db: Executor, rows: { a: AuditorRow; company: string }[]): Promise<Auditor[]> {
  const { qualifications, conflicts } = await childrenOf(
    db,
    rows.map((r) => r.a.id),
  );
  return rows.map(({ a, company }) => ({
    id: a.id,
    company_id: a.company_id,
    company: { id: a.company_id, name: company },
    name: a.name,
    email: a.email,
    phone: a.phone,
    employment: a.employment,
    active: toFlag(a.active),
    qualifications: qualifications
      .filter((r) => r.q.auditor_id === a.id)
      .map(({ q, certification }) => ({
        certification_id: q.certification_id,
        certification,
        role: q.role,
        sector_codes: q.sector_codes,
        valid_from: q.valid_from,
        valid_until: q.valid_until,
      })),
    conflicts: conflicts
      .filter((r) => r.c.auditor_id === a.id)
      .map(({ c, client }) => ({ client_id: c.client_id, client, reason: c.reason, until: c.until })),
    created_at: a.created_at.toISOString(),
    updated_at: a.updated_at.toISOString(),
  }));
}

const selection = { a: auditors, company: companies.name };

/** An auditor in `scope`, or undefined (absent or outside it: 404). */
export async function findAuditor(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<Auditor | undefined> {
  const rows = await db
    .select(selection)
    .from(auditors)
    .innerJoin(companies, eq(companies.id, auditors.company_id))
    .where(and(eq(auditors.id, id), inCompanies(auditors.company_id, scope)));
  return (await toAuditors(db, rows))[0];
}

/** The auditors of the companies in `scope`, by name; `active` filters. */
export async function listAuditors(
  db: Executor,
  query: AuditorListQuery,
  scope: CompanyScope,
): Promise<ListResponse<Auditor>> {
  const where = and(
    inCompanies(auditors.company_id, scope),
    searchAny(query.search, [auditors.name, auditors.email]),
    query.active ? eq(auditors.active, query.active === 'true') : undefined,
  );
  return listPage(
    query,
    async () => (await db.select({ n: count() }).from(auditors).where(where))[0]?.n ?? 0,
    async (limit, offset) =>
      toAuditors(
        db,
        await db
          .select(selection)
          .from(auditors)
          .innerJoin(companies, eq(companies.id, auditors.company_id))
          .where(where)
          .orderBy(sql`lower(${auditors.name})`, auditors.id)
          .limit(limit)
          .offset(offset),
      ),
  );
}
