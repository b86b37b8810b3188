/**
 * The one job engine (docs/rules.md#jobs, docs/architecture.md#jobs): every piece of work that outlives a request
 * (an import's apply, the scheduled backup; later reminders and deliveries) is a job of pg-boss, in
 * the `pgboss` schema of the app's own PostgreSQL (embedded or DATABASE_URL alike, through a
 * connection pool of the engine's own, below). Jobs are rows: they survive a restart, any API process of a cluster may run
 * them, a failed attempt is retried with backoff, a job whose process died (no heartbeat) is
 * retried by any other, and a task may run on a cron schedule (one run per slot across the cluster).
 *
 * A module describes its tasks with `define` while the app is built; the engine starts with the app
 * (`onReady`) and stops with it (`onClose`): a graceful stop lets running handlers see `stopping`
 * and end at a safe point (an import after its current chunk), then waits for them.
 *
 * The engine's own queries (looking for jobs, heartbeats, schedules, upkeep) go through a pool of
 * their own, of ENGINE_CONNECTIONS connections to the same server: they never wait in line with requests for the
 * app's connections, so they neither slow requests down nor count as the pool waits that shed load
 * (docs/architecture.md#overload), and a database outage fails them on their own. A handler's work
 * (an import's chunk) and a job sent in a writer's transaction use the app's pool, as a request does.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type DrizzleTransactionLike, fromDrizzle, type Job, PgBoss, type QueueOptions } from 'pg-boss';
import pg from 'pg';
import type { Db, Executor } from '../db';
import { isDatabaseUnavailable } from '../lib/errors';

/** The schema pg-boss keeps its tables in. */
export const JOB_SCHEMA = 'pgboss';

/** What a task's handler gets besides the job's data. */
export interface JobRun {
  /** The engine's job id. */
  id: string;
  /** 0 on the first attempt, then 1, 2, ... */
  attempt: number;
  /** True on the attempt after which the engine gives up. */
  lastAttempt: boolean;
  /** Aborted when the process stops: end at a safe point and throw JobInterrupted. */
  stopping: AbortSignal;
}

/** Thrown by a handler that stopped early because the process stops: the job runs again elsewhere. */
export class JobInterrupted extends Error {
  constructor() {
    super('job interrupted by shutdown; it runs again');
    this.name = 'JobInterrupted';
  }
}

export interface TaskDef<D extends object> {
  /** Queue name. */
  name: string;
  /** Retries, backoff, heartbeat of the task's jobs. */
  queue?: QueueOptions & { policy?: 'standard' | 'singleton' | 'stately' };
  /** A cron expression (in `timeZone`): the engine sends a job at each slot; null: not scheduled. */
  schedule?: { cron: string; timeZone: string } | null;
  handler: (data: D, run: JobRun) => Promise<void>;
  /**
   * Called once (on any process) for a job of the task that ran out of retries, whatever ended its
   * last attempt: an error, or a process that died mid-run (its heartbeat stopped), after which no
   * handler of it runs again. The job goes to a queue of its own (`<name>-exhausted`, the task
   * queue's dead letter), so this runs even when no process of the failed attempts is left.
   */
  exhausted?: (data: D) => Promise<void>;
}

export interface EngineSettings {
  /** How often an idle worker looks for jobs, in milliseconds. */
  pollMs: number;
  /** How often a process checks for jobs whose process stopped beating, in seconds. */
  monitorSeconds: number;
  /** How often schedules are checked, in seconds (1-45). */
  cronCheckSeconds: number;
}

