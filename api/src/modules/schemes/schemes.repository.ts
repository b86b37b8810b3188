import { and, eq, inArray } from 'drizzle-orm';
import {
  ALL,
  type CompanyScope,
  daysBetween,
  effectiveStatus,
  type Scheme,
  type SchemeStatus,
  toFlag,
  type ValidForType,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { accreditationBodies, certificationTypes, clientCertificates, schemes } from '../../db/schema';
import { preparedShapes } from '../../db/prepared';
import { isAnyOf, scopeIds } from '../../lib/list';

export type SchemeRow = typeof schemes.$inferSelect;

/** A scheme with what its answer reads from the rows it points at. */
export interface SchemeJoined {
  scheme: SchemeRow;
  client: { name: string; certificate_number: string };
  cert_name: string;
  accredited: string | null;
}

/**
 * A scheme as the API answers it (schemeSchema). `today` is the deployment's calendar date
 * (the app clock's `today()`): the derived EXPIRED, the overdue surveillance and the days left
 * depend on it and are never stored.
 */
export function toSchemeDto(j: SchemeJoined, today: string): Scheme {
  const s = j.scheme;
  const status = s.status as SchemeStatus;
  const effective = effectiveStatus(status, s.expired_date, today);
  const active = effective === 'ACTIVE';
  return {
    id: s.id,
    company_id: s.company_id,
    certificate_id: s.certificate_id,
    certificate_number: j.client.certificate_number,
    client_name: j.client.name,
    certification_id: s.certification_id,
    cert_name: j.cert_name,
    accredited_id: s.accredited_id,
    accredited: j.accredited,
    cert_number: s.cert_number ?? '',
    status,
    effective_status: effective,
    issue_date: s.issue_date,
    original_issue_date: s.original_issue_date,
    issue_date2: s.issue_date2,
    valid_for: s.valid_for,
    valid_for_type: s.valid_for_type as ValidForType,
    valid_date: s.valid_date,
    expired_date: s.expired_date,
    surveillance_date: s.surveillance_date,
    decision_date: s.decision_date,
    surveillance_overdue: active && s.surveillance_date !== null && s.surveillance_date < today,
    days_left: active ? daysBetween(today, s.expired_date) : null,
    is_accredited: toFlag(s.is_accredited),
    desc: s.description,
    scope: s.scope,
    sector_codes: s.sector_codes ?? [],
    sites: (s.sites ?? []).map((site) => ({ site_id: site.site_id, scope: site.scope ?? null })),
    revision: s.revision,
    qrcode: s.qrcode,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

const schemeFields = {
  scheme: schemes,
  client: { name: clientCertificates.name, certificate_number: clientCertificates.certificate_number },
  cert_name: certificationTypes.name,
  accredited: accreditationBodies.name,
};

const schemeById = preparedShapes('scheme.by-id', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select(schemeFields)
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .leftJoin(accreditationBodies, eq(accreditationBodies.id, schemes.accredited_id))
    .where(and(eq(schemes.id, p.id), on.scoped ? isAnyOf(schemes.company_id, p.scope) : undefined))
    .limit(1)
    .prepare(name),
);

/** A scheme as answered, or null when absent or outside the scope. */
export async function findScheme(
  db: Executor,
  id: string,
  scope: CompanyScope,
  today: string,
): Promise<Scheme | null> {
  const [row] = await schemeById(db, { scoped: scope !== ALL }, { id, scope: scopeIds(scope) });
  return row ? toSchemeDto(row, today) : null;
}

const schemeRowById = preparedShapes('scheme.row-by-id', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select()
    .from(schemes)
    .where(and(eq(schemes.id, p.id), on.scoped ? isAnyOf(schemes.company_id, p.scope) : undefined))
    .limit(1)
    .prepare(name),
);

/** The stored scheme, or undefined when absent or outside the scope. */
export async function findSchemeRow(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<SchemeRow | undefined> {
  const [row] = await schemeRowById(db, { scoped: scope !== ALL }, { id, scope: scopeIds(scope) });
  return row;
}

/** The schemes of `ids` as answered (scope ALL: a write's own), by id; one query for many. */
export async function findSchemes(
  db: Executor,
  ids: readonly string[],
  today: string,
): Promise<Map<string, Scheme>> {
  const rows = await db
    .select(schemeFields)
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .leftJoin(accreditationBodies, eq(accreditationBodies.id, schemes.accredited_id))
    .where(inArray(schemes.id, [...ids]));
  return new Map(rows.map((r) => [r.scheme.id, toSchemeDto(r, today)]));
}

/** The stored rows of the schemes `ids` within the scope, by id; one query for many. */
export async function findSchemeRows(
  db: Executor,
  ids: readonly string[],
  scope: CompanyScope,
): Promise<Map<string, SchemeRow>> {
  const rows = await db
    .select()
    .from(schemes)
    .where(
      and(inArray(schemes.id, [...ids]), scope === ALL ? undefined : inArray(schemes.company_id, scope)),
    );
  return new Map(rows.map((r) => [r.id, r]));
}

/** A client a scheme is written under: its company, and what a scheme's answer shows of it. */
export interface ClientRef {
  id: string;
  company_id: string;
  name: string;
  certificate_number: string;
}

/** The clients `ids` within the scope, by id; one query for many. */
export async function findClientRefs(
  db: Executor,
  ids: readonly string[],
  scope: CompanyScope,
): Promise<Map<string, ClientRef>> {
  const rows = await db
    .select({
      id: clientCertificates.id,
      company_id: clientCertificates.company_id,
      name: clientCertificates.name,
      certificate_number: clientCertificates.certificate_number,
    })
    .from(clientCertificates)
    .where(
      and(
        inArray(clientCertificates.id, [...new Set(ids)]),
        scope === ALL ? undefined : inArray(clientCertificates.company_id, scope),
      ),
    );
  return new Map(rows.map((r) => [r.id, r]));
}

/** A certification type or accreditation body a scheme names: its company and name. */
export interface NamedRef {
  company_id: string;
  name: string;
}

/** The certification types `ids` that exist, by id (one query for many). */
export async function typeRefs(db: Executor, ids: readonly string[]): Promise<Map<string, NamedRef>> {
  const rows = await db
    .select({
      id: certificationTypes.id,
      company_id: certificationTypes.company_id,
      name: certificationTypes.name,
    })
    .from(certificationTypes)
    .where(inArray(certificationTypes.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { company_id: r.company_id, name: r.name }]));
}

/** The company of each of the certification types `ids` that exist (one query for many). */
export async function typeOwners(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  return new Map([...(await typeRefs(db, ids))].map(([id, ref]) => [id, ref.company_id]));
}

/** The accreditation bodies `ids` that exist, by id (one query for many). */
export async function bodyRefs(db: Executor, ids: readonly string[]): Promise<Map<string, NamedRef>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: accreditationBodies.id,
      company_id: accreditationBodies.company_id,
      name: accreditationBodies.name,
    })
    .from(accreditationBodies)
    .where(inArray(accreditationBodies.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { company_id: r.company_id, name: r.name }]));
}
