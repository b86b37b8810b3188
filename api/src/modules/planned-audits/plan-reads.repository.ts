/**
 * What the team rules read of a planned audit's save besides its scheme
 * (docs/rules.md#auditors-and-planned-audits): each member with its qualifications, conflicts of
 * interest and other PLANNED audits touching the audit's days, in one statement.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  longDate,
  PLANNED_AUDIT_KIND_LABELS,
  type PlannedAuditKind,
  type RuleAuditor,
  type RuleOtherAudit,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  auditorConflicts,
  auditorQualifications,
  auditors,
  clientCertificates,
  plannedAudits,
  plannedAuditTeam,
  schemes,
} from '../../db/schema';

/** What the team rules read of a save besides its scheme: the members and their other audits. */
export interface PlanReads {
  /** The members of the company, by id (others' ids are left out). */
  auditors: Map<string, RuleAuditor>;
  /**
   * The other PLANNED audits of the company whose dates touch the save's and whose team holds a
   * member, each named for a message ('Surveilan PT X, 10 Maret 2026 s.d. 12 Maret 2026'), soonest first.
   */
  others: RuleOtherAudit[];
}

interface ClashRow {
  id: string;
  kind: PlannedAuditKind;
  start_date: string;
  end_date: string;
  client: string;
}

/**
 * What the team rules read of the members `auditorIds` of a company's audit start..end (`selfId`:
 * the audit changed, not a clash with itself), in one statement: each member with its
 * qualifications, conflicts of interest and other PLANNED audits touching those days.
 */
export async function planReads(
  db: Executor,
  companyId: string,
  auditorIds: readonly string[],
  start: string,
  end: string,
  selfId: string | null,
): Promise<PlanReads> {
  if (!auditorIds.length) return { auditors: new Map(), others: [] };
  // The member's id in the subqueries, named with its table (a one-table select names its columns bare).
  // A member's clashes: its team rows touching start..end (they hold their audit's dates: the team's
  // (auditor_id, dates) range index reads only those, not the member's whole history), then their audits.
  const member = sql`${auditors}.${sql.identifier('id')}`;
  const clashes =
    end < start
      ? sql`'[]'::json`
      : sql`coalesce((
    select json_agg(json_build_object('id', p.id, 'kind', p.kind, 'start_date', p.start_date,
      'end_date', p.end_date, 'client', cc.name) order by p.start_date, p.id)
    from ${plannedAuditTeam} t
    join ${plannedAudits} p on p.id = t.planned_audit_id
    join ${schemes} s on s.id = p.scheme_id
    join ${clientCertificates} cc on cc.id = s.certificate_id
    where t.auditor_id = ${member}
      and daterange(t.start_date, t.end_date, '[]') && daterange(${start}, ${end}, '[]')
      and p.company_id = ${companyId} and p.state = 'PLANNED'
      ${selfId ? sql`and p.id <> ${selfId}` : sql``}
  ), '[]'::json)`;
  const rows = await db
    .select({
      id: auditors.id,
      name: auditors.name,
      active: auditors.active,
      qualifications: sql<RuleAuditor['qualifications']>`coalesce((
        select json_agg(json_build_object('certification_id', q.certification_id, 'role', q.role,
          'sector_codes', q.sector_codes, 'valid_from', q.valid_from, 'valid_until', q.valid_until)
          order by q.position)
        from ${auditorQualifications} q where q.auditor_id = ${member}
      ), '[]'::json)`,
      conflicts: sql<RuleAuditor['conflicts']>`coalesce((
        select json_agg(json_build_object('client_id', c.client_id, 'reason', c.reason, 'until', c.until)
          order by c.position)
        from ${auditorConflicts} c where c.auditor_id = ${member}
      ), '[]'::json)`,
      clashes: sql<ClashRow[]>`${clashes}`,
    })
    .from(auditors)
    .where(and(eq(auditors.company_id, companyId), inArray(auditors.id, [...auditorIds])));
  const byAudit = new Map<string, RuleOtherAudit & { auditor_ids: string[]; key: string }>();
  for (const { clashes: theirs, ...auditor } of rows)
    for (const r of theirs) {
      const other = byAudit.get(r.id) ?? {
        label: `${PLANNED_AUDIT_KIND_LABELS[r.kind]} ${r.client}, ${longDate(r.start_date, 'id')} s.d. ${longDate(r.end_date, 'id')}`,
        start_date: r.start_date,
        end_date: r.end_date,
        auditor_ids: [],
        key: `${r.start_date} ${r.id}`,
      };
      other.auditor_ids.push(auditor.id);
      byAudit.set(r.id, other);
    }
  return {
    auditors: new Map(rows.map(({ clashes: _, ...a }) => [a.id, a])),
    others: [...byAudit.values()]
      .sort((x, y) => (x.key < y.key ? -1 : 1))
      .map(({ key: _, ...other }) => other),
  };
}
