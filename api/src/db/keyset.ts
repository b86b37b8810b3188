import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './types';

/**
 * Keyset reading: "the rows after the last one seen", in the query's own order, so reading any
 * number of rows holds one batch at a time and every batch starts from an index seek, never from
 * an offset that counts the rows before it. The reports' exports read through it, and so does every
 * long read of whole tables (the backup: `tableLines` below). Why never OFFSET, and why batches of
 * bytes rather than rows: docs/architecture.md#long-reads.
 */

/**
 * The loop every keyset reader shares: the first batch is asked for when the reading starts, and
 * each next one (`next`, from the batch just read; null when that one was the last) before the
 * current one is handed over, so the database works on it while the caller writes (PostgreSQL runs
 * in its own process). One batch is held at a time, plus the one on its way. Returning early (an
 * aborted export) leaves at most that one query to finish.
 */
async function* prefetched<B>(
  first: () => Promise<B>,
  isEmpty: (batch: B) => boolean,
  next: (batch: B) => Promise<B> | null,
): AsyncGenerator<B> {
  let pending: Promise<B> | null = first();
  try {
    while (pending) {
      const batch: B = await pending;
      pending = null;
      if (isEmpty(batch)) return;
      pending = next(batch);
      yield batch;
    }
  } finally {
    // A query still on its way when the reader stops: its answer (or error) is not wanted.
    pending?.catch(() => undefined);
  }
}

/**
 * Reads rows in batches by keyset: `fetch(after)` asks for the rows after `after` (the last row
 * of the previous batch; null for the first), at most `batchSize`, in the caller's order with the
 * id breaking ties. Give the cursor also as a plain bound on the sort column (`issue_date <= $d`
 * beside `(issue_date, id) < ($d, $id)`), which an index on (company_id, issue_date) can seek to:
 * without it every batch would walk the index from the start again.
 */
export async function* keysetBatches<R, T>(
  batchSize: number,
  fetch: (after: R | null) => Promise<R[]>,
  shape: (rows: R[]) => T[],
): AsyncGenerator<T[]> {
  const batches = prefetched(
    () => fetch(null),
    (rows) => !rows.length,
    (rows) => (rows.length === batchSize ? fetch(rows[rows.length - 1]!) : null),
  );
  for await (const rows of batches) yield shape(rows);
}

/**
 * One batch of a query's rows, sent by the database as one JSON array and parsed with one
 * `JSON.parse`: the batch reader of the exports (each `fetch` of `keysetBatches`).
 *
 * Why: the driver decodes every field of every row on the app's one thread, which cost an export
 * more than its query. As one value a batch costs one decode and one parse, and the server builds
 * the JSON in its own process. `json_agg` over the sorted query keeps its order (PostgreSQL's documented way: an
 * aggregate over a sorted subquery, with nothing else in the outer query).
 *
 * `fields` is the object the query selects (`db.select(fields)`): its keys, in its order, name the
 * query's columns. Only the `keys` asked for are sent (each field sent costs the app's
 * thread too). Values come as PostgreSQL writes them in JSON, which is what the drivers
 * give for text, uuid, boolean, integer and string-mode `date` columns (the report rows); a
 * timestamp would come as ISO text, not a Date, and a bigint as a number, not a string.
 */
export async function jsonRows<R extends object, K extends keyof R & string>(
  db: Executor,
  fields: { readonly [P in keyof R]: unknown },
  query: SQLWrapper & { execute(): Promise<R[]> },
  keys: readonly K[],
): Promise<Pick<R, K>[]> {
  const list = (names: readonly string[]) =>
    sql.join(
      names.map((name) => sql.identifier(name)),
      sql`, `,
    );
  // `json_agg(t)` of a row of just the keys: cheaper in the embedded database than building each
  // object with json_build_object.
  const result = await db.execute(
    sql`select coalesce(json_agg(t), '[]')::text as batch from (select ${list(keys)} from (${query}) as q(${list(Object.keys(fields))})) as t`,
  );
  const [row] = (result as { rows: [{ batch: string }] }).rows;
  return JSON.parse(row.batch) as Pick<R, K>[];
}

// ---------------------------------------------------------------------------------------------
// Whole tables, in primary-key order, in batches of bytes
// ---------------------------------------------------------------------------------------------

/** How a long read sizes its batches: by bytes, since a row may be 100 bytes or an image of MiBs. */
export interface ByteBatching {
  /** Bytes a batch aims at; it ends with the row that reaches them (so one large row is a batch). */
  targetBytes: number;
  /** Rows the first batch of a table asks for, before any of its rows has been measured. */
  firstRows: number;
  /** Rows a batch never exceeds, however small its rows. */
  maxRows: number;
}

/**
 * About 4 MiB a batch: few enough round trips that a batch's fixed costs vanish, small enough that
 * the process holds little (a batch and the next one on its way). An image is stored up to 2 MiB,
 * 4 MiB as hex text, so a batch of images may be one image.
 */
