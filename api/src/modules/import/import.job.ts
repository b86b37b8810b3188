/**
 * The import job (docs/architecture.md "Jobs"), on any API process: the stored file planned again
 * against what is stored now (or, when it starts at once on the process that checked it, the
 * check's own plan, `HandedPlans`), the caller's `:edit` asked again when the plan now changes
 * stored records, then the records not yet applied written in chunks (import.apply.ts), each
 * chunk's writes and the job's progress in one transaction, two chunks side by side
 * (`ChunkPipeline`). A job stopped by a crash resumes after its last committed chunk and no chunk
 * is applied twice. A row the services refuse stops the job there (failed, saying which row and how
 * many went in before); the corrected file applied again finishes it, an import being idempotent.
 */
import { and, eq, inArray } from 'drizzle-orm';
import {
  type CompanyScope,
  ERROR_CODES,
  IMPORT_MESSAGES,
  type ImportCellError,
  type ImportJobError,
  type ImportKind,
  PERMISSION_KEYS,
  type PermissionKey,
} from '@sertifikasi/shared-contracts';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { clientCertificates, importJobs, schemes, trainingCertificates } from '../../db/schema';
import { statisticsWatch } from '../../db/statistics';
import type { Clock } from '../../lib/clock';
import { AppError, pgError } from '../../lib/errors';
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
import { type ImportPlan, planImport, planUpdates } from './import.plan';
import { ImportInvalid } from './import.read';

/** The engine's task that applies an import. */
export const IMPORT_TASK = 'import-apply';

/** How many times the engine retries an import job after its first attempt. */
const IMPORT_RETRIES = 5;

/** PostgreSQL's code for a transaction it ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/** How long a check's plan waits for its job on the process that made it. */
const HANDED_PLAN_MS = 30_000;

/**
 * The plans of checks that just became jobs, by job id, kept by the app (one per app instance): a
 * job that starts on the process that checked its file, within 30 s and before anything of it is
 * applied, takes the plan the request made instead of reading the file again. Any other run (a
 * resume, another process, a job that waited) plans the stored file again.
 */
export class HandedPlans {
  private readonly plans = new Map<string, ImportPlan>();

  hand(id: string, plan: ImportPlan): void {
    this.plans.set(id, plan);
    setTimeout(() => this.plans.delete(id), HANDED_PLAN_MS).unref();
  }

  take(id: string): ImportPlan | undefined {
    const plan = this.plans.get(id);
    this.plans.delete(id);
    return plan;
  }
}

/** What the import's request and job need of the app. */
export interface ImportDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobEngine;
  plans: HandedPlans;
}

type JobRow = typeof importJobs.$inferSelect;

/** The actor as stored with the job (its permissions and scope at the request). */
export interface StoredActor {
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

async function finish(db: Db, id: string, values: Partial<typeof importJobs.$inferInsert>) {
  await db
    .update(importJobs)
    .set({ ...values, file: null })
    .where(eq(importJobs.id, id));
}

/** A chunk under way: its records, and its commit (awaited in its turn). */
interface Running {
  part: readonly PlanItem[];
  done: Promise<void>;
}

/**
 * The chunks of one run of a job, applied in the file's order from where the job stands. Two are
 * under way side by side (docs/architecture.md "Jobs"): the next one's writes are made while this
 * one finishes, on another connection; its shared steps and progress wait for this one's commit, so
 * chunks commit in the file's order and never wait on each other's rows.
 */
class ChunkPipeline {
  private applied: number;
  private done: number;
  private tally: Tally;
  /** Set when the run leaves early: a chunk still under way then keeps nothing. */
  private leaving = false;
  private readonly statistics;

  constructor(
    private readonly deps: ImportDeps,
    private readonly job: JobRow,
    private readonly actor: Actor,
  ) {
    this.applied = job.applied;
    this.done = job.done;
    this.tally = (job.counts as Tally | null) ?? emptyTally();
    this.statistics = statisticsWatch(deps.db);
  }

  get rowsDone(): number {
    return this.done;
  }

  get result(): Tally {
    return this.tally;
  }

  /** Applies `chunks`; answers the refusal that stopped them, or null once all are in. */
  async run(
    chunks: readonly (readonly PlanItem[])[],
    stopping: AbortSignal,
  ): Promise<ImportCellError | null> {
    let next: Running | null = null;
    try {
      for (let i = 0; i < chunks.length; i++) {
        if (stopping.aborted) throw new JobInterrupted();
        const current: Running = next ?? this.begin(chunks[i]!);
        next = i + 1 < chunks.length ? this.begin(chunks[i + 1]!, current.done) : null;
        const failed = await current.done.then(
          () => null,
          (err: unknown) => ({ err }),
        );
        if (!failed) continue;
        // The next chunk waits on this one: it keeps nothing, and starts again after it.
        await next?.done.catch(() => undefined);
        next = null;
        const refusal = await this.applyAlone(current.part, failed.err);
        if (refusal) return refusal;
      }
      return null;
    } finally {
      this.leaving = true;
      await next?.done.catch(() => undefined);
    }
  }

  private begin(part: readonly PlanItem[], after?: Promise<void>): Running {
    const done = this.commit(part, after);
    done.catch(() => undefined); // awaited in its turn; a failure before then is not unhandled
    return { part, done };
  }

