/**
 * Import from Excel (docs/rules.md#import): the request's side. The job's side, which applies a
 * started import, is import.job.ts.
 *
 * - `checkImport`: the caller's scope and permissions (the company in scope, else 404; `:create`,
 *   and `:edit` when the file changes a stored record, else 403), then the whole file read
 *   (import.read.ts) and planned (import.plan.ts): every invalid cell, nothing written.
 * - `startImport`: a checked file becomes an import job (a row of import_jobs and a job of the
 *   engine, in one transaction), answered at once; its plan is handed to the job (`HandedPlans`).
 * - `findImportJob`, `listImportJobs`: 'Riwayat Impor'.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  type CompanyScope,
  type ImportJob,
  type ImportJobError,
  type ImportJobListQuery,
  type ImportKind,
  IMPORT_MESSAGES,
  type ImportMode,
  type ImportResult,
  type ListResponse,
  scopeWithin,
  toListResponse,
} from '@sertifikasi/shared-contracts';
import type { Db, Executor } from '../../db';
import { companies, importJobs } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { forbidden, notFound, refused } from '../../lib/errors';
import { checkZipBound, XlsxError } from '../../lib/xlsx';
import type { Actor } from '../../services/context';
import { IMPORT_TASK, type ImportDeps, type StoredActor } from './import.job';
import { countPlan, type ImportPlan, planImport, planUpdates } from './import.plan';

export { ImportInvalid } from './import.read';

/** What an xlsx may unpack to: far more than any 50,000-row register needs, far less than a bomb. */
export const IMPORT_MAX_UNPACKED = 256 * 1024 * 1024;

function xlsxRefusal(err: unknown): unknown {
  if (!(err instanceof XlsxError)) return err;
  return err.reason === 'unpacks-too-large'
    ? refused(IMPORT_MESSAGES.unpacksTooLarge)
    : refused(IMPORT_MESSAGES.notXlsx);
}

/** 404 unless `companyId` is a company within `scope`. */
async function companyInScope(db: Executor, scope: CompanyScope, companyId: string): Promise<void> {
  if (scope !== 'ALL' && !scopeWithin([companyId], scope)) throw notFound();
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound();
}

/**
 * Checks a file for an import into `companyId` by `actor` (scope, permissions, every cell); throws
 * ImportInvalid with every invalid cell, or an AppError (404, 403, 422). Writes nothing.
 */
export async function checkImport(
  db: Db,
  actor: Actor,
  kind: ImportKind,
  companyId: string,
  file: Buffer,
): Promise<ImportPlan> {
  if (!actor.permissions.has(`${kind}:create`)) throw forbidden();
  await companyInScope(db, actor.scope, companyId);
  try {
    checkZipBound(file, IMPORT_MAX_UNPACKED);
  } catch (err) {
    throw xlsxRefusal(err);
  }
  const plan = await planImport(db, kind, companyId, file).catch((err: unknown) => {
    throw xlsxRefusal(err);
  });
  if (planUpdates(plan) && !actor.permissions.has(`${kind}:edit`)) throw forbidden(IMPORT_MESSAGES.needsEdit);
  return plan;
}

/** The counts a check answers. */
export const checkAnswer = (plan: ImportPlan, mode: ImportMode): ImportResult => countPlan(plan, mode);

/** A job row as the API answers it. */
export function toJob(row: Omit<typeof importJobs.$inferSelect, 'file' | 'actor' | 'counts'>): ImportJob {
  return {
    id: row.id,
    company_id: row.company_id,
    kind: row.kind as ImportKind,
    file_name: row.file_name,
    state: row.state as ImportJob['state'],
    done: row.done,
    total: row.total,
    created_by: row.created_by_username,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    result: (row.result as ImportResult | null) ?? null,
    error: (row.error as ImportJobError | null) ?? null,
  };
}

/** The columns of a job as answered (never the file). */
const jobColumns = {
  id: importJobs.id,
  company_id: importJobs.company_id,
  kind: importJobs.kind,
  file_name: importJobs.file_name,
  state: importJobs.state,
  done: importJobs.done,
  total: importJobs.total,
  applied: importJobs.applied,
  result: importJobs.result,
  error: importJobs.error,
  created_by: importJobs.created_by,
  created_by_username: importJobs.created_by_username,
  created_at: importJobs.created_at,
  started_at: importJobs.started_at,
  finished_at: importJobs.finished_at,
};

/** A checked file as a job: stored with its actor, sent to the engine in the same transaction. */
export async function startImport(
  deps: ImportDeps,
  actor: Actor,
  kind: ImportKind,
  companyId: string,
  file: Buffer,
  fileName: string,
  plan: ImportPlan,
): Promise<ImportJob> {
  const id = newId();
  const stored: StoredActor = {
    user: actor.user,
    permissions: [...actor.permissions],
    scope: actor.scope,
    requestId: actor.requestId,
  };
  // Handed over before the job can start (it may start the moment the transaction commits).
  deps.plans.hand(id, plan);
  const job = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(importJobs)
      .values({
        id,
        company_id: companyId,
        kind,
        file_name: fileName.slice(0, 255),
        file,
        state: 'queued',
        total: plan.rows,
        actor: stored,
        created_by: actor.user?.id ?? null,
        created_by_username: actor.user?.username ?? null,
        created_at: deps.clock.now(),
      })
      .returning(jobColumns);
    await deps.jobs.send(IMPORT_TASK, { id }, { tx, id });
    return toJob(row!);
  });
  // Committed: this process's worker starts it now rather than at its next poll.
  deps.jobs.wake(IMPORT_TASK);
  return job;
}

/** An import job the actor may see: of a kind they may import, of a company in their scope. */
export async function findImportJob(db: Db, actor: Actor, id: string): Promise<ImportJob> {
  const [row] = await db.select(jobColumns).from(importJobs).where(eq(importJobs.id, id));
  if (!row) throw notFound();
  if (!actor.permissions.has(`${row.kind as ImportKind}:create`)) throw notFound();
  if (actor.scope !== 'ALL' && !scopeWithin([row.company_id], actor.scope)) throw notFound();
  return toJob(row);
}

/** Recent imports of a company in the actor's scope, of the kinds they may import; newest first. */
export async function listImportJobs(
  db: Db,
  actor: Actor,
  query: ImportJobListQuery,
): Promise<ListResponse<ImportJob>> {
  await companyInScope(db, actor.scope, query.company_id);
  const kinds = (['company-certificate', 'training-certificate'] as const).filter((k) =>
    actor.permissions.has(`${k}:create`),
  );
  if (!kinds.length) throw forbidden();
  const where = and(
    eq(importJobs.company_id, query.company_id),
    sql`${importJobs.kind} in (${sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )})`,
  );
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(importJobs).where(where);
  const rows = await db
    .select(jobColumns)
    .from(importJobs)
    .where(where)
    .orderBy(desc(importJobs.created_at), desc(importJobs.id))
    .limit(query.paginate)
    .offset((query.page - 1) * query.paginate);
  return toListResponse(rows.map(toJob), Number(n), query.page, query.paginate);
}