export interface JobEngine {
  /** Describes a task; call before the app is ready. */
  define<D extends object>(task: TaskDef<D>): void;
  /**
   * Sends a job to a task's queue; with `tx`, in that transaction (the job exists only if it
   * commits). `id`: the job's id, so sending the same job twice sends it once.
   */
  send(name: string, data: object, opts?: { tx?: Executor; id?: string }): Promise<string | null>;
  /**
   * Tells this process's worker of a task to look for jobs now instead of at its next poll (after
   * the transaction that sent a job has committed); nothing when the engine has not started.
   */
  wake(name: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly started: boolean;
}

/**
 * A transaction as pg-boss's drizzle adapter takes it: our executor's `execute` answers node-postgres'
 * result ({rows}), which the adapter reads; only its declared answer type is wider.
 */
const inTransaction = (tx: Executor): DrizzleTransactionLike => ({
  execute: async (query: unknown) => (await tx.execute(query as SQL)) as { rows: unknown[] },
});

/** How many connections the engine's own pool holds, besides the app's DB_POOL_SIZE. */
export const ENGINE_CONNECTIONS = 2;
/** The engine's connections' application_name on the server (pg_stat_activity). */
export const ENGINE_APPLICATION_NAME = 'sertifikasi-jobs';

/** A pool of the engine's own on the server of the node-postgres pool behind a drizzle database. */
function enginePool(db: Db): pg.Pool {
  const { options } = db.$client;
  const { connectionString, host, port, user, password, database, ssl, statement_timeout } = options;
  const pool = new pg.Pool({
    connectionString,
    host,
    port,
    user,
    password,
    database,
    ssl,
    statement_timeout,
    application_name: ENGINE_APPLICATION_NAME,
    max: ENGINE_CONNECTIONS,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server ends: the next query fails and pg-boss reports it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

export function createJobEngine(db: Db, settings: EngineSettings, log: FastifyBaseLogger): JobEngine {
  let pool: pg.Pool | null = null;
  const tasks = new Map<string, TaskDef<object>>();
  const stopping = new AbortController();
  let boss: PgBoss | null = null;
  /** This process's worker of each task (pg-boss's worker id), for `wake`. */
  const workers = new Map<string, string>();

  const engine: JobEngine = {
    get started() {
      return boss !== null;
    },
    define(task) {
      if (boss) throw new Error(`task ${task.name} defined after the job engine started`);
      tasks.set(task.name, task as TaskDef<object>);
    },
    async send(name, data, opts = {}) {
      if (!boss) throw new Error('the job engine is not started');
      return boss.send(name, data, {
        ...(opts.id ? { id: opts.id } : {}),
        ...(opts.tx ? { db: fromDrizzle(inTransaction(opts.tx), sql) } : {}),
      });
    },
    wake(name) {
      const worker = workers.get(name);
      if (boss && worker) boss.notifyWorker(worker);
    },
    async start() {
      const own = enginePool(db);
      pool = own;
      const b = new PgBoss({
        db: { executeSql: (text, values) => own.query(text, values) },
        schema: JOB_SCHEMA,
        monitorIntervalSeconds: settings.monitorSeconds,
        superviseIntervalSeconds: settings.monitorSeconds,
        cronMonitorIntervalSeconds: settings.cronCheckSeconds,
        cronWorkerIntervalSeconds: settings.cronCheckSeconds,
        openTelemetry: { enabled: false },
      });
      // The database out of reach is an outage the requests already report (503, a warning), not
      // a fault of the engine: it tries again by itself.
      b.on('error', (err: unknown) => {
        if (isDatabaseUnavailable(err)) log.warn({ err }, 'job engine: database unavailable');
        else log.error({ err }, 'job engine error');
      });
      await b.start();
      const pollingIntervalSeconds = Math.max(0.5, settings.pollMs / 1000);
      for (const task of tasks.values()) {
        const { policy, ...queue } = task.queue ?? {};
        const exhausted = task.exhausted;
        const deadLetter = exhausted ? `${task.name}-exhausted` : undefined;
        if (exhausted && deadLetter) {
          await b.createQueue(deadLetter, { retryLimit: 5, retryDelay: 2, retryBackoff: true });
          await b.work<object>(deadLetter, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
            await exhausted(job?.data ?? {});
          });
        }
        await b.createQueue(task.name, {
          ...queue,
          ...(policy ? { policy } : {}),
          ...(deadLetter ? { deadLetter } : {}),
        });
        // A queue made before the task had one (createQueue leaves an existing queue as it is).
        if (deadLetter) await b.updateQueue(task.name, { deadLetter });
        if (task.schedule)
          await b.schedule(task.name, task.schedule.cron, {}, { tz: task.schedule.timeZone });
        else await b.unschedule(task.name);
        const worker = await b.work<object>(
          task.name,
          {
            batchSize: 1,
            includeMetadata: true,
            pollingIntervalSeconds,
          },
          async ([job]) => {
            const j = job as Job<object> & { retryLimit: number };
            try {
              await task.handler(j.data ?? {}, {
                id: j.id,
                attempt: j.retryCount,
                lastAttempt: j.retryCount >= j.retryLimit,
                stopping: stopping.signal,
              });
            } catch (err) {
              if (err instanceof JobInterrupted) log.info({ task: task.name, job: j.id }, err.message);
              else log.error({ err, task: task.name, job: j.id, attempt: j.retryCount }, 'job failed');
              throw err;
            }
          },
        );
        workers.set(task.name, worker);
      }
      boss = b;
    },
    async stop() {
      const b = boss;
      if (b) {
        stopping.abort();
        await b.stop({ graceful: true, timeout: 20_000, close: true });
        boss = null;
        workers.clear();
      }
      await pool?.end().catch(() => undefined);
      pool = null;
    },
  };
  return engine;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The job engine (jobs/engine.ts): define tasks while building, send jobs from routes. */
    jobs: JobEngine;
  }
}

/**
 * The engine as part of the app: `app.jobs`, started when the app is ready (every task defined by
 * then) and stopped when it closes; not started at all with `run: false` (an app built only to
 * describe its routes).
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, settings: EngineSettings & { run: boolean }) => {
    const engine = createJobEngine(app.db, settings, app.log);
    app.decorate('jobs', engine);
    if (!settings.run) return;
    app.addHook('onReady', async () => {
      await engine.start();
    });
    app.addHook('onClose', async () => {
      await engine.stop();
    });
  },
  { name: 'jobs' },
);
