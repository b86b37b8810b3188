/**
 * Import from Excel (docs/rules.md#import): the service behind the routes.
 *
 * - `checkImport`: the caller's scope and permissions (the company in scope, else 404; `:create`,
 *   and `:edit` when the file changes a stored record, else 403), then the whole file read
 *   (import.read.ts) and planned (import.plan.ts): every invalid cell, nothing written.
 * - `startImport`: a checked file becomes an import job (a row of import_jobs and a job of the
 *   engine, in one transaction), answered at once.
 * - `runImport`: the job, on any API process: the file planned again against what is stored now
 *   (or, when it starts at once on the process that checked it, the check's own plan), then applied in chunks (import.apply.ts), each chunk's writes and the job's progress in one
 *   transaction, so a job stopped by a crash resumes after its last committed chunk and no chunk is
 *   applied twice. A row the services refuse stops the job there (failed, saying which row and how
 *   many went in before); the corrected file applied again finishes it, an import being idempotent.
 *
 * Long file: the request's side and the job's side share the job row and its states; each is
 * a short list of functions, read top to bottom in the order an import lives.
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  type CompanyScope,
  ERROR_CODES,
  IMPORT_MESSAGES,
  type ImportCellError,
  type ImportJob,
  type ImportJobError,
  type ImportJobListQuery,
  type ImportKind,
  type ImportMode,
  type ImportResult,
  type ListResponse,
  PERMISSION_KEYS,
  type PermissionKey,
  scopeWithin,
  toListResponse,
} from '@sertifikasi/shared-contracts';
import type { Config } from '../../config';
import type { Db, Executor } from '../../db';
import { clientCertificates, companies, importJobs, schemes, trainingCertificates } from '../../db/schema';
import { statisticsWatch } from '../../db/statistics';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/crypto';
import { AppError, forbidden, notFound, pgError, refused } from '../../lib/errors';
import { checkZipBound, XlsxError } from '../../lib/xlsx';
import { JobInterrupted, type JobEngine, type JobRun } from '../../jobs/engine';
import { runHeldSteps } from '../../services/after-write';
import type { Actor, ServiceContext } from '../../services/context';
import {
  addTally,
  applyItems,
  chunksOf,
  emptyTally,
  itemsOf,
  type PlanItem,
  resultOf,
  rowRefusal,
  rowsOf,
  type Tally,
} from './import.apply';
import { countPlan, type ImportPlan, planImport, planUpdates } from './import.plan';
import { ImportInvalid } from './import.read';

export { ImportInvalid } from './import.read';

/** PostgreSQL's code for a transaction it ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/** The engine's task that applies an import. */
export const IMPORT_TASK = 'import-apply';

/** What an xlsx may unpack to: far more than any 50,000-row register needs, far less than a bomb. */
export const IMPORT_MAX_UNPACKED = 256 * 1024 * 1024;

/** What the import service needs of the app. */
export interface ImportDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobEngine;
}

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

type JobRow = typeof importJobs.$inferSelect;

/** The actor as stored with the job (its permissions and scope at the request). */
interface StoredActor {
  user: { id: string; username: string } | null;
  permissions: string[];
  scope: CompanyScope;
  requestId: string | null;
}

const actorOfJob = (row: JobRow): Actor => {
  const stored = row.actor as StoredActor;
  const known = new Set<string>(PERMISSION_KEYS);
  return {
    user: stored.user,
    permissions: new Set(stored.permissions.filter((k): k is PermissionKey => known.has(k))),
    scope: stored.scope,
    requestId: stored.requestId,
    source: 'import',
  };
};

