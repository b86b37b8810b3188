/**
 * Planner statistics kept up with a long bulk write (docs/architecture.md "Jobs", imports).
 *
 * PostgreSQL plans a foreign-key check once per connection and keeps the plan until the referenced
 * table's statistics change. Planned while that table was nearly empty (a new register's first
 * import: the first chunk's clients), the check reads the whole table, so every later check grows
 * with it and the import slows quadratically: measured, 50,000 schemes into an empty register spent
 * 22 s in their inserts instead of 2.7 s. Autovacuum would analyze the table, but only at its next
 * round (up to a minute later), when most of a large import is done.
 *
 * `statisticsWatch` counts what a job adds to each table it grows and analyzes a table once the
 * job has added at least as many rows as the table held at its last statistics (and at least
 * `minRows`): about log2(growth) analyzes of a table filled from empty, one for a table that was
 * already large. An `analyze` also makes every connection plan its checks again.
 */
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './index';

/** Rows a table must have grown by before it is analyzed, whatever its size. */
const MIN_ROWS = 500;

export interface StatisticsWatch {
  /**
   * Notes rows a committed write added to `table`; analyzes it when it has grown enough. Never
   * fails: statistics help the planner and are no reason to stop the work that grew the table (an
   * analyze refused, say for a table the role does not own, is counted in `failed` and tried again
   * after as many rows more).
   */
  grew(table: PgTable, rows: number): Promise<void>;
  /** The tables analyzed so far, in order (for the tests). */
  readonly analyzed: readonly string[];
  /** The analyzes that failed. */
  readonly failed: number;
}

/** The rows a table's statistics last counted (0 when it was never analyzed). */
async function rowsAtLastAnalyze(exec: Executor, name: string): Promise<number> {
  const result: unknown = await exec.execute(
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = to_regclass(${name})`,
  );
  const row = (result as { rows: { n: number | string }[] }).rows[0];
  return row ? Number(row.n) : 0;
}

/** A watch over the tables one job grows, analyzed through `exec` (outside the job's transactions). */
export function statisticsWatch(exec: Executor, minRows = MIN_ROWS): StatisticsWatch {
  const tables = new Map<string, { base: number; added: number }>();
  const analyzed: string[] = [];
  let failed = 0;
  return {
    analyzed,
    get failed() {
      return failed;
    },
    async grew(table, rows) {
      if (rows <= 0) return;
      const name = getTableName(table);
      const entry = tables.get(name) ?? { base: -1, added: 0 };
      tables.set(name, entry);
      entry.added += rows;
      try {
        if (entry.base < 0) entry.base = await rowsAtLastAnalyze(exec, name);
        if (entry.added < Math.max(minRows, entry.base)) return;
        entry.added = 0;
        await exec.execute(sql`analyze ${sql.identifier(name)}`);
        analyzed.push(name);
        entry.base = await rowsAtLastAnalyze(exec, name);
      } catch {
        failed += 1;
      }
    },
  };
}
