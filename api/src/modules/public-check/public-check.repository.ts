import { and, desc, eq, ne, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db';
import { prepared } from '../../db/prepared';
import { SCHEME_AUDIT_ENTITY, type SchemeAuditRow } from '../../services/scheme-history';
import {
  accreditedBodies,
  auditLog,
  certificationTypes,
  clientCertificates,
  companies,
  schemes,
  trainingCertificates,
} from '../../db/schema';

/**
 * The two spellings a number from a check path may mean: `+` stands for `/` (SPEC.md section 7),
 * but a number may also hold a `+` of its own. The first is preferred when both exist.
 */
export function numberVariants(raw: string): { slash: string; literal: string } {
  return { slash: raw.replace(/\+/g, '/'), literal: raw };
}

/** Matches the unique index `lower(trim(number))`, so the lookup is one index probe per spelling. */
const matches = (column: SQLWrapper, a: unknown, b: unknown) =>
  sql`lower(trim(${column})) in (lower(trim(${a})), lower(trim(${b})))`;

/** A scheme as the public check reads it: public fields, plus what deciding them needs. */
const schemeByNumber = prepared('public-check.scheme', ['slash', 'literal'], (db, p, name) =>
  db
    .select({
      id: schemes.id,
      cert_number: schemes.cert_number,
      status: schemes.status,
      issue_date: schemes.issue_date,
      expired_date: schemes.expired_date,
      surveillance_date: schemes.surveillance_date,
      is_accredited: schemes.is_accredited,
      description: schemes.description,
      name: clientCertificates.name,
      address: clientCertificates.address,
      scope: clientCertificates.scope,
      ea_code: clientCertificates.ea_code,
      standard: certificationTypes.name,
      accreditation: accreditedBodies.name,
      simple_dates: companies.simple_dates,
      public_certificate_download: companies.public_certificate_download,
      created_at: schemes.created_at,
      // The scheme's audit rows in the same round trip, in the order scheme-history reads them
      // (its deriveStatusHistory turns them into the history).
      audit: sql<AuditJson[]>`coalesce((select json_agg(json_build_object(
          'action', a.action, 'at', a.at, 'by', a.actor_username,
          'beforeStatus', a.before ->> 'status', 'afterStatus', a.after ->> 'status',
          'afterIssueDate', a.after ->> 'issue_date')
          order by a.at, case a.action when 'create' then 0 when 'update' then 1 else 2 end)
        from ${auditLog} a where a.entity = ${SCHEME_AUDIT_ENTITY} and a.entity_id = ${schemes.id}), '[]')`,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .leftJoin(accreditedBodies, eq(accreditedBodies.id, schemes.accredited_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .where(and(matches(schemes.cert_number, p.slash, p.literal), ne(schemes.status, 'DRAFT')))
    .orderBy(desc(sql`lower(trim(${schemes.cert_number})) = lower(trim(${p.slash}))`))
    .limit(1)
    .prepare(name),
);

/** An audit row as json_build_object writes it (`at` as text). */
interface AuditJson extends Omit<SchemeAuditRow, 'at'> {
  at: string;
}

export type PublicSchemeRow = Omit<Awaited<ReturnType<typeof schemeByNumber>>[number], 'audit'> & {
  audit: SchemeAuditRow[];
};

/**
 * The scheme (never a DRAFT) whose number is `raw` (a check path's number, decoded), with its audit
 * rows for the status history, in one query; or null.
 */
export async function findSchemeByNumber(db: Executor, raw: string): Promise<PublicSchemeRow | null> {
  const [row] = await schemeByNumber(db, numberVariants(raw));
  if (!row) return null;
  const audit = typeof row.audit === 'string' ? (JSON.parse(row.audit) as AuditJson[]) : row.audit;
  return { ...row, audit: audit.map((a) => ({ ...a, at: new Date(a.at) })) };
}

const trainingByNumber = prepared('public-check.training', ['slash', 'literal'], (db, p, name) =>
  db
    .select({
      name: trainingCertificates.name,
      certificate_number: trainingCertificates.certificate_number,
      training: trainingCertificates.training,
      location: trainingCertificates.location,
      date: trainingCertificates.date,
    })
    .from(trainingCertificates)
    .where(matches(trainingCertificates.certificate_number, p.slash, p.literal))
    .orderBy(desc(sql`lower(trim(${trainingCertificates.certificate_number})) = lower(trim(${p.slash}))`))
    .limit(1)
    .prepare(name),
);

export type PublicTrainingRow = Awaited<ReturnType<typeof trainingByNumber>>[number];

export async function findTrainingByNumber(db: Executor, raw: string): Promise<PublicTrainingRow | null> {
  const [row] = await trainingByNumber(db, numberVariants(raw));
  return row ?? null;
}

/** Everything the certificate PDF shows, by scheme id (any status: the route decides who may see it). */
const schemeForPdf = prepared('public-check.pdf', ['id'], (db, p, name) =>
  db
    .select({
      id: schemes.id,
      company_id: schemes.company_id,
      cert_number: schemes.cert_number,
      status: schemes.status,
      issue_date: schemes.issue_date,
      expired_date: schemes.expired_date,
      surveillance_date: schemes.surveillance_date,
      name: clientCertificates.name,
      address: clientCertificates.address,
      scope: clientCertificates.scope,
      ea_code: clientCertificates.ea_code,
      standard: certificationTypes.name,
      accreditation: accreditedBodies.name,
      is_accredited: schemes.is_accredited,
      company_name: companies.name,
      logo_cert: companies.logo_cert,
      ttd_cert: companies.ttd_cert,
      simple_dates: companies.simple_dates,
      public_certificate_download: companies.public_certificate_download,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .leftJoin(accreditedBodies, eq(accreditedBodies.id, schemes.accredited_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .where(eq(schemes.id, p.id))
    .limit(1)
    .prepare(name),
);

export type PdfSchemeRow = Awaited<ReturnType<typeof schemeForPdf>>[number];

export async function findSchemeForPdf(db: Executor, id: string): Promise<PdfSchemeRow | null> {
  const [row] = await schemeForPdf(db, { id });
  return row ?? null;
}
