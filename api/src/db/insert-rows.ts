/**
 * Many rows into a table in one statement with one parameter (docs/architecture.md "Writes, one or
 * many"): the rows as a JSON array, expanded by `json_populate_recordset` into the table's own row
 * type, so PostgreSQL parses and casts the values and nothing is built per value in JavaScript.
 * The columns named are those the rows hold (the union of their keys); the others take their
 * defaults, as with drizzle's insert (a column some rows leave undefined: drizzle's insert instead). Values go as JSON: a Date as its ISO instant, a jsonb column's
 * value as the JSON it is.
 */
import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './index';

/** Rows a statement: a JSON parameter of a few megabytes at most. */
const ROWS_PER_STATEMENT = 2000;

/**
 * Rows as a record set of `table`'s row type (`select * from json_populate_recordset(...)`), for
 * drizzle's `insert(table).select(...)`, which names every column of the table: so each row must
 * hold every column, under the column's own name (a derived table's counts, for an upsert with
 * `onConflictDoUpdate`).
 */
export function recordSet<T extends PgTable>(table: T, rows: readonly T['$inferInsert'][]): SQL {
  const name = sql.identifier(getTableName(table));
  return sql`select * from json_populate_recordset(null::${name}, ${JSON.stringify(rows)}::json)`;
}

export async function insertRows<T extends PgTable>(
  tx: Executor,
  table: T,
  rows: readonly T['$inferInsert'][],
): Promise<void> {
  await insertStatements(tx, table, rows, false);
}

/**
 * `insertRows` answering the rows as stored (`returning *`, each as a select of the table reads
 * it: the database's defaults and casts applied; in no promised order, so key them by their id):
 * what a write hands on without reading its rows again.
 */
export async function insertRowsReturning<T extends PgTable>(
  tx: Executor,
  table: T,
  rows: readonly T['$inferInsert'][],
): Promise<T['$inferSelect'][]> {
  return insertStatements(tx, table, rows, true);
}

/** A row as the driver answers it (column names, the driver's values) as drizzle's select maps it. */
function storedRow<T extends PgTable>(
  columns: Record<string, { name: string; mapFromDriverValue: (value: unknown) => unknown }>,
  raw: Record<string, unknown>,
): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row;
}

async function insertStatements<T extends PgTable>(
  tx: Executor,
  table: T,
  rows: readonly T['$inferInsert'][],
  returning: boolean,
): Promise<T['$inferSelect'][]> {
  const out: T['$inferSelect'][] = [];
  if (!rows.length) return out;
  const columns = getTableColumns(table) as unknown as Record<
    string,
    { name: string; mapFromDriverValue: (value: unknown) => unknown }
  >;
  const keys = new Set<string>();
  for (const row of rows)
    for (const [key, value] of Object.entries(row)) if (value !== undefined) keys.add(key);
  const given = [...keys];
  // A column given in some rows and left to its default in others: drizzle's insert says `default`
  // row by row, which a record set cannot.
  if (rows.some((row) => given.some((k) => (row as Record<string, unknown>)[k] === undefined))) {
    const insert = tx.insert(table).values(rows as T['$inferInsert'][]);
    if (!returning) {
      await insert;
      return out;
    }
    return await insert.returning();
  }
  const names: string[] = [];
  for (const key of given) {
    const column = columns[key];
    if (!column) throw new Error(`insertRows: ${getTableName(table)} has no column ${key}`);
    names.push(column.name);
  }
  const list = sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  );
  const name = sql.identifier(getTableName(table));
  const renamed = !names.every((n) => keys.has(n));
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    // Keys are the property names; a column named otherwise in the database is renamed here.
    const json = JSON.stringify(
      renamed
        ? part.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [columns[k]!.name, v])))
        : part,
    );
    const statement = sql`insert into ${name} (${list}) select ${list} from json_populate_recordset(null::${name}, ${json}::json)`;
    if (!returning) {
      await tx.execute(statement);
      continue;
    }
    const result: unknown = await tx.execute(sql`${statement} returning *`);
    for (const raw of (result as { rows: Record<string, unknown>[] }).rows)
      out.push(storedRow<T>(columns, raw));
  }
  return out;
}

/**
 * Sets `columns` on many rows of `table` in one statement a batch (the rows by their `id`, each
 * holding every column named, under its property name), the values expanded from one JSON
 * parameter as `insertRows` does; `increment`: columns raised by one on each row besides. For a
 * batch of updates that write the same columns (a batch's status changes, its QRs).
 */
export async function updateRows<T extends PgTable>(
  tx: Executor,
  table: T,
  columns: readonly string[],
  rows: readonly ({ id: string } & Record<string, unknown>)[],
  increment: readonly string[] = [],
): Promise<void> {
  if (!rows.length) return;
  const all = getTableColumns(table) as unknown as Record<string, { name: string }>;
  const nameOf = (key: string) => {
    const column = all[key];
    if (!column) throw new Error(`updateRows: ${getTableName(table)} has no column ${key}`);
    return column.name;
  };
  const name = sql.identifier(getTableName(table));
  const sets = sql.join(
    [
      ...columns.map((k) => sql`${sql.identifier(nameOf(k))} = v.${sql.identifier(nameOf(k))}`),
      ...increment.map((k) => sql`${sql.identifier(nameOf(k))} = t.${sql.identifier(nameOf(k))} + 1`),
    ],
    sql`, `,
  );
  const id = sql.identifier(nameOf('id'));
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows
      .slice(i, i + ROWS_PER_STATEMENT)
      .map((row) => Object.fromEntries(['id', ...columns].map((k) => [nameOf(k), row[k]])));
    await tx.execute(sql`update ${name} as t set ${sets}
      from json_populate_recordset(null::${name}, ${JSON.stringify(part)}::json) as v where t.${id} = v.${id}`);
  }
}
