import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { acquireDataDirLock } from './lock';

export { schema };
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or a transaction: repositories accept both. */
export type Executor = Db | Tx;

/** PGlite is always opened with the same extensions (CONVENTIONS.md). */
export const PGLITE_EXTENSIONS = { pg_trgm };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL text (migrations). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** An existing PGlite (tests); the caller owns its lifetime unless closeClient is set. */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    pool.on('error', () => {
      /* idle client errors are reported on the next query */
    });
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
  const db = drizzlePglite(owned, { schema }) as unknown as Db;
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
