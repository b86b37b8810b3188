import { type Placeholder, sql } from 'drizzle-orm';
import type { Executor } from './types';

/** What `.prepare(name)` of a drizzle query gives: run with the placeholders' values. */
interface Runnable {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

/** One placeholder per parameter name, handed to the builder of a prepared query. */
export type Placeholders<K extends string> = { readonly [P in K]: Placeholder<P> };

/** Prepared queries by name, per database or transaction (tests open many databases). */
const built = new WeakMap<Executor, Map<string, Runnable>>();

/**
 * The name of each prepared statement by its SQL text, for the slow-query log: a query may reach
 * the driver as text alone, so the name is found again from it.
 */
const namesByText = new Map<string, string>();
export const statementName = (text: string): string | undefined => namesByText.get(text);

function preparedOn<Q extends Runnable>(db: Executor, name: string, build: () => Q): Q {
  let byName = built.get(db);
  if (!byName) built.set(db, (byName = new Map<string, Runnable>()));
  let query = byName.get(name);
  if (!query) {
    byName.set(name, (query = build()));
    // drizzle's prepared queries of both drivers keep their SQL text as `queryString`.
    const text = (query as { queryString?: unknown }).queryString;
    if (typeof text === 'string') namesByText.set(text, name);
  }
  return query as Q;
}

function placeholders<K extends string>(keys: readonly K[]): Placeholders<K> {
  return Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as unknown as Placeholders<K>;
}

/**
 * A query on a hot path, built once per database the first time it runs and then executed with new
 * values only: drizzle does not build its SQL again, and on PostgreSQL it is a named prepared
 * statement (parsed and planned once per connection). Every value goes through a placeholder, so
 * one statement serves every caller. On a transaction it is prepared on that transaction.
 *
 *     const byId = prepared('user.by-id', ['id'], (db, p) =>
 *       db.select().from(users).where(eq(users.id, p.id)).prepare('user.by-id'));
 *     const rows = await byId(db, { id });
 */
export function prepared<K extends string, Q extends Runnable>(
  name: string,
  keys: readonly K[],
  build: (db: Executor, p: Placeholders<K>, name: string) => Q,
): (db: Executor, values: Record<K, unknown>) => ReturnType<Q['execute']> {
  const p = placeholders(keys);
  return (db, values) =>
    preparedOn(db, name, () => build(db, p, name)).execute(values) as ReturnType<Q['execute']>;
}

/**
 * A family of prepared queries, one per shape: `flags` name the optional parts of the query (a
 * search, a scope filter...) and the builder includes each part whose flag is on. Each shape is its
 * own statement, named `<name>:<flags that are on>` (`company.page:scoped+search`), so a list
 * prepares the few shapes it has, never one statement per search text or per scope.
 */
export function preparedShapes<F extends string, K extends string, Q extends Runnable>(
  name: string,
  flags: readonly F[],
  keys: readonly K[],
  build: (db: Executor, p: Placeholders<K>, on: Readonly<Record<F, boolean>>, name: string) => Q,
): (db: Executor, on: Readonly<Record<F, boolean>>, values: Record<K, unknown>) => ReturnType<Q['execute']> {
  const p = placeholders(keys);
  return (db, on, values) => {
    const statement = `${name}:${flags.filter((f) => on[f]).join('+') || 'plain'}`;
    return preparedOn(db, statement, () => build(db, p, on, statement)).execute(values) as ReturnType<
      Q['execute']
    >;
  };
}
