/**
 * The database's types, apart from the code that opens it (index.ts), so that what runs queries
 * (prepared.ts, repositories) can name them without importing index.ts: db/ has no import cycle.
 */
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import type * as schema from './schema';

export type Schema = typeof schema;
/** The database: drizzle over a node-postgres pool (`$client`: the pool, for its counts and settings). */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>> & { $client: Pool };
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or a transaction: repositories accept both. */
export type Executor = Db | Tx;