/** A job row as the API answers it. */
export function toJob(row: Omit<JobRow, 'file' | 'actor' | 'counts'>): ImportJob {
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

/**
 * The plans of checks that just became jobs, by job id: a job that starts on the process that
 * checked its file, within HANDED_PLAN_MS and before anything of it is applied, takes the plan made
 * by the request instead of reading the file again (docs/architecture.md "Jobs"). Any other run (a
 * resume, another process, a job that waited) plans the stored file again.
 */
const handedPlans = new Map<string, ImportPlan>();
const HANDED_PLAN_MS = 30_000;

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
  handedPlans.set(id, plan);
  setTimeout(() => handedPlans.delete(id), HANDED_PLAN_MS).unref();
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

// ---- the job ------------------------------------------------------------------------------

async function finish(db: Db, id: string, values: Partial<typeof importJobs.$inferInsert>) {
  await db
    .update(importJobs)
    .set({ ...values, file: null })
    .where(eq(importJobs.id, id));
}

/**
 * Runs an import job (the engine's handler): plans the stored file again (or takes the plan its
 * request handed over, `handedPlans`), then applies the records
 * not yet applied, a chunk at a time (IMPORT_CHUNK_ROWS rows), each with the job's progress in one
 * transaction. Ends the job done or failed; throws (the engine retries) only for an error that is
 * not the file's (the database went away), or JobInterrupted when the process stops.
 */
export async function runImport(deps: ImportDeps, id: string, run: JobRun): Promise<void> {
  const { db, clock } = deps;
  const [job] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!job || job.state === 'done' || job.state === 'failed' || !job.file) return;
  await db
    .update(importJobs)
    .set({ state: 'running', started_at: job.started_at ?? clock.now() })
    .where(eq(importJobs.id, id));
  const actor = actorOfJob(job);
  const kind = job.kind as ImportKind;
  let done = job.done;
  const fail = (error: ImportJobError) =>
    finish(db, id, { state: 'failed', error, finished_at: clock.now() });
  try {
    const handed = handedPlans.get(id);
    handedPlans.delete(id);
    let plan: ImportPlan;
    try {
      plan = handed && job.applied === 0 ? handed : await planImport(db, kind, job.company_id, job.file);
    } catch (err) {
      if (err instanceof ImportInvalid)
        return await fail({
          code: ERROR_CODES.validation,
          message: IMPORT_MESSAGES.changedMeanwhile(done),
          rows: err.rows,
        });
      if (err instanceof AppError && err.statusCode < 500)
        return await fail({ code: err.code, message: err.message });
      throw err;
    }
    const items = itemsOf(plan).slice(job.applied);
    let applied = job.applied;
    let tally = (job.counts as Tally | null) ?? emptyTally();
    const statistics = statisticsWatch(db);
    /** After a chunk: the tables it grew, analyzed when they have grown enough (db/statistics.ts). */
    const grown = async (did: Tally) => {
      if (kind === 'training-certificate') {
        await statistics.grew(trainingCertificates, did.clients.created);
        return;
      }
      await statistics.grew(clientCertificates, did.clients.created);
      await statistics.grew(schemes, did.schemes.created);
    };
    /** Set when the loop leaves early: a chunk still under way then keeps nothing. */
    let leaving = false;
    /**
     * Applies `part` in one transaction: its writes (the steps that lock shared rows held back),
     * then, once `after` (the chunk before it) has committed, those steps and the job's progress;
     * then `grown`. Throws, keeping nothing, when `after` fails or the loop has left.
     */
    const commit = async (part: readonly PlanItem[], after: Promise<void> = Promise.resolve()) => {
      const rows = part.reduce((n, item) => n + rowsOf(item), 0);
      const did = await db.transaction(async (tx) => {
        const ctx: ServiceContext = { tx, actor, clock, config: deps.config, heldSteps: [] };
        const did = await applyItems(ctx, part);
        await after;
        if (leaving) throw new JobInterrupted();
        await runHeldSteps(ctx);
        const moved = await tx
          .update(importJobs)
          .set({ applied: applied + part.length, done: done + rows, counts: addTally(tally, did) })
          .where(and(eq(importJobs.id, id), eq(importJobs.applied, applied)))
          .returning({ id: importJobs.id });
        // Another run of this job got there first: nothing of this chunk stays.
        if (!moved.length) throw new JobInterrupted();
        return did;
      });
      applied += part.length;
      done += rows;
      tally = addTally(tally, did);
      await grown(did);
    };
    /**
     * A chunk that failed, applied again alone: whole after a deadlock, else (a record the services
     * refuse) a record at a time to find its row. Answers that row's refusal, or null once the chunk
     * is in; throws what is not a refusal (the engine retries the job).
     */
    const applyAlone = async (part: readonly PlanItem[], err: unknown): Promise<ImportCellError | null> => {
      if (pgError(err)?.code === DEADLOCK_DETECTED) {
        try {
          await commit(part);
          return null;
        } catch (again) {
          err = again;
        }
      }
      if (err instanceof JobInterrupted || !(rowRefusal(part[0]!, err) || err instanceof AppError)) throw err;
      for (const item of part) {
        try {
          await commit([item]);
        } catch (one) {
          const cell = rowRefusal(item, one);
          if (!cell) throw one;
          return cell;
        }
      }
      return null;
    };
    const chunks = chunksOf(items, deps.config.importChunkRows);
    /**
     * Two chunks side by side (docs/architecture.md "Jobs"): the next one's writes are made while
     * this one finishes, on another connection; its shared steps and progress wait for this one's
     * commit, so chunks commit in the file's order and never wait on each other's rows.
     */
    type Running = { part: readonly PlanItem[]; done: Promise<void> };
    let next: Running | null = null;
    const begin = (part: readonly PlanItem[], after?: Promise<void>): Running => {
      const settled = commit(part, after);
      settled.catch(() => undefined); // awaited in its turn; a failure before then is not unhandled
      return { part, done: settled };
    };
    try {
      for (let i = 0; i < chunks.length; i++) {
        if (run.stopping.aborted) throw new JobInterrupted();
        const current: Running = next ?? begin(chunks[i]!);
        next = i + 1 < chunks.length ? begin(chunks[i + 1]!, current.done) : null;
        const failed = await current.done.then(
          () => null,
          (err: unknown) => ({ err }),
        );
        if (!failed) continue;
        // The next chunk waits on this one: it keeps nothing, and starts again after it.
        await next?.done.catch(() => undefined);
        next = null;
        const refusal = await applyAlone(current.part, failed.err);
        if (refusal)
          return await fail({
            code: ERROR_CODES.validation,
            message: IMPORT_MESSAGES.stoppedAt(refusal.row, done),
            rows: [refusal],
          });
      }
    } finally {
      leaving = true;
      await next?.done.catch(() => undefined);
    }
    await finish(db, id, {
      state: 'done',
      result: resultOf(kind, job.total, tally),
      finished_at: clock.now(),
    });
  } catch (err) {
    if (err instanceof JobInterrupted || !run.lastAttempt) throw err;
    await fail({ code: ERROR_CODES.internal, message: IMPORT_MESSAGES.failed });
    throw err;
  }
}

