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
