import fs from 'node:fs';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  backupTables,
  migrationLevel,
  tableName,
} from './backup';
import type { Database } from './index';
import { migrate, readMigrations } from './migrate';
import { rebuildDerived } from '../services/derived';

/** A restore refused before anything was written: the message says why. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

type Line = { t: string; r: Record<string, unknown> } | { end: true; counts: Record<string, number> };

/** The lines of a backup file after its header, parsed; a damaged file throws RestoreRefusedError. */
async function* readBackup(file: string): AsyncGenerator<Line> {
  const damaged = (why: string) =>
    new RestoreRefusedError(
      `The backup file ${file} is damaged or not a backup (${why}); nothing was written.`,
    );
  if (!fs.existsSync(file)) throw new RestoreRefusedError(`No file ${file}; nothing was written.`);
  const gunzip = zlib.createGunzip();
  const lines = readline.createInterface({
    input: fs.createReadStream(file).pipe(gunzip),
    crlfDelay: Infinity,
  });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw damaged(`line ${n} is not readable`);
      }
      yield value as Line;
    }
  } catch (err) {
    if (err instanceof RestoreRefusedError) throw err;
    throw damaged((err as Error).message);
  }
  if (n === 0) throw damaged('it is empty');
}

interface Checked {
  header: BackupHeader;
  counts: Record<string, number>;
}

/** Reads the whole file once and checks it: format, known tables and migrations, complete, counts. */
async function checkBackup(file: string, known: PgTable[]): Promise<Checked> {
  const damaged = (why: string) =>
    new RestoreRefusedError(
      `The backup file ${file} is damaged or not a backup (${why}); nothing was written.`,
    );
  let header: BackupHeader | undefined;
  let end: Record<string, number> | undefined;
  const seen: Record<string, number> = {};
  const names = new Set(known.map(tableName));
  for await (const line of readBackup(file)) {
    if (!header) {
      const h = line as unknown as BackupHeader;
      if (h.format !== BACKUP_FORMAT || !Array.isArray(h.migrations) || !Array.isArray(h.tables)) {
        throw damaged('no backup header');
      }
      if (h.version !== BACKUP_VERSION) {
        throw new RestoreRefusedError(
          `The backup has format version ${h.version}; this version reads ${BACKUP_VERSION}.`,
        );
      }
      for (const t of h.tables) if (!names.has(t)) throw damaged(`unknown table ${t}`);
      header = h;
      continue;
    }
    if (end) throw damaged('lines after its end');
    if ('end' in line) {
      end = line.counts;
      continue;
    }
    if (typeof line.t !== 'string' || !header.tables.includes(line.t) || typeof line.r !== 'object') {
      throw damaged('a row of no known table');
    }
    seen[line.t] = (seen[line.t] ?? 0) + 1;
  }
  if (!header) throw damaged('no backup header');
  if (!end) throw damaged('it ends before its last line: cut short');
  for (const t of header.tables) {
    if ((seen[t] ?? 0) !== (end[t] ?? 0))
      throw damaged(`${t} holds ${seen[t] ?? 0} rows, ${end[t] ?? 0} expected`);
  }
  return { header, counts: end };
}

/** Tables of the schema that hold any row (those that exist at all). */
async function nonEmptyTables(database: Database, tables: PgTable[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    const name = tableName(table);
    const exists = await database.db.execute(sql`select to_regclass(${`public.${name}`}) is not null as e`);
    if (!(exists as { rows: { e: boolean }[] }).rows[0]?.e) continue;
    const any = await database.db.execute(sql`select exists(select 1 from ${table}) as e`);
    if ((any as { rows: { e: boolean }[] }).rows[0]?.e) found.push(name);
  }
  return found;
}

export interface RestoreResult {
  counts: Record<string, number>;
  migrations: string[];
}

/**
 * Loads a backup into an empty database of either kind (DECISIONS.md section 13): checks the whole
 * file first, refuses a non-empty database, migrates, loads every table in one transaction and
 * compares the row counts with the file's. A refusal or a failure writes nothing.
 */
export async function restoreBackup(database: Database, file: string): Promise<RestoreResult> {
  const tables = backupTables();
  const { header, counts } = await checkBackup(file, tables);
  const known = readMigrations().map((m) => m.name);
  const unknown = header.migrations.filter((m) => !known.includes(m));
  if (unknown.length) {
    throw new RestoreRefusedError(
      `The backup was made by a newer version (migration ${unknown.join(', ')} is unknown here): restore it with that version; nothing was written.`,
    );
  }
  if (header.migrations.join('\n') !== known.join('\n')) {
    throw new RestoreRefusedError(
      `The backup was made at migration ${header.migrations.at(-1) ?? '(none)'}, this version is at ${known.at(-1)}: restore it with the version that made it, then start this one to upgrade; nothing was written.`,
    );
  }
  const busy = await nonEmptyTables(database, tables);
  if (busy.length) {
    throw new RestoreRefusedError(
      `The database is not empty (${busy.join(', ')} hold rows): restore only into a new, empty database; nothing was written.`,
    );
  }
  await migrate(database);
  const byName = new Map(tables.map((t) => [tableName(t), t]));
  await database.db.transaction(async (tx) => {
    // Tables are written parents first (the file's order); rows go in batches.
    let batch: Record<string, unknown>[] = [];
    let current: string | undefined;
    const flush = async () => {
      if (!current || !batch.length) return;
      const table = byName.get(current)!;
      await tx.execute(
        sql`insert into ${table} select * from json_populate_recordset(null::${table}, ${JSON.stringify(batch)}::json)`,
      );
      batch = [];
    };
    let first = true;
    for await (const line of readBackup(file)) {
      if (first) {
        first = false;
        continue;
      }
      if ('end' in line) break;
      if (line.t !== current) {
        await flush();
        current = line.t;
      }
      batch.push(line.r);
      if (batch.length >= 25) await flush();
    }
    await flush();
    // The derived tables are not in a backup: the register counts are made again from the records
    // just loaded, the list versions anew.
    await rebuildDerived(tx);
    for (const table of tables) {
      const name = tableName(table);
      const got = await tx.execute(sql`select count(*)::int as n from ${table}`);
      const n = (got as { rows: { n: number }[] }).rows[0]?.n ?? 0;
      if (n !== (counts[name] ?? 0)) {
        throw new Error(
          `After loading, ${name} holds ${n} rows, the backup ${counts[name] ?? 0}; nothing was kept.`,
        );
      }
    }
  });
  return { counts, migrations: await migrationLevel(database.db) };
}
