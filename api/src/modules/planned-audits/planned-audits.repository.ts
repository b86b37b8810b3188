/**
 * Reads of the planned audits (docs/rules.md#auditors-and-planned-audits): a planned audit as the API
 * answers it (its scheme named, its team in order), the list and its filters, what the team rules
 * read (the scheme's facts, the other PLANNED audits of the team's members), the audit-days table
 * of a company and the auditors' calendar of a month.
 */
import { and, asc, count, eq, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import {
  type AuditDayBand,
  type AuditorCalendar,
  auditDates,
  type CompanyScope,
  type ListResponse,
  longDate,
  PLANNED_AUDIT_KIND_LABELS,
  type PlannedAudit,
  type PlannedAuditKind,
  type PlannedAuditListQuery,
  type RuleOtherAudit,
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
import { inCompanies, listPage, searchAny } from '../../lib/list';
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
};

/** A scheme in `scope` with its client and type, or undefined. */
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

/** Planned audits matching `where`, as the API answers them, in `order`, a page of them. */
async function selectAudits(
  db: Executor,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<PlannedAudit[]> {
  const base = db
    .select(auditSelection)
    .from(plannedAudits)
    .innerJoin(schemes, eq(schemes.id, plannedAudits.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .where(where)
    .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id));
  const rows = page ? await base.limit(page.limit).offset(page.offset) : await base;
  const team = await teamOf(
    db,
    rows.map((r) => r.p.id),
  );
  return rows.map((r) => toPlannedAudit(r, team.get(r.p.id) ?? []));
}

function toPlannedAudit(
  r: { p: AuditRow; cert_number: string | null; client_id: string; client: string; certification: string },
  team: Invitee[],
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

/** The planned audits of the companies in `scope`: touching from..to, of an auditor, a scheme, a state. */
export async function listPlannedAudits(
  db: Executor,
  query: PlannedAuditListQuery,
  scope: CompanyScope,
): Promise<ListResponse<PlannedAudit>> {
  const where = listWhere(query, scope);
  return listPage(
    query,
    async () => (await db.select({ n: count() }).from(plannedAudits).where(where))[0]?.n ?? 0,
    (limit, offset) => selectAudits(db, where, { limit, offset }),
  );
}

/**
 * The other PLANNED audits of a company whose dates touch start..end and whose team holds any of
 * `auditorIds`, each named for a message ('Surveilan PT X, 10 Maret 2026 s.d. 12 Maret 2026').
 */
export async function clashingAudits(
  db: Executor,
  companyId: string,
  auditorIds: readonly string[],
  start: string,
  end: string,
  selfId: string | null,
): Promise<RuleOtherAudit[]> {
  if (!auditorIds.length || end < start) return [];
  const rows = await db
    .select({
      id: plannedAudits.id,
      kind: plannedAudits.kind,
      start_date: plannedAudits.start_date,
      end_date: plannedAudits.end_date,
      client: clientCertificates.name,
      auditor_id: plannedAuditTeam.auditor_id,
    })
    .from(plannedAudits)
    .innerJoin(plannedAuditTeam, eq(plannedAuditTeam.planned_audit_id, plannedAudits.id))
    .innerJoin(schemes, eq(schemes.id, plannedAudits.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .where(
      and(
        eq(plannedAudits.company_id, companyId),
        eq(plannedAudits.state, 'PLANNED'),
        inArray(plannedAuditTeam.auditor_id, [...auditorIds]),
        lte(plannedAudits.start_date, end),
        gte(plannedAudits.end_date, start),
        selfId ? ne(plannedAudits.id, selfId) : undefined,
      ),
    )
    .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id));
  const byAudit = new Map<string, RuleOtherAudit & { auditor_ids: string[] }>();
  for (const r of rows) {
    const other = byAudit.get(r.id) ?? {
      label: `${PLANNED_AUDIT_KIND_LABELS[r.kind as PlannedAuditKind]} ${r.client}, ${longDate(r.start_date, 'id')} s.d. ${longDate(r.end_date, 'id')}`,
      start_date: r.start_date,
      end_date: r.end_date,
      auditor_ids: [],
    };
    other.auditor_ids.push(r.auditor_id);
    byAudit.set(r.id, other);
  }
  return [...byAudit.values()];
}

/**
 * A company's own audit-days table for a certification type (its rows for the type, else its rows
 * for every type); null when it has none (IAF MD 5's table applies).
 */
export async function companyDayBands(
  db: Executor,
  companyId: string,
  certificationId: string,
): Promise<AuditDayBand[] | null> {
  const rows = await db
    .select()
    .from(auditDayBands)
    .where(eq(auditDayBands.company_id, companyId))
    .orderBy(asc(auditDayBands.max_employees));
  const own = rows.filter((r) => r.certification_id === certificationId);
  const any = own.length ? own : rows.filter((r) => r.certification_id === null);
  return any.length ? any.map((r) => ({ max_employees: r.max_employees, days: r.days })) : null;
}

/** Each active auditor of a company with the days of `month` (`YYYY-MM`) they are on a planned or done audit. */
export async function auditorCalendar(
  db: Executor,
  companyId: string,
  month: string,
): Promise<AuditorCalendar> {
  const first = `${month}-01`;
  const last = lastDayOf(month);
  const people = await db
    .select({ id: auditors.id, name: auditors.name })
    .from(auditors)
    .where(and(eq(auditors.company_id, companyId), eq(auditors.active, true)))
    .orderBy(sql`lower(${auditors.name})`, auditors.id);
  const rows = await db
    .select({
      auditor_id: plannedAuditTeam.auditor_id,
      role: plannedAuditTeam.role,
      id: plannedAudits.id,
      kind: plannedAudits.kind,
      state: plannedAudits.state,
      start_date: plannedAudits.start_date,
      end_date: plannedAudits.end_date,
      client: clientCertificates.name,
    })
    .from(plannedAudits)
    .innerJoin(plannedAuditTeam, eq(plannedAuditTeam.planned_audit_id, plannedAudits.id))
    .innerJoin(schemes, eq(schemes.id, plannedAudits.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .where(
      and(
        eq(plannedAudits.company_id, companyId),
        ne(plannedAudits.state, 'CANCELLED'),
        lte(plannedAudits.start_date, last),
        gte(plannedAudits.end_date, first),
      ),
    )
    .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id));
  return {
    month,
    auditors: people.map((person) => {
      const audits = rows.filter((r) => r.auditor_id === person.id).map(({ auditor_id: _, ...a }) => a);
      const days = new Set(
        audits.flatMap((a) => auditDates(a.start_date, a.end_date)).filter((d) => d >= first && d <= last),
      );
      return { ...person, days: [...days].sort(), audits };
    }),
  };
}

/** The last day of a month `YYYY-MM`. */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
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
