import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';
import { acquireDataDirLock } from './lock';
import { statementName } from './prepared';
import type { Db } from './types';

export { schema };
export type { Db, Executor, Schema, Tx } from './types';

/** PGlite is always opened with the same extensions (CONVENTIONS.md). */
export const PGLITE_EXTENSIONS = { pg_trgm };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
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
  /** An existing PGlite (tests); the caller owns its lifetime unless closeClient is set. */
  pglite?: PGlite;
  /** PostgreSQL: connections in the pool (DB_POOL_SIZE, default 10). */
  poolSize?: number;
  /** PostgreSQL: a statement running longer is cancelled by the server (DB_STATEMENT_TIMEOUT_MS; 0: none). */
  statementTimeoutMs?: number;
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

/** A PGlite (or one of its transactions) whose queries are timed, itself untouched (tests share it). */
function timedPglite<T extends object>(client: T, ms: number, logger: SlowQueryLogger): T {
  type Method = (...args: never[]) => unknown;
  const target = client as T & { query: Method; transaction: Method };
  const query = timed(target.query.bind(target), ms, logger);
  const transaction = (fn: (tx: object) => unknown, ...rest: unknown[]) =>
    (target.transaction as (...args: unknown[]) => unknown)(
      (tx: object) => fn(timedPglite(tx, ms, logger)),
      ...rest,
    );
  return new Proxy(target, {
    get(obj, prop) {
      if (prop === 'query') return query;
      if (prop === 'transaction') return transaction;
      const value: unknown = Reflect.get(obj, prop, obj);
      // Methods run on the PGlite itself (its private fields are not reachable through a proxy).
      return typeof value === 'function' && prop !== 'constructor'
        ? (value as (...args: unknown[]) => unknown).bind(obj)
        : value;
    },
  });
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    });
    pool.on('error', () => {
      /* idle client errors are reported on the next query */
    });
    const { slowQueryMs, logger } = opts;
    if (slowQueryMs !== undefined && logger) {
      // Every query of the pool, transactions included, runs through its connection's query().
      pool.on('connect', (client) => {
        client.query = timed<typeof client.query>(client.query.bind(client), slowQueryMs, logger);
      });
    }
    await pool.query('select 1');
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      exec: async (text) => {
        await pool.query(text);
      },
      close: () => pool.end(),
    };
  }
  let release: (() => void) | undefined;
  let client = opts.pglite;
  if (!client) {
    const dir = path.resolve(opts.dataDir ?? './data');
    release = acquireDataDirLock(dir);
    try {
      client = await PGlite.create(path.join(dir, 'pgdata'), { extensions: PGLITE_EXTENSIONS });
    } catch (err) {
      release();
      throw err;
    }
  }
  const owned = client;
  const timedClient =
    opts.slowQueryMs !== undefined && opts.logger ? timedPglite(owned, opts.slowQueryMs, opts.logger) : owned;
  const db = drizzlePglite(timedClient, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    exec: async (text) => {
      await owned.exec(text);
    },
    close: async () => {
      if (!opts.pglite) await owned.close();
      release?.();
    },
  };
}
