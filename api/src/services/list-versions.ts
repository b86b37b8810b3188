/**
 * List totals that are not counted again while nothing they count has changed (issue 18).
 *
 * A list of a company-owned record (lib/resource.ts: clients, training certificates, certification
 * types, accreditation bodies) answers a total on every page: a count of up to 10,001 matching rows
 * (DECISIONS.md section 15), which costs tens of milliseconds where the page itself costs one. The
 * total stays EXACT, whichever process wrote last:
 *
 * - `list_versions (entity, company_id, version)` holds a random version per record kind and
 *   company. The after-write step `bumpListVersions` gives the company of every create, update and
 *   delete of such a record (both companies of a move) a NEW random version, in the writer's
 *   transaction: the rows and their version commit together, whatever made the write (a route, the
 *   import, a command, another process of a cluster).
 * - A reader (`ListTotals.total`) first reads the versions of the companies in its scope (one
 *   indexed query, the pairs in company order as one text), then looks in the app's cache under
 *   (record kind, scope, search pattern): the same versions answer the cached total, else it counts
 *   and keeps the total with the versions it read BEFORE counting. A write landing between the two
 *   then costs a needless recount later, never a stale total.
 * - Versions are random, not a sequence: a restore or a bulk load (`renewListVersions`, run by
 *   services/derived.ts after every write that bypasses the services) gives every company a fresh
 *   one, so no process can see a version again that it has cached a total with.
 *
 * The search document covers the record's own columns only (db/search.ts), and the count reads the
 * record's table alone, so nothing but a write of the record itself moves a total (renaming a
 * company does not).
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { ALL, type CompanyScope } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { preparedShapes } from '../db/prepared';
import { companies, listVersions } from '../db/schema';
import { newId } from '../lib/crypto';
import { isAnyOf } from '../lib/list';
import type { ServiceContext } from './context';
import type { EntityName } from './write-event';

/** The record kinds whose lists keep their totals (every record built by defineResourceService). */
export const LISTED_ENTITIES = [
  'accreditation-body',
  'certification-type',
  'client-certificate',
  'training-certificate',
] as const satisfies readonly EntityName[];
export type ListedEntity = (typeof LISTED_ENTITIES)[number];

const isListed = (entity: string): entity is ListedEntity =>
  (LISTED_ENTITIES as readonly string[]).includes(entity);

/**
 * The after-write step (AFTER_WRITE_STEPS): a new random version for the company (or the two
 * companies of a move) of every write of a listed record. One statement, the companies in id order
 * (two writes moving records between the same two companies lock them in the same order). It takes
 * the event by its shape, like the register counts: no import of after-write.ts, no cycle.
 */
export async function bumpListVersions(
  ctx: Pick<ServiceContext, 'tx'>,
  event: { entity: string; before: object | null; after: object | null },
): Promise<void> {
  const { entity } = event;
  if (!isListed(entity)) return;
  const ids = new Set<string>();
  for (const row of [event.before, event.after]) {
    if (row) ids.add((row as { company_id: string }).company_id);
  }
  if (!ids.size) return;
  await ctx.tx
    .insert(listVersions)
    .values([...ids].sort().map((company_id) => ({ entity, company_id, version: newId() })))
    .onConflictDoUpdate({
      target: [listVersions.entity, listVersions.company_id],
      set: { version: sql`excluded.version` },
    });
}

/**
 * Fresh versions for every record kind of every company, after rows were written without the
 * services (the demo generator's bulk insert, a restore, a test's fixtures): any total a process
 * holds is counted again.
 */
export async function renewListVersions(exec: Executor): Promise<void> {
  await exec.delete(listVersions);
  const ids = await exec.select({ id: companies.id }).from(companies);
  const rows = LISTED_ENTITIES.flatMap((entity) =>
    ids.map(({ id }) => ({ entity, company_id: id, version: newId() })),
  );
  for (let i = 0; i < rows.length; i += 1000) await exec.insert(listVersions).values(rows.slice(i, i + 1000));
}

/** The versions of the companies in a scope, `company:version` in company order, as one text. */
const versionsOf = preparedShapes('list-versions.of', ['scoped'], ['entity', 'scope'], (db, p, on, name) =>
  db
    .select({
      v: sql<string>`coalesce(string_agg(${listVersions.company_id}::text || ':' || ${listVersions.version}::text, ',' order by ${listVersions.company_id}), '')`,
    })
    .from(listVersions)
    .where(
      and(
        eq(listVersions.entity, p.entity),
        on.scoped ? isAnyOf(listVersions.company_id, p.scope) : undefined,
      ),
    )
    .prepare(name),
);

/** One list whose total is asked: the record kind, the caller's scope and the search pattern ('' for none). */
export interface ListOfTotal {
  entity: ListedEntity;
  scope: CompanyScope;
  pattern: string;
}

/** The bounds of an app's cache of totals. */
export interface ListTotalsLimits {
  /** Lists remembered at most (config LIST_TOTALS_ENTRIES); 0: none, every total is counted. */
  entries: number;
  /** Their keys and versions at most, in bytes (as JavaScript holds strings: two a character). */
  bytes: number;
}

export const LIST_TOTALS_LIMITS: ListTotalsLimits = { entries: 10_000, bytes: 4 * 1024 * 1024 };

/** An app's cache of list totals (app.listTotals): each app instance its own. */
export interface ListTotals {
  /**
   * The total of a list: the cached one when the versions of its companies are those it was counted
   * at, else `count()` (kept for the next caller).
   */
  total(db: Executor, list: ListOfTotal, count: () => Promise<number>): Promise<number>;
  /** Lists remembered now, and the bytes counted for them. */
  readonly size: { entries: number; bytes: number };
}

interface Entry {
  versions: string;
  total: number;
  bytes: number;
}

/** A digest of the versions text: what an entry keeps, whatever the number of companies. */
const digest = (text: string) => createHash('sha256').update(text).digest('base64');
/** What an entry costs beside its key and digest (the Map slot and the two objects), roughly. */
const ENTRY_OVERHEAD = 160;

/** A new, empty cache of list totals, least recently used first out. */
export function createListTotals(limits: ListTotalsLimits = LIST_TOTALS_LIMITS): ListTotals {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    async total(db, { entity, scope, pattern }, count) {
      const scoped = scope !== ALL;
      const ids = scoped ? [...scope].sort() : [];
      const [row] = await versionsOf(db, { scoped }, { entity, scope: ids });
      const versions = digest(row?.v ?? '');
      const key = `${entity}\n${scoped ? ids.join(',') : ALL}\n${pattern}`;
      if (limits.entries === 0) return count();
      const cached = entries.get(key);
      if (cached) {
        drop(key, cached);
        if (cached.versions === versions) {
          // Seen again: the most recently used goes last.
          entries.set(key, cached);
          bytes += cached.bytes;
          return cached.total;
        }
      }
      const total = await count();
      const entry = { versions, total, bytes: 2 * (key.length + versions.length) + ENTRY_OVERHEAD };
      const stale = entries.get(key);
      if (stale) drop(key, stale);
      entries.set(key, entry);
      bytes += entry.bytes;
      for (const [oldest, old] of entries) {
        if (entries.size <= limits.entries && bytes <= limits.bytes) break;
        drop(oldest, old);
      }
      return total;
    },
    get size() {
      return { entries: entries.size, bytes };
    },
  };
}
