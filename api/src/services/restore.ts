import fs from 'node:fs';
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
import type { Database, Executor } from '../db';
import { BYTE_BATCHING, type ByteBatching } from '../db/keyset';
import { boundedLines, countLines, LineTooLongError } from '../lib/lines';
import { migrate, migrateWithin, readMigrations } from '../db/migrate';
import { rebuildDerived } from './derived';

/** A restore refused before anything was written: the message says why. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

const damagedFile = (file: string, why: string) =>
  new RestoreRefusedError(
    `The backup file ${file} is damaged or not a backup (${why}); nothing was written.`,
  );

/**
 * The longest line a backup may hold (docs/rules.md#backup), counted in the file's unpacked bytes: a
 * row with the largest image the API takes is far shorter. A longer line is refused, never read whole.
 */
export const MAX_LINE_BYTES = 64 * 2 ** 20;

/** The unpacked bytes of a backup file, and how to stop reading them. */
function unpacked(file: string): { bytes: AsyncIterable<Buffer>; close: () => void } {
  if (!fs.existsSync(file)) throw new RestoreRefusedError(`No file ${file}; nothing was written.`);
  const chunkSize = 2 ** 20;
  const input = fs.createReadStream(file, { highWaterMark: chunkSize });
  const gunzip = zlib.createGunzip({ chunkSize });
  input.once('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  return {
    bytes: gunzip,
    close: () => {
      input.destroy();
      gunzip.destroy();
    },
  };
}

/** A reading error as the refusal of a damaged file (a line too long, not gzip, cut short). */
function refusal(file: string, err: unknown): RestoreRefusedError {
  if (err instanceof RestoreRefusedError) return err;
  if (err instanceof LineTooLongError) {
    return damagedFile(
      file,
      `line ${err.line} is longer than ${err.maxBytes / 2 ** 20} MiB, the most a line may hold`,
    );
  }
  return damagedFile(file, (err as Error).message);
}

/**
 * The first reading of a file: every line's length, holding none of them, so that a line of more
 * than MAX_LINE_BYTES is refused with the memory of a chunk, not of the line.
 */
async function checkLineLengths(file: string): Promise<void> {
  const { bytes, close } = unpacked(file);
  let lines: number;
  try {
    lines = await countLines(bytes, MAX_LINE_BYTES);
  } catch (err) {
    throw refusal(file, err);
  } finally {
    close();
  }
  if (lines === 0) throw damagedFile(file, 'it is empty');
}

