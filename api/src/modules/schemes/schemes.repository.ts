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
import { accreditedBodies, certificationTypes, clientCertificates, schemes } from '../../db/schema';
import { preparedShapes, prepared } from '../../db/prepared';
import { isAnyOf } from '../../lib/list';

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
    issue_date2: s.issue_date2,
    valid_for: s.valid_for,
    valid_for_type: s.valid_for_type as ValidForType,
    valid_date: s.valid_date,
    expired_date: s.expired_date,
    surveillance_date: s.surveillance_date,
    surveillance_overdue: active && s.surveillance_date !== null && s.surveillance_date < today,
    days_left: active ? daysBetween(today, s.expired_date) : null,
    is_accredited: toFlag(s.is_accredited),
    desc: s.description,
    qrcode: s.qrcode,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

const scopeValue = (scope: CompanyScope) => (scope === ALL ? [] : scope);

const schemeFields = {
  scheme: schemes,
  client: { name: clientCertificates.name, certificate_number: clientCertificates.certificate_number },
  cert_name: certificationTypes.name,
  accredited: accreditedBodies.name,
};

const schemeById = preparedShapes('scheme.by-id', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select(schemeFields)
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .leftJoin(accreditedBodies, eq(accreditedBodies.id, schemes.accredited_id))
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
  const [row] = await schemeById(db, { scoped: scope !== ALL }, { id, scope: scopeValue(scope) });
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
  const [row] = await schemeRowById(db, { scoped: scope !== ALL }, { id, scope: scopeValue(scope) });
  return row;
}

const clientRefById = preparedShapes('scheme.client', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select({ id: clientCertificates.id, company_id: clientCertificates.company_id })
    .from(clientCertificates)
    .where(
      and(
        eq(clientCertificates.id, p.id),
        on.scoped ? isAnyOf(clientCertificates.company_id, p.scope) : undefined,
      ),
    )
    .limit(1)
    .prepare(name),
);

/** The client a scheme is written for (id and company), or undefined when absent or outside the scope. */
export async function findClientRef(db: Executor, id: string, scope: CompanyScope) {
  const [row] = await clientRefById(db, { scoped: scope !== ALL }, { id, scope: scopeValue(scope) });
  return row;
}

const typeOfCompany = prepared('scheme.type-of-company', ['id', 'company'], (db, p, name) =>
  db
    .select({ id: certificationTypes.id })
    .from(certificationTypes)
    .where(and(eq(certificationTypes.id, p.id), eq(certificationTypes.company_id, p.company)))
    .limit(1)
    .prepare(name),
);

const bodyOfCompany = prepared('scheme.body-of-company', ['id', 'company'], (db, p, name) =>
  db
    .select({ id: accreditedBodies.id })
    .from(accreditedBodies)
    .where(and(eq(accreditedBodies.id, p.id), eq(accreditedBodies.company_id, p.company)))
    .limit(1)
    .prepare(name),
);

/** True when the certification type exists and belongs to the company. */
export async function typeBelongs(db: Executor, id: string, companyId: string): Promise<boolean> {
  return (await typeOfCompany(db, { id, company: companyId })).length > 0;
}

/** The company of each of the certification types `ids` that exist (one query for many). */
export async function typeOwners(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: certificationTypes.id, company_id: certificationTypes.company_id })
    .from(certificationTypes)
    .where(inArray(certificationTypes.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.company_id]));
}

/** The company of each of the accreditation bodies `ids` that exist (one query for many). */
export async function bodyOwners(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: accreditedBodies.id, company_id: accreditedBodies.company_id })
    .from(accreditedBodies)
    .where(inArray(accreditedBodies.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.company_id]));
}

/** True when the accreditation body exists and belongs to the company. */
export async function bodyBelongs(db: Executor, id: string, companyId: string): Promise<boolean> {
  return (await bodyOfCompany(db, { id, company: companyId })).length > 0;
}
