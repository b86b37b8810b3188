import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from './schema';
import { withCommitHooks } from './after-commit';
import { AppPool } from './app-pool';
import { type EmbeddedLog, type EmbeddedServer, startEmbeddedServer } from './embedded';
import { statementName } from './prepared';
import type { Db } from './types';

export { schema };
export type { Db, Executor, Schema, Tx } from './types';

export interface Database {
  db: Db;
  /** The connection pool under `db` (overload is judged by its queue: db/app-pool.ts). */
  pool: AppPool;
  /** `embedded`: the server of DATA_DIR, run by this process; `external`: DATABASE_URL's. */
  kind: 'embedded' | 'external';
  /** The embedded server, when this process runs it. */
  server: EmbeddedServer | undefined;
  /** Runs raw SQL text (migrations). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

/** Where a slow query is reported: pino's `warn` fits. */
export interface SlowQueryLogger {
  warn(entry: { statement: string; durationMs: number }, message: string): void;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** Where the embedded server reports its life (start, restart); unset: nowhere. */
  serverLog?: EmbeddedLog | undefined;
  /** PostgreSQL: connections in the pool (DB_POOL_SIZE, default 10). */
  poolSize?: number;
  /** PostgreSQL: a statement running longer is cancelled by the server (DB_STATEMENT_TIMEOUT_MS; 0: none). */
  statementTimeoutMs?: number;
  /**
   * A query waiting longer for a connection of the pool (or for a new one to open) fails, answered 503
   * (DB_ACQUIRE_TIMEOUT_MS; 0 or unset: it waits as long as it takes).
   */
  acquireTimeoutMs?: number | undefined;
  /** A query taking at least this long is logged at warn (SLOW_QUERY_MS); unset: not timed. */
  slowQueryMs?: number | undefined;
  logger?: SlowQueryLogger | undefined;
}

/**
 * The statement a log line names: a prepared query's name, otherwise the start of its SQL text.
 * Values travel as parameters ($1...), apart from the text, so neither form holds any of them.
 */
function statementOf(query: unknown): string {
  if (typeof query === 'string') return statementName(query) ?? query.replace(/\s+/g, ' ').slice(0, 120);
  const q = query as { name?: unknown; text?: unknown } | null;
  if (typeof q?.name === 'string' && q.name) return q.name;
  return typeof q?.text === 'string' ? statementOf(q.text) : 'query';
}

/** Wraps a `query(config, ...)` method so that a call taking at least `ms` is logged with its duration. */
function timed<F extends (...args: never[]) => unknown>(query: F, ms: number, logger: SlowQueryLogger): F {
  const report = (statement: string, started: number) => {
    const durationMs = performance.now() - started;
    if (durationMs >= ms) logger.warn({ statement, durationMs: Math.round(durationMs) }, 'slow query');
  };
  return function (this: unknown, ...args: never[]) {
    const started = performance.now();
    const statement = statementOf(args[0]);
    // node-postgres' callback forms (the pool uses them): the callback is the last argument.
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...results: unknown[]) => unknown;
      const wrapped = [...args] as unknown[];
      wrapped[last] = (...results: unknown[]) => {
        report(statement, started);
        return callback(...results);
      };
      return query.apply(this, wrapped as never[]);
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) {
      result.then(
        () => report(statement, started),
        () => report(statement, started),
      );
    }
    return result;
  } as F;
}

/** Opens a pool on a PostgreSQL server: DATABASE_URL's, or the embedded one of DATA_DIR. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  let server: EmbeddedServer | undefined;
  let url = opts.databaseUrl;
  if (!url) {
    server = await startEmbeddedServer(opts.dataDir ?? './data', { log: opts.serverLog });
    url = server.url;
  }
  const pool = new AppPool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    ...(opts.acquireTimeoutMs ? { connectionTimeoutMillis: opts.acquireTimeoutMs } : {}),
  });
  pool.on('error', () => {
    /* idle client errors are reported on the next query */
  });
  // A connection the server ends while it is checked out between two queries (a transaction
  // waiting on the app; the server restarting) emits 'error' outside any query: without a listener
  // that would end the process. The request using it fails on its next query instead (503).
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const { slowQueryMs, logger } = opts;
  if (slowQueryMs !== undefined && logger) {
    // Every query of the pool, transactions included, runs through its connection's query().
    pool.on('connect', (client) => {
      client.query = timed<typeof client.query>(client.query.bind(client), slowQueryMs, logger);
    });
  }
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    await server?.stop();
    throw err;
  }
  // Work that waits for a commit (db/after-commit.ts: the webhook sender's wake-up).
  const db = withCommitHooks(drizzle(pool, { schema }));
  return {
    db,
    pool,
    kind: server ? 'embedded' : 'external',
    server,
    exec: async (text) => {
      await pool.query(text);
    },
    close: async () => {
      await pool.end();
      await server?.stop();
    },
  };
}