/** The text lines of a backup file, header included; a file that is not gzip throws RestoreRefusedError. */
async function* eachLine(file: string): AsyncGenerator<string> {
  const { bytes, close } = unpacked(file);
  let n = 0;
  try {
    for await (const text of boundedLines(bytes, MAX_LINE_BYTES)) {
      n++;
      yield text;
    }
  } catch (err) {
    throw refusal(file, err);
  } finally {
    close();
  }
  if (n === 0) throw damagedFile(file, 'it is empty');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The start of a row line as the writer makes it: `{"t":"<table>","r":<row>}`. */
const ROW_LINE = /^\{"t":"([a-z_][a-z0-9_]*)","r":/;

/** A line after the header: a row (its table, and the row as JSON text), or anything else, parsed. */
type Split = { t: string; row: string } | { other: unknown };

/**
 * Splits a line after the header. A row line in the writer's own form is cut where its row starts
 * and ends, so the load sends the row's text on as it is, never parsed and written again. With
 * `check` (the first reading) that row is also parsed: the cut then holds exactly what a JSON
 * parser reads, an object of `t` and `r`, `r` an object. Any other line (another writer's
 * spacing, the end line) is parsed whole; `other` is undefined for a line that is not JSON.
 */
function splitLine(text: string, check: boolean): Split {
  const match = ROW_LINE.exec(text);
  if (match && text.endsWith('}')) {
    const row = text.slice(match[0].length, -1);
    if (!check) return { t: match[1]!, row };
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      value = undefined;
    }
    if (isObject(value)) return { t: match[1]!, row };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { other: undefined };
  }
  if (isObject(parsed) && typeof parsed.t === 'string' && isObject(parsed.r)) {
    return { t: parsed.t, row: JSON.stringify(parsed.r) };
  }
  return { other: parsed };
}

interface Checked {
  header: BackupHeader;
  counts: Record<string, number>;
}

/** Reads the whole file once and checks it: format, known tables and migrations, complete, counts. */
async function checkBackup(file: string, known: PgTable[]): Promise<Checked> {
  const damaged = (why: string) => damagedFile(file, why);
  let header: BackupHeader | undefined;
  let end: Record<string, number> | undefined;
  const seen: Record<string, number> = {};
  const names = new Set(known.map(tableName));
  let n = 0;
  for await (const text of eachLine(file)) {
    n++;
    if (!header) {
      let h: Partial<BackupHeader> | undefined;
      try {
        h = JSON.parse(text) as Partial<BackupHeader>;
      } catch {
        throw damaged(`line ${n} is not readable`);
      }
      if (
        !isObject(h) ||
        h.format !== BACKUP_FORMAT ||
        !Array.isArray(h.migrations) ||
        !Array.isArray(h.tables)
      ) {
        throw damaged('no backup header');
      }
      if (h.version !== BACKUP_VERSION) {
        throw new RestoreRefusedError(
          `The backup has format version ${h.version}; this version reads ${BACKUP_VERSION}.`,
        );
      }
      for (const t of h.tables) if (!names.has(t)) throw damaged(`unknown table ${t}`);
      header = h as BackupHeader;
      continue;
    }
    if (end) throw damaged('lines after its end');
    const line = splitLine(text, true);
    if ('other' in line) {
      if (line.other === undefined) throw damaged(`line ${n} is not readable`);
      const last = line.other as Partial<{ end: unknown; counts: unknown }>;
      if (isObject(last) && last.end === true && isObject(last.counts)) {
        end = last.counts as Record<string, number>;
        continue;
      }
      throw damaged('a row of no known table');
    }
    if (!header.tables.includes(line.t)) throw damaged('a row of no known table');
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

/**
 * Sets aside, for a bulk load of `tables` in the caller's transaction, what makes each inserted row
 * costly: the tables' foreign keys (a lookup in the parent table for every row) and the indexes no
 * primary key or unique constraint owns (search, sort and lookup indexes; the trigram ones are the
 * dearest to keep up row by row). Answers the statements that make them again, as the database
 * itself describes them (`pg_get_indexdef`, `pg_get_constraintdef`): after the load each index is
 * built once from all the rows and each foreign key is checked by one join, as pg_restore does, so
 * a missing parent still fails the restore. Keys stay (rows are checked for duplicates as they go
 * in; setting them aside too gained nothing measurable). All in the load's transaction: a failure
 * leaves the migrated tables as they were.
 */
async function setAsideForLoad(tx: Executor, tables: string[]): Promise<string[]> {
  const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
  const names = `{${tables.join(',')}}`;
  const foreignKeys = rows<{ drop: string; add: string }>(
    await tx.execute(sql`
      select format('alter table %I.%I drop constraint %I', n.nspname, t.relname, c.conname) as drop,
        format('alter table %I.%I add constraint %I ', n.nspname, t.relname, c.conname) || pg_get_constraintdef(c.oid) as add
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
      where c.contype = 'f' and n.nspname = current_schema() and t.relname = any(${names}::text[])
      order by t.relname, c.conname`),
  );
  // An index a constraint owns (a primary key, a unique constraint) or that a foreign key points to stays.
  const indexes = rows<{ drop: string; add: string }>(
    await tx.execute(sql`
      select format('drop index %I.%I', n.nspname, x.relname) as drop, pg_get_indexdef(i.indexrelid) as add
      from pg_index i join pg_class t on t.oid = i.indrelid join pg_class x on x.oid = i.indexrelid
        join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema() and t.relname = any(${names}::text[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by t.relname, x.relname`),
  );
  for (const { drop } of [...foreignKeys, ...indexes]) await tx.execute(sql.raw(drop));
  return [...indexes.map((i) => i.add), ...foreignKeys.map((f) => f.add)];
}

export interface RestoreResult {
  counts: Record<string, number>;
  migrations: string[];
}

export interface RestoreOptions {
  /** Rows are inserted in batches of about `targetBytes`, at most `maxRows` (tests make them tiny). */
  batching?: Pick<ByteBatching, 'targetBytes' | 'maxRows'>;
}

/**
 * Loads a backup into an empty database of either kind (docs/operations.md#backup-and-restore): checks
 * the whole file first, refuses a non-empty database, migrates, loads every table in one
 * transaction and compares the row counts with the file's. A refusal or a failure writes nothing.
 *
 * Rows go in with one statement a batch of about 4 MiB of the file's text (docs/architecture.md#long-reads),
 * `json_populate_recordset` of the rows as the file holds them: the database turns
 * the JSON into the table's types, so the load does not parse the rows (the check did, once). The next batch is read from the
 * file while the database inserts the last one.
 */
export async function restoreBackup(
  database: Database,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const batching = options.batching ?? BYTE_BATCHING;
  const tables = backupTables();
  await checkLineLengths(file);
  const { header, counts } = await checkBackup(file, tables);
  const known = readMigrations().map((m) => m.name);
  const unknown = header.migrations.filter((m) => !known.includes(m));
  if (unknown.length) {
    throw new RestoreRefusedError(
      `The backup was made by a newer version (migration ${unknown.join(', ')} is unknown here): restore it with that version; nothing was written.`,
    );
  }
  if (header.migrations.join('\n') !== known.slice(0, header.migrations.length).join('\n')) {
    throw new RestoreRefusedError(
      `The backup's migrations (${header.migrations.join(', ')}) are not those of this version in their order: restore it with the version that made it; nothing was written.`,
    );
  }
  const busy = await nonEmptyTables(database, tables);
  if (busy.length) {
    throw new RestoreRefusedError(
      `The database is not empty (${busy.join(', ')} hold rows): restore only into a new, empty database; nothing was written.`,
    );
  }
  // A file made by an earlier version is loaded into the schema of its own level, then the load's
  // transaction applies the newer migrations to its rows, as an upgrade of that earlier
  // installation would (docs/operations.md#backup-and-restore).
  const fileLevel = header.migrations.at(-1);
  await migrate(database, fileLevel === undefined ? {} : { upTo: fileLevel });
  const fileTables = tables.filter((t) => header.tables.includes(tableName(t)));
  const byName = new Map(fileTables.map((t) => [tableName(t), t]));
  await database.db.transaction(async (tx) => {
    // Building an index of a large table may take longer than a pool's statement timeout
    // (DB_STATEMENT_TIMEOUT_MS, which is for requests), as in a migration.
    await tx.execute(sql`set local statement_timeout = 0`);
    const restoreAfterLoad = await setAsideForLoad(tx, [...byName.keys()]);
    // Tables are written parents first (the file's order); rows go in batches of bytes.
    let rows: string[] = [];
    let bytes = 0;
    let current: string | undefined;
    // The insert on its way: awaited before the next is sent, so one batch is in the database's
    // hands while the next is read. Its failure is kept for that await (never unhandled).
    let inserting: Promise<unknown> = Promise.resolve();
    const flush = async () => {
      if (!current || !rows.length) return;
      const table = byName.get(current)!;
      const json = `[${rows.join(',')}]`;
      rows = [];
      bytes = 0;
      await inserting;
      // drizzle's query runs each time it is awaited: `then` once, for one real promise.
      inserting = tx
        .execute(
          sql`insert into ${table} select * from json_populate_recordset(null::${table}, ${json}::json)`,
        )
        .then(() => undefined);
      inserting.catch(() => undefined);
    };
    let first = true;
    for await (const text of eachLine(file)) {
      if (first) {
        first = false;
        continue;
      }
      const line = splitLine(text, false);
      if (!('t' in line)) break; // the end line: the check read the file to it
      if (line.t !== current) {
        await flush();
        current = line.t;
      }
      rows.push(line.row);
      bytes += line.row.length;
      if (bytes >= batching.targetBytes || rows.length >= batching.maxRows) await flush();
    }
    await flush();
    await inserting;
    for (const statement of restoreAfterLoad) await tx.execute(sql.raw(statement));
    for (const table of fileTables) {
      const name = tableName(table);
      const got = await tx.execute(sql`select count(*)::int as n from ${table}`);
      const n = (got as { rows: { n: number }[] }).rows[0]?.n ?? 0;
      if (n !== (counts[name] ?? 0)) {
        throw new Error(
          `After loading, ${name} holds ${n} rows, the backup ${counts[name] ?? 0}; nothing was kept.`,
        );
      }
    }
    await migrateWithin(tx);
    // The derived tables are not in a backup: the register counts are made again from the records
    // just loaded, the list versions anew.
    await rebuildDerived(tx);
  });
  // Planner statistics of the loaded tables now, not at autovacuum's next round: a foreign-key
  // check planned while a table was empty keeps reading the whole table (db/statistics.ts).
  await database.db.execute(sql`analyze`);
  return { counts, migrations: await migrationLevel(database.db) };
}
