import { type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor } from './types';

/**
 * Keyset reading: "the rows after the last one seen", in the query's own order, so reading any
 * number of rows holds one batch at a time and every batch starts from an index seek, never from
 * an offset that counts the rows before it. The reports' exports read through it; a later bulk
 * reader (an export, a backup of one table, a rebuild that must not hold a whole table) too.
 */
/**
 * Reads rows in batches by keyset: `fetch(after)` asks for the rows after `after` (the last row
 * of the previous batch; null for the first), at most `batchSize`, in the caller's order with the
 * id breaking ties. Give the cursor also as a plain bound on the sort column (`issue_date <= $d`
 * beside `(issue_date, id) < ($d, $id)`), which an index on (company_id, issue_date) can seek to:
 * without it every batch would walk the index from the start again.
 * The next batch is asked for before the current one is handed over, so the database works on it
 * while the caller writes (PostgreSQL runs in its own process). One batch is held at a time, plus
 * the one on its way. Returning early (an aborted export) leaves at most that one query to finish.
 */
export async function* keysetBatches<R, T>(
  batchSize: number,
  fetch: (after: R | null) => Promise<R[]>,
  shape: (rows: R[]) => T[],
): AsyncGenerator<T[]> {
  let pending: Promise<R[]> | null = fetch(null);
  try {
    while (pending) {
      const rows: R[] = await pending;
      pending = null;
      if (!rows.length) return;
      if (rows.length === batchSize) pending = fetch(rows[rows.length - 1]!);
      yield shape(rows);
    }
  } finally {
    // A query still on its way when the reader stops: its answer (or error) is not wanted.
    pending?.catch(() => undefined);
  }
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
