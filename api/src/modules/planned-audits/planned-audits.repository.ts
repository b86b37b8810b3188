/**
 * Reads of the planned audits (docs/rules.md#auditors-and-planned-audits): a planned audit as the API
 * answers it (its scheme named, its team in order), the list and its filters, the scheme's facts a
 * save reads (with the company's audit-days table) and the form's choices. What the team rules read
 * of the members: plan-reads.repository.ts; the auditors' calendar: auditor-calendar.repository.ts.
 */
import { and, asc, count, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import {
  ALL,
  type AuditDayBand,
  type CompanyScope,
  type ListResponse,
  type PlannedAudit,
  type PlannedAuditListQuery,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  auditDayBands,
  auditors,
  certificationTypes,
  clientCertificates,
  plannedAudits,
  plannedAuditTeam,
  schemes,
} from '../../db/schema';
import { prepared } from '../../db/prepared';
import { inCompanies, listPage, searchAny } from '../../lib/list';
import type { ListedEntity } from '../../services/list-versions';
import type { Invitee } from '../../notify/audit-invitations';

/** What a planned audit reads of its scheme, and what the team rules and the audit days need. */
export interface SchemeFacts {
  id: string;
  company_id: string;
  certification_id: string;
  client_id: string;
  cert_number: string | null;
  client: string;
  certification: string;
  employees: number | null;
  /** The scheme's own IAF sector codes ('Kode Sektor IAF'). */
  sector_codes: number[];
  /**
   * The company's own audit-days table for the scheme's type (its rows for the type, else its rows
   * for every type); null when it has none (IAF MD 5's table applies).
   */
  day_bands: AuditDayBand[] | null;
}

const schemeSelection = {
  id: schemes.id,
  company_id: schemes.company_id,
  certification_id: schemes.certification_id,
  client_id: schemes.certificate_id,
  cert_number: schemes.cert_number,
  client: clientCertificates.name,
  certification: certificationTypes.name,
  employees: clientCertificates.employees_number,
  sector_codes: schemes.sector_codes,
  // Read with the scheme (one statement): a save's checks and the suggested days need both.
  day_bands: sql<AuditDayBand[] | null>`(
    select json_agg(json_build_object('max_employees', b.max_employees, 'days', b.days) order by b.max_employees)
    from ${auditDayBands} b
    where b.company_id = ${schemes.company_id}
      and (b.certification_id = ${schemes.certification_id}
        or (b.certification_id is null and not exists (
          select 1 from ${auditDayBands} o
          where o.company_id = ${schemes.company_id} and o.certification_id = ${schemes.certification_id})))
  )`,
};

/** A scheme in `scope` with its client, type and the company's audit-days table, or undefined. */
export async function schemeFacts(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<SchemeFacts | undefined> {
  const [row] = await db
    .select(schemeSelection)
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .where(and(eq(schemes.id, id), inCompanies(schemes.company_id, scope)));
  return row;
}

export type AuditRow = typeof plannedAudits.$inferSelect;
/** What a planned audit as answered reads besides its row. */
export const auditSelection = {
  p: plannedAudits,
  cert_number: schemes.cert_number,
  client_id: schemes.certificate_id,
  client: clientCertificates.name,
  certification: certificationTypes.name,
};

/** A member of a planned audit's team as the API answers it. */
interface TeamMember {
  auditor_id: string;
  name: string;
  role: string;
}

/** The team of the planned audit of the row, in the order written, as one JSON array (read with the row). */
const teamJson = sql<TeamMember[]>`coalesce((
  select json_agg(json_build_object('auditor_id', t.auditor_id, 'name', a.name, 'role', t.role) order by t.position)
  from ${plannedAuditTeam} t join ${auditors} a on a.id = t.auditor_id
  where t.planned_audit_id = ${plannedAudits.id}
), '[]'::json)`;

/**
 * The kinds of record whose rows a planned audit as answered shows (its own row and team, its
 * scheme's number and type, its client's name, its team's names): a list answer is kept until a
 * write of one of them (services/list-cache.ts `answer`).
 */
export const PLANNED_AUDIT_SHOWS = [
  'planned-audit',
  'scheme',
  'client-certificate',
  'certification-type',
  'auditor',
] as const satisfies readonly ListedEntity[];

/** The list's statement before its conditions: each audit with its scheme, client, type and team. */
const auditsFrom = (db: Executor) =>
  db
    .select({ ...auditSelection, team: teamJson })
    .from(plannedAudits)
    .innerJoin(schemes, eq(schemes.id, plannedAudits.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id));

/** Planned audits matching `where`, as the API answers them (each with its team, one statement), soonest first. */
async function selectAudits(
  db: Executor,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<PlannedAudit[]> {
  const base = auditsFrom(db).where(where).orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id));
  const rows = page ? await base.limit(page.limit).offset(page.offset) : await base;
  return rows.map((r) => toPlannedAudit(r, r.team));
}

/*
 * The list of one company with no filter and no search ('Rencana Audit' as it opens): prepared
 * statements, parsed and planned once per connection (db/prepared.ts), for its count and its page.
 */
const plainCount = prepared('planned-audit.plain-count', ['company'], (db, p, name) =>
  db.select({ n: count() }).from(plannedAudits).where(eq(plannedAudits.company_id, p.company)).prepare(name),
);
const plainPage = prepared('planned-audit.plain-page', ['company', 'limit', 'offset'], (db, p, name) =>
  auditsFrom(db)
    .where(eq(plannedAudits.company_id, p.company))
    .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id))
    .limit(p.limit)
    .offset(p.offset)
    .prepare(name),
);