/** How many times the engine retries an import job after its first attempt. */
const IMPORT_RETRIES = 5;

/**
 * An import job the engine gave up on (its last attempt ended without the job ending: the process
 * died or stopped, or the database failed it every time): failed, saying so and how many rows went
 * in, unless it ended meanwhile. Without this a job whose every run died would stay `running`.
 */
export async function importExhausted(deps: Pick<ImportDeps, 'db' | 'clock'>, id: string): Promise<void> {
  const [job] = await deps.db
    .select({ state: importJobs.state, done: importJobs.done })
    .from(importJobs)
    .where(eq(importJobs.id, id));
  if (!job || job.state === 'done' || job.state === 'failed') return;
  await deps.db
    .update(importJobs)
    .set({
      state: 'failed',
      error: {
        code: ERROR_CODES.internal,
        message: IMPORT_MESSAGES.retriesExhausted(IMPORT_RETRIES + 1, job.done),
      } satisfies ImportJobError,
      finished_at: deps.clock.now(),
      file: null,
    })
    .where(and(eq(importJobs.id, id), inArray(importJobs.state, ['queued', 'running'])));
}

/** Describes the import task to the engine. */
export function defineImportTask(deps: ImportDeps): void {
  deps.jobs.define<{ id: string }>({
    name: IMPORT_TASK,
    queue: {
      retryLimit: IMPORT_RETRIES,
      retryDelay: 2,
      retryBackoff: true,
      heartbeatSeconds: 10,
      expireInSeconds: 4 * 3600,
    },
    handler: (data, run) => runImport(deps, data.id, run),
    exhausted: (data) => importExhausted(deps, data.id),
  });
}
