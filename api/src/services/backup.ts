import type { Clock } from '../lib/clock';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db';
import { type ByteBatching, tableLines } from '../db/keyset';
import * as schema from '../db/schema';
import { DERIVED_TABLES } from './derived';
import { createSecretFile } from '../lib/secret-file';

/**
 * The backup file (docs/operations.md#backup-and-restore): gzip of JSON lines.
 *   {"format":"sertifikasi-backup","version":1,"created_at":…,"migrations":[…],"tables":[…]}
 *   {"t":"<table>","r":{…row as PostgreSQL's row_to_json gives it…}}      one line a row
 *   {"end":true,"counts":{"<table>":n,…}}
 * Every table of db/schema.ts is in it (read from the schema module, so a new table needs no change
 * here) but the ones below; rows are read in one REPEATABLE READ, read-only transaction, so the file
 * is one consistent moment of a running system. A table's rows come in primary-key order (the
 * reader's keyset order, docs/architecture.md#long-reads), whatever the batches. row_to_json /
 * json_populate_recordset carry every type exactly (bytea images as hex, timestamps with their zone).
 */
export const BACKUP_FORMAT = 'sertifikasi-backup';
export const BACKUP_VERSION = 1;

/**
 * Not backed up (nor restored): sessions and sign-in counters (everyone signs in again), the work
 * done on this installation (import jobs, the scheduled backup's last run: jobs/), and the
 * derived tables (register counts, list versions: services/derived.ts), made again by the restore.
 */
const NOT_BACKED_UP: readonly PgTable[] = [
  schema.sessions,
  schema.loginFailures,
  schema.loginThrottleKeys,
  schema.importJobs,
  schema.scheduledRuns,
  ...DERIVED_TABLES,
];

export interface BackupHeader {
  format: string;
  version: number;
  created_at: string;
  migrations: string[];
  tables: string[];
}

/** Every table of the schema module a backup holds, parents before children (foreign keys). */
export function backupTables(): PgTable[] {
  const tables = (Object.values(schema) as unknown[]).filter(
    (value): value is PgTable => is(value, PgTable) && !NOT_BACKED_UP.includes(value),
  );
  const name = (t: PgTable) => getTableConfig(t).name;
  const byName = new Map(tables.map((t) => [name(t), t]));
  const ordered: PgTable[] = [];
  const visiting = new Set<string>();
  const visit = (t: PgTable) => {
    const n = name(t);
    if (ordered.includes(t) || visiting.has(n)) return;
    visiting.add(n);
    for (const fk of getTableConfig(t).foreignKeys) {
      const parent = byName.get(name(fk.reference().foreignTable));
      if (parent && parent !== t) visit(parent);
    }
    ordered.push(t);
  };
  [...tables].sort((a, b) => name(a).localeCompare(name(b))).forEach(visit);
  return ordered;
}

export const tableName = (t: PgTable) => getTableConfig(t).name;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** The migrations applied to a database, in the order they were applied. */
export async function migrationLevel(db: Executor): Promise<string[]> {
  const rows = rowsOf(await db.execute(sql`select name from _migrations order by applied_at, name`));
  return rows.map((r) => String(r.name));
}

export interface BackupOptions {
  /** How the tables are read: batches of about this many bytes (db/keyset.ts; tests make them tiny). */
  batching?: ByteBatching;
  /**
   * Called after each batch is written (the next one may already be on its way, in the same
   * snapshot): the table, and its rows written so far. A test writes through it while the backup runs.
   */
  onBatch?: (table: string, rows: number) => void | Promise<void>;
}

/**
 * Writes a backup of `database` to `file` (gzip). The snapshot's rows go to the file as they are
 * read (nothing is kept in memory beyond a batch and the next one on its way), and the transaction
 * ends with the file: neither the embedded database (one connection) nor a pooled connection waits
 * for a slow download. Each table is read in primary-key order by keyset, in batches of bytes
 * (`tableLines`, db/keyset.ts; docs/architecture.md#long-reads): the time grows with the
 * register, not with its square. The database writes each row's line of the file itself, so the
 * rows are never decoded here.
 *
 * A backup is a secret (docs/rules.md#backup): `file` is created 0600, and only if nothing is at
 * that name (a file or a link put there is refused, never followed: NameTakenError, lib/secret-file.ts).
 */
export async function writeBackup(
  db: Db,
  file: string,
  now: Date,
  options: BackupOptions = {},
): Promise<void> {
  const tables = backupTables();
  // Before the try: a name already taken is not ours to remove.
  const fd = createSecretFile(file);
  const gzip = zlib.createGzip();
  const out = fs.createWriteStream(file, { fd });
  const done = pipeline(gzip, out);
  const write = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  try {
    await db.transaction(
      async (tx) => {
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          created_at: now.toISOString(),
          migrations: await migrationLevel(tx),
          tables: tables.map(tableName),
        };
        await write(`${JSON.stringify(header)}\n`);
        const counts: Record<string, number> = {};
        for (const table of tables) {
          const name = tableName(table);
          counts[name] = 0;
          // {"t":"<table>","r":<row_to_json>}: the very line JSON.stringify made of the two.
          const line = sql`${`{"t":${JSON.stringify(name)},"r":`}::text || row_to_json(t)::text || '}'`;
          for await (const batch of tableLines(tx, table, line, options.batching)) {
            await write(`${batch.text}\n`);
            counts[name] += batch.rows;
            await options.onBatch?.(name, counts[name]);
          }
        }
        await write(`${JSON.stringify({ end: true, counts })}\n`);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    gzip.end();
    await done;
  } catch (err) {
    gzip.destroy();
    await done.catch(() => undefined);
    fs.rmSync(file, { force: true });
    throw err;
  }
}

/**
 * Writes a backup to `file` whole or not at all: into a temporary file beside it
 * (`.<name>.<pid>.partial`, created as writeBackup does: 0600, refused if the name is taken), renamed
 * to `file` once complete (replacing a file, or a link, of that name; never writing through it).
 */
export async function writeBackupFile(
  db: Db,
  file: string,
  now: Date,
  options: BackupOptions = {},
): Promise<void> {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  await writeBackup(db, partial, now, options);
  try {
    fs.renameSync(partial, file);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

/** `sertifikasi-<YYYYMMDD-HHmmss>.backup`, by the app clock's wall time in the deployment's time zone. */
export function backupFileName(clock: Pick<Clock, 'wallTime'>, now: Date): string {
  const { date, hour, minute, second } = clock.wallTime(now);
  const two = (n: number) => String(n).padStart(2, '0');
  return `sertifikasi-${date.replaceAll('-', '')}-${two(hour)}${two(minute)}${two(second)}.backup`;
}

/** A finished backup file as a stream that removes the file once read or abandoned. */
export function streamAndRemove(file: string): Readable {
  const stream = fs.createReadStream(file);
  stream.once('close', () => fs.rmSync(file, { force: true }));
  return stream;
}