function toPlannedAudit(
  r: { p: AuditRow; cert_number: string | null; client_id: string; client: string; certification: string },
  team: readonly TeamMember[],
): PlannedAudit {
  const { p } = r;
  return {
    id: p.id,
    company_id: p.company_id,
    scheme_id: p.scheme_id,
    scheme: {
      id: p.scheme_id,
      cert_number: r.cert_number,
      client_id: r.client_id,
      client: r.client,
      certification: r.certification,
    },
    kind: p.kind,
    start_date: p.start_date,
    end_date: p.end_date,
    audit_days: p.audit_days,
    days_reason: p.days_reason,
    team: team.map((m) => ({ auditor_id: m.auditor_id, name: m.name, role: m.role })),
    state: p.state,
    notes: p.notes,
    sequence: p.sequence,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

/** The teams of some audits (each member with name and email), by audit id, in the order written. */
export async function teamOf(db: Executor, ids: readonly string[]): Promise<Map<string, Invitee[]>> {
  const out = new Map<string, Invitee[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      audit: plannedAuditTeam.planned_audit_id,
      auditor_id: plannedAuditTeam.auditor_id,
      role: plannedAuditTeam.role,
      name: auditors.name,
      email: auditors.email,
    })
    .from(plannedAuditTeam)
    .innerJoin(auditors, eq(auditors.id, plannedAuditTeam.auditor_id))
    .where(inArray(plannedAuditTeam.planned_audit_id, [...ids]))
    .orderBy(asc(plannedAuditTeam.position));
  for (const { audit, ...member } of rows) out.set(audit, [...(out.get(audit) ?? []), member]);
  return out;
}

/** A planned audit in `scope`, or undefined. */
export async function findPlannedAudit(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<PlannedAudit | undefined> {
  return (
    await selectAudits(db, and(eq(plannedAudits.id, id), inCompanies(plannedAudits.company_id, scope)))
  )[0];
}

/** The stored row of a planned audit, for the after-write steps. */
export const plannedAuditRow = async (db: Executor, id: string): Promise<AuditRow | undefined> =>
  (await db.select().from(plannedAudits).where(eq(plannedAudits.id, id)))[0];

/** The list's conditions: the companies in `scope`, audits touching from..to, of an auditor, a scheme, a state. */
export function listWhere(query: PlannedAuditListQuery, scope: CompanyScope): SQL | undefined {
  const search = searchAny(query.search, [clientCertificates.name, schemes.cert_number]);
  return and(
    inCompanies(plannedAudits.company_id, scope),
    query.from ? gte(plannedAudits.end_date, query.from) : undefined,
    query.to ? lte(plannedAudits.start_date, query.to) : undefined,
    query.state ? eq(plannedAudits.state, query.state) : undefined,
    query.scheme_id ? eq(plannedAudits.scheme_id, query.scheme_id.toLowerCase()) : undefined,
    query.auditor_id
      ? sql`exists (select 1 from ${plannedAuditTeam} where ${plannedAuditTeam.planned_audit_id} = ${plannedAudits.id} and ${plannedAuditTeam.auditor_id} = ${query.auditor_id.toLowerCase()})`
      : undefined,
    search
      ? sql`${plannedAudits.scheme_id} in (select ${schemes.id} from ${schemes} join ${clientCertificates} on ${clientCertificates.id} = ${schemes.certificate_id} where ${search})`
      : undefined,
  );
}

/**
 * The planned audits of the companies in `scope`: touching from..to, of an auditor, a scheme, a
 * state (one company with none of these nor a search: prepared statements). Read every time: the
 * route keeps whole answers without a search (services/list-cache.ts `answer`).
 */
export async function listPlannedAudits(
  db: Executor,
  query: PlannedAuditListQuery,
  scope: CompanyScope,
): Promise<ListResponse<PlannedAudit>> {
  const where = listWhere(query, scope);
  const plain =
    scope !== ALL &&
    scope.length === 1 &&
    !query.search &&
    !query.from &&
    !query.to &&
    !query.state &&
    !query.scheme_id &&
    !query.auditor_id;
  const company = plain ? scope[0] : undefined;
  return listPage(
    query,
    async () =>
      (company
        ? await plainCount(db, { company })
        : await db.select({ n: count() }).from(plannedAudits).where(where))[0]?.n ?? 0,
    async (limit, offset) =>
      company
        ? (await plainPage(db, { company, limit, offset })).map((r) => toPlannedAudit(r, r.team))
        : selectAudits(db, where, { limit, offset }),
  );
}

/** The schemes and active auditors of the companies in `scope`, for the planned-audit form's selects. */
export async function planChoices(db: Executor, scope: CompanyScope) {
  const schemeRows = await db
    .select({
      id: schemes.id,
      company_id: schemes.company_id,
      cert_number: schemes.cert_number,
      client: clientCertificates.name,
      certification: certificationTypes.name,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .where(inCompanies(schemes.company_id, scope))
    .orderBy(sql`lower(${clientCertificates.name})`, schemes.id);
  const auditorRows = await db
    .select({ id: auditors.id, name: auditors.name, company_id: auditors.company_id })
    .from(auditors)
    .where(and(inCompanies(auditors.company_id, scope), eq(auditors.active, true)))
    .orderBy(sql`lower(${auditors.name})`, auditors.id);
  return {
    schemes: schemeRows.map((r) => ({
      id: r.id,
      company_id: r.company_id,
      name: `${r.client} - ${r.certification}${r.cert_number ? ` (${r.cert_number})` : ''}`,
    })),
    auditors: auditorRows,
  };
}