  /**
   * Applies `part` in one transaction: its writes (the steps that lock shared rows held back), then,
   * once `after` (the chunk before it) has committed, those steps and the job's progress; then the
   * tables it grew are analyzed when they have grown enough (db/statistics.ts). Throws, keeping
   * nothing, when `after` fails or the run has left.
   */
  private async commit(part: readonly PlanItem[], after: Promise<void> = Promise.resolve()): Promise<void> {
    const { db, clock, config } = this.deps;
    const rows = part.reduce((n, item) => n + rowsOf(item), 0);
    const { did, tally } = await db.transaction(async (tx) => {
      const ctx: ServiceContext = { tx, actor: this.actor, clock, config, heldSteps: [] };
      const did = await applyItems(ctx, part);
      await after;
      if (this.leaving) throw new JobInterrupted();
      await runHeldSteps(ctx);
      const tally = addTally(this.tally, did);
      const moved = await tx
        .update(importJobs)
        .set({ applied: this.applied + part.length, done: this.done + rows, counts: tally })
        .where(and(eq(importJobs.id, this.job.id), eq(importJobs.applied, this.applied)))
        .returning({ id: importJobs.id });
      // Another run of this job got there first: nothing of this chunk stays.
      if (!moved.length) throw new JobInterrupted();
      return { did, tally };
    });
    this.applied += part.length;
    this.done += rows;
    this.tally = tally;
    if (this.job.kind === 'training-certificate') {
      await this.statistics.grew(trainingCertificates, did.clients.created);
    } else {
      await this.statistics.grew(clientCertificates, did.clients.created);
      await this.statistics.grew(schemes, did.schemes.created);
    }
  }

  /**
   * A chunk that failed, applied again alone: whole after a deadlock, else (a record the services
   * refuse) a record at a time to find its row. Answers that row's refusal, or null once the chunk
   * is in; throws what is not a refusal (the engine retries the job).
   */
  private async applyAlone(part: readonly PlanItem[], err: unknown): Promise<ImportCellError | null> {
    if (pgError(err)?.code === DEADLOCK_DETECTED) {
      try {
        await this.commit(part);
        return null;
      } catch (again) {
        err = again;
      }
    }
    if (err instanceof JobInterrupted || !(rowRefusal(part[0]!, err) || err instanceof AppError)) throw err;
    for (const item of part) {
      try {
        await this.commit([item]);
      } catch (one) {
        const cell = rowRefusal(item, one);
        if (!cell) throw one;
        return cell;
      }
    }
    return null;
  }
}

/** The job's plan now, or why it cannot go on (the file no longer fits what is stored). */
async function planOfJob(
  deps: ImportDeps,
  job: JobRow & { file: Buffer },
): Promise<ImportPlan | ImportJobError> {
  const handed = deps.plans.take(job.id);
  if (handed && job.applied === 0) return handed;
  try {
    return await planImport(deps.db, job.kind as ImportKind, job.company_id, job.file);
  } catch (err) {
    if (err instanceof ImportInvalid)
      return {
        code: ERROR_CODES.validation,
        message: IMPORT_MESSAGES.changedMeanwhile(job.done),
        rows: err.rows,
      };
    if (err instanceof AppError && err.statusCode < 500) return { code: err.code, message: err.message };
    throw err;
  }
}

/**
 * Runs an import job (the engine's handler). Ends the job done or failed; throws (the engine
 * retries) only for an error that is not the file's (the database went away), or JobInterrupted
 * when the process stops.
 */
export async function runImport(deps: ImportDeps, id: string, run: JobRun): Promise<void> {
  const { db, clock } = deps;
  const [job] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!job || job.state === 'done' || job.state === 'failed' || !job.file) return;
  await db
    .update(importJobs)
    .set({ state: 'running', started_at: job.started_at ?? clock.now() })
    .where(eq(importJobs.id, id));
  const fail = (error: ImportJobError) =>
    finish(db, id, { state: 'failed', error, finished_at: clock.now() });
  const actor = actorOfJob(job);
  const kind = job.kind as ImportKind;
  try {
    const plan = await planOfJob(deps, { ...job, file: job.file });
    if (!('kind' in plan)) return await fail(plan);
    // Planned again, the file may now change records stored since its check.
    if (planUpdates(plan) && !actor.permissions.has(`${kind}:edit`))
      return await fail({ code: ERROR_CODES.forbidden, message: IMPORT_MESSAGES.needsEdit });
    const pipeline = new ChunkPipeline(deps, job, actor);
    const chunks = chunksOf(itemsOf(plan).slice(job.applied), deps.config.importChunkRows);
    const refusal = await pipeline.run(chunks, run.stopping);
    if (refusal)
      return await fail({
        code: ERROR_CODES.validation,
        message: IMPORT_MESSAGES.stoppedAt(refusal.row, pipeline.rowsDone),
        rows: [refusal],
      });
    await finish(db, id, {
      state: 'done',
      result: resultOf(kind, job.total, pipeline.result),
      finished_at: clock.now(),
    });
  } catch (err) {
    if (err instanceof JobInterrupted || !run.lastAttempt) throw err;
    await fail({ code: ERROR_CODES.internal, message: IMPORT_MESSAGES.failed });
    throw err;
  }
}

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
