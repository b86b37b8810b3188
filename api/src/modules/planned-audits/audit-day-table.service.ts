/**
 * A company's audit-days table ('Tabel Hari Audit', permission `audit-plan`;
 * docs/rules.md#auditors-and-planned-audits): read (the company's own rows for a type, or for every
 * type; IAF MD 5's Table QMS 1 when it has none) and written whole through the one write sequence,
 * audited as answered. The band rules are shared-contracts' audit-days.ts (422 naming the row).
 */
import { and, eq, isNull } from 'drizzle-orm';
import {
  type AuditDayTable,
  type AuditDayTableInput,
  auditDayBandProblems,
  type CompanyScope,
  MD5_RANGES,
  withRanges,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { auditDayBands, certificationTypes, companies } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { invalid } from '../../lib/errors';
import type { ServiceContext } from '../../services/context';
import { runWriteSequence } from '../../services/write-sequence';
import { checkCompanyExists, checkCompanyInScope } from '../resource/resource.service';

const TYPE_MISSING = 'Jenis sertifikasi tidak ditemukan';

const ofTable = (companyId: string, certificationId: string | null) =>
  and(
    eq(auditDayBands.company_id, companyId),
    certificationId
      ? eq(auditDayBands.certification_id, certificationId)
      : isNull(auditDayBands.certification_id),
  );

/** 403 outside the scope, 422 for an unknown company or a type not of the company. */
async function checkTable(
  db: Executor,
  scope: CompanyScope,
  companyId: string,
  certificationId: string | null,
) {
  checkCompanyInScope(scope, companyId);
  await checkCompanyExists(db, companyId);
  if (!certificationId) return;
  const [type] = await db
    .select({ id: certificationTypes.id })
    .from(certificationTypes)
    .where(and(eq(certificationTypes.id, certificationId), eq(certificationTypes.company_id, companyId)));
  if (!type) throw invalid({ certification_id: TYPE_MISSING });
}

/** The table as answered: the company's own rows for the type (or every type), else IAF MD 5's. */
export async function readAuditDayTable(
  db: Executor,
  scope: CompanyScope,
  companyId: string,
  certificationId: string | null,
): Promise<AuditDayTable> {
  await checkTable(db, scope, companyId, certificationId);
  const rows = await db
    .select({ max_employees: auditDayBands.max_employees, days: auditDayBands.days })
    .from(auditDayBands)
    .where(ofTable(companyId, certificationId));
  return {
    company_id: companyId,
    certification_id: certificationId,
    source: rows.length ? 'company' : 'md5',
    bands: rows.length ? withRanges(rows) : [...MD5_RANGES],
  };
}

/** Writes the table whole (no bands: the company's rows go and IAF MD 5's table applies again). */
export async function writeAuditDayTable(
  ctx: ServiceContext,
  input: AuditDayTableInput,
): Promise<AuditDayTable> {
  const companyId = input.company_id.toLowerCase();
  const certificationId = input.certification_id?.toLowerCase() ?? null;
  await checkTable(ctx.tx, ctx.actor.scope, companyId, certificationId);
  const problems = auditDayBandProblems(input.bands);
  if (Object.keys(problems).length) throw invalid(problems);
  const before = await readAuditDayTable(ctx.tx, ctx.actor.scope, companyId, certificationId);
  // Two saves of the company's tables: the second waits for the first.
  await ctx.tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
  const [after] = await runWriteSequence<unknown, AuditDayTable>(ctx, {
    entity: undefined,
    auditEntity: 'audit-day-table',
    action: 'update',
    writes: [{ id: certificationId ?? companyId, companyId, current: null, before }],
    write: async () => {
      await ctx.tx.delete(auditDayBands).where(ofTable(companyId, certificationId));
      if (input.bands.length)
        await ctx.tx.insert(auditDayBands).values(
          input.bands.map((band) => ({
            id: newId(),
            company_id: companyId,
            certification_id: certificationId,
            max_employees: band.max_employees,
            days: band.days,
          })),
        );
    },
    answers: async (ids) =>
      new Map([[ids[0]!, await readAuditDayTable(ctx.tx, ctx.actor.scope, companyId, certificationId)]]),
  });
  return after!;
}
