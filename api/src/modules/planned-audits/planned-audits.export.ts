/**
 * 'Rencana Audit' as a workbook (`GET /api/planned-audit?type=export`, docs/rules.md#auditors-and-planned-audits):
 * the list's rows read in keyset batches, shaped as shared-contracts' PLANNED_AUDIT_COLUMNS write them.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  type CompanyScope,
  PLANNED_AUDIT_KIND_LABELS,
  PLANNED_AUDIT_STATE_LABELS,
  type PlannedAuditExportRow,
  type PlannedAuditKind,
  type PlannedAuditListQuery,
  type PlannedAuditState,
  TEAM_ROLE_LABELS,
  type TeamRole,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { keysetBatches } from '../../db/keyset';
import { certificationTypes, clientCertificates, companies, plannedAudits, schemes } from '../../db/schema';
import type { Invitee } from '../../notify/audit-invitations';
import { type AuditRow, auditSelection, listWhere, teamOf } from './planned-audits.repository';

/**
 * Every planned audit the list's filters match, soonest first, as the workbook writes them, a
 * batch at a time (keyset on start date and id; each batch's teams in one query).
 */
export function plannedAuditBatches(
  db: Executor,
  query: PlannedAuditListQuery,
  scope: CompanyScope,
  batchSize: number,
): AsyncGenerator<PlannedAuditExportRow[]> {
  const where = listWhere(query, scope);
  type Read = {
    p: AuditRow;
    company_name: string;
    cert_number: string | null;
    client: string;
    certification: string;
  };
  const fetch = async (after: (Read & { team: Invitee[] }) | null) => {
    const rows: Read[] = await db
      .select({ ...auditSelection, company_name: companies.name })
      .from(plannedAudits)
      .innerJoin(schemes, eq(schemes.id, plannedAudits.scheme_id))
      .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
      .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
      .innerJoin(companies, eq(companies.id, plannedAudits.company_id))
      .where(
        and(
          where,
          after
            ? sql`(${plannedAudits.start_date}, ${plannedAudits.id}) > (${after.p.start_date}, ${after.p.id})`
            : undefined,
        ),
      )
      .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id))
      .limit(batchSize);
    const teams = await teamOf(
      db,
      rows.map((r) => r.p.id),
    );
    return rows.map((r) => ({ ...r, team: teams.get(r.p.id) ?? [] }));
  };
  return keysetBatches(batchSize, fetch, (rows) =>
    rows.map(({ p, team, ...r }) => ({
      client: r.client,
      company_name: r.company_name,
      certification: r.certification,
      cert_number: r.cert_number ?? '',
      kind: PLANNED_AUDIT_KIND_LABELS[p.kind as PlannedAuditKind] ?? p.kind,
      start_date: p.start_date,
      end_date: p.end_date,
      audit_days: p.audit_days,
      lead: team.find((m) => m.role === 'LEAD_AUDITOR')?.name ?? '',
      team: team.map((m) => `${m.name} (${TEAM_ROLE_LABELS[m.role as TeamRole] ?? m.role})`).join(', '),
      state: PLANNED_AUDIT_STATE_LABELS[p.state as PlannedAuditState] ?? p.state,
      notes: p.notes ?? '',
    })),
  );
}