export const BYTE_BATCHING: ByteBatching = { targetBytes: 4 * 2 ** 20, firstRows: 64, maxRows: 50_000 };

/**
 * Rows the next batch asks for: as many as fill `targetBytes` at the mean size of the rows just
 * read. A wrong guess costs little: the database cuts the batch at the bytes anyway (`tableLines`).
 */
export function nextBatchRows(batching: ByteBatching, rows: number, bytes: number): number {
  const perRow = Math.max(1, bytes / Math.max(1, rows));
  return Math.min(batching.maxRows, Math.max(1, Math.ceil(batching.targetBytes / perRow)));
}

/** A table's primary-key columns, in key order (one column, or a composite key's). */
export function primaryKeyColumns(table: PgTable): PgColumn[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((c) => c.primary);
  // A composite key names stand-ins of its columns (drizzle's extra config): the table's own columns.
  const keys = single.length
    ? single
    : (config.primaryKeys[0]?.columns ?? []).map((k) => config.columns.find((c) => c.name === k.name)!);
  if (!keys.length) throw new Error(`Table ${config.name} has no primary key: it cannot be read by keyset.`);
  return keys;
}

/** One batch of `tableLines`: its rows' lines joined by newlines, how many rows, how many bytes. */
export interface LineBatch {
  text: string;
  rows: number;
  bytes: number;
}

interface FetchedLines extends LineBatch {
  /** How many rows were asked for. */
  asked: number;
  /** The last row's key, as JSON (an array of the key columns' values). */
  last: string | null;
}

/**
 * Every row of `table`, in primary-key order, as text: `line` (a text expression over the table's
 * row, which the query names `t`) of each row, newline-separated, in batches of about
 * `batching.targetBytes`. Each batch is one keyset query, `where (key) > (last key) order by key
 * limit n`, an index seek wherever the previous batch ended, so reading a table costs time in
 * proportion to its rows; inside one REPEATABLE READ transaction the batches are one snapshot.
 *
 * The database builds the lines and joins them into one value per batch (the process decodes one
 * field, not one per row), and cuts the batch at the row whose line reaches the target bytes:
 * a running sum of the lines' lengths over the asked rows. The rows asked for are guessed from the
 * previous batch's (`nextBatchRows`); a batch of large rows after small ones is cut, not held.
 */
export function tableLines(
  db: Executor,
  table: PgTable,
  line: SQL,
  batching: ByteBatching = BYTE_BATCHING,
): AsyncGenerator<LineBatch> {
  const keys = primaryKeyColumns(table);
  const names = keys.map((_, i) => sql.identifier(`k${i}`));
  const list = (parts: SQL[]) => sql.join(parts, sql`, `);
  const byKey = list(names.map((n) => sql`${n}`));
  const tableKey = list(keys.map((k) => sql`t.${sql.identifier(k.name)}`));
  const fetch = async (after: string | null, asked: number): Promise<FetchedLines> => {
    let where = sql``;
    if (after !== null) {
      const values = JSON.parse(after) as unknown[];
      // Typed like the key's columns, so the comparison is the index's own.
      const bound = list(keys.map((k, i) => sql`${values[i]}::${sql.raw(k.getSQLType())}`));
      where = sql`where (${tableKey}) > (${bound})`;
    }
    const result = await db.execute(sql`
      select string_agg(b.line, E'\n') as text, count(*)::int as rows,
        coalesce(sum(b.size), 0)::bigint as bytes, ((array_agg(b.key))[count(*)])::text as last
      from (
        select w.line, w.size, w.key from (
          select s.line, s.key, ${byKey}, octet_length(s.line) as size,
            sum(octet_length(s.line)) over (order by ${byKey} rows between unbounded preceding and current row) as running
          from (
            select ${line} as line, json_build_array(${tableKey}) as key,
              ${list(keys.map((k, i) => sql`t.${sql.identifier(k.name)} as ${names[i]!}`))}
            from ${table} t ${where}
            order by ${tableKey} limit ${asked}
          ) s
        ) w
        where w.running - w.size < ${batching.targetBytes}
        order by ${byKey}
      ) b`);
    const [row] = (
      result as {
        rows: { text: string | null; rows: number; bytes: string | number; last: string | null }[];
      }
    ).rows;
    return {
      text: row?.text ?? '',
      rows: Number(row?.rows ?? 0),
      bytes: Number(row?.bytes ?? 0),
      asked,
      last: row?.last ?? null,
    };
  };
  const batches = prefetched(
    () => fetch(null, batching.firstRows),
    (batch) => batch.rows === 0,
    // More rows may follow when the batch had all the rows it asked for or was cut at the bytes.
    (batch) =>
      batch.rows === batch.asked || batch.bytes >= batching.targetBytes
        ? fetch(batch.last, nextBatchRows(batching, batch.rows, batch.bytes))
        : null,
  );
  return (async function* () {
    for await (const { text, rows, bytes } of batches) yield { text, rows, bytes };
  })();
}
