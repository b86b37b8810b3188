/**
 * List totals (and pages) that are not counted again while nothing they count has changed
 * (docs/rules.md#large-registers).
 *
 * A list of a company-owned record (modules/resource/: clients, training certificates, certification
 * types, accreditation bodies) answers a total on every page: a count of up to 10,001 matching rows
 * (docs/rules.md#large-registers), which costs tens of milliseconds where the page itself costs one. The
 * total stays EXACT, whichever process wrote last:
 *
 * - `list_versions (entity, company_id, version)` holds a random version per record kind and
 *   company. The after-write step `bumpListVersions` gives the company of every create, update and
 *   delete of such a record (both companies of a move) a NEW random version, in the writer's
 *   transaction: the rows and their version commit together, whatever made the write (a route, the
 *   import, a command, another process of a cluster).
 * - A reader (`ListCache.read`, services/list-cache.ts) first reads the versions of the companies in its scope (one
 *   indexed query, the pairs in company order as one text), then looks in the app's cache under
 *   (record kind, scope, search pattern): the same versions answer the cached total, else it counts
 *   and keeps the total with the versions it read BEFORE counting. A write landing between the two
 *   then costs a needless recount later, never a stale total.
 * - The page is kept the same way, as its ids (under the order, page size and offset too): which
 *   rows match and their order depend on the record's own columns only. A page seen before is read
 *   again by primary key beside the versions (its rows as they are now: their company's name, a
 *   derived count), and answered if the versions are unchanged; else the page query runs.
 * - Versions are random, not a sequence: a restore or a bulk load (`renewListVersions`, run by
 *   services/derived.ts after every write that bypasses the services) gives every company a fresh
 *   one, so no process can see a version again that it has cached a total with.
 *
 * The search document covers the record's own columns only (db/search.ts), and the count reads the
 * record's table alone, so nothing but a write of the record itself moves a total (renaming a
 * company does not).
 *
 * - A whole answer (`ListCache.answer`: 'Rencana Audit' and 'Kalender Auditor' without a search,
 *   the dashboard's figures and charts, 'Jadwal Audit' and the scheme report for their day) is
 *   kept the same way, under the versions of EVERY kind of record it shows (the route names them
 *   beside its query: a planned audit shows its scheme's number, its client's and type's names, its
 *   team's names), with its compressed forms once asked for (plugins/kept-answer.ts). That is why the
 *   schemes, auditors, audits done and companies have versions too, though no list of theirs keeps
 *   a total (a company's are under its own id).
 */
import { createHash } from 'node:crypto';
import { and, sql } from 'drizzle-orm';
import { ALL, type CompanyScope } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { preparedShapes } from '../db/prepared';
import { companies, listVersions } from '../db/schema';
import { newId } from '../lib/crypto';
import { isAnyOf } from '../lib/list';
import type { ServiceContext } from './context';
import type { EntityName } from './write-event';

/**
 * The record kinds with a list version: those whose lists keep their totals (every record built by
 * defineResourceService), and those whose rows a kept whole answer shows (services/list-cache.ts
 * `answer`: planned audits, schemes, auditors, audits done, companies besides).
 */
export const LISTED_ENTITIES = [
  'accreditation-body',
  'certification-type',
  'client-certificate',
  'training-certificate',
  'planned-audit',
  'scheme',
  'auditor',
  'scheme-audit',
  'company',
] as const satisfies readonly EntityName[];
export type ListedEntity = (typeof LISTED_ENTITIES)[number];

const isListed = (entity: string): entity is ListedEntity =>
  (LISTED_ENTITIES as readonly string[]).includes(entity);

/**
 * The listed kinds a write of a record moves besides its own: deleting a scheme (or the client
 * holding it) deletes its planned audits with it (the foreign key's cascade), no planned-audit write.
 */
const CASCADES: Partial<Record<string, { deletes: readonly ListedEntity[] }>> = {
  scheme: { deletes: ['planned-audit'] },
  'client-certificate': { deletes: ['planned-audit'] },
};

/** The (record kind, company) pairs a write moves the list versions of. */
function movedBy(event: { entity: string; before: object | null; after: object | null }) {
  const kinds: string[] = isListed(event.entity) ? [event.entity] : [];
  if (event.before && !event.after) kinds.push(...(CASCADES[event.entity]?.deletes ?? []));
  const companiesOf = new Set<string>();
  if (event.entity === 'company') {
    // A company's own row is its key; deleted, its versions go with it (the foreign key's cascade).
    if (event.after) companiesOf.add((event.after as { id: string }).id);
  } else {
    for (const row of [event.before, event.after]) {
      if (row) companiesOf.add((row as { company_id: string }).company_id);
    }
  }
  return kinds.flatMap((entity) => [...companiesOf].map((company_id) => ({ entity, company_id })));
}

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
  const rows = movedBy(event)
    .sort((a, b) => (`${a.entity}\u0000${a.company_id}` < `${b.entity}\u0000${b.company_id}` ? -1 : 1))
    .map((k) => ({ ...k, version: newId() }));
  if (!rows.length) return;
  await ctx.tx
    .insert(listVersions)
    .values(rows)
    .onConflictDoUpdate({
      target: [listVersions.entity, listVersions.company_id],
      set: { version: sql`excluded.version` },
    });
}

/** `bumpListVersions` for many writes at once: one new version per (record kind, company) they touch. */
export async function bumpListVersionsMany(
  ctx: Pick<ServiceContext, 'tx'>,
  events: readonly { entity: string; before: object | null; after: object | null }[],
): Promise<void> {
  const keys = new Map<string, { entity: string; company_id: string }>();
  for (const event of events) for (const k of movedBy(event)) keys.set(`${k.entity}\u0000${k.company_id}`, k);
  if (!keys.size) return;
  const rows = [...keys.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, k]) => ({ ...k, version: newId() }));
  await ctx.tx
    .insert(listVersions)
    .values(rows)
    .onConflictDoUpdate({
      target: [listVersions.entity, listVersions.company_id],
      set: { version: sql`excluded.version` },
    });
}

/**
 * Fresh versions for every record kind of every company, after rows were written without the
 * services (a restore, a test's fixtures): any total a process
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

/** A digest of the versions text: what an entry keeps, whatever the number of companies. */
const digest = (text: string) => createHash('sha256').update(text).digest('base64');

/**
 * The versions of some record kinds for the companies in a scope, `kind:company:version` in kind
 * and company order, as one text: one indexed statement, whatever the number of kinds.
 */
const versionsOf = preparedShapes('list-versions.of', ['scoped'], ['entities', 'scope'], (db, p, on, name) =>
  db
    .select({
      v: sql<string>`coalesce(string_agg(${listVersions.entity} || ':' || ${listVersions.company_id}::text || ':' || ${listVersions.version}::text, ',' order by ${listVersions.entity}, ${listVersions.company_id}), '')`,
    })
    .from(listVersions)
    .where(
      and(
        isAnyOf(listVersions.entity, p.entities),
        on.scoped ? isAnyOf(listVersions.company_id, p.scope) : undefined,
      ),
    )
    .prepare(name),
);

/** The company ids of a scope in order, and its part of a cache key. */
export function scopeKey(scope: CompanyScope): { scoped: boolean; ids: string[]; key: string } {
  if (scope === ALL) return { scoped: false, ids: [], key: ALL };
  const ids = [...scope].sort();
  return { scoped: true, ids, key: ids.join(',') };
}

/** A digest of the versions of `kinds` for the companies of a scope, read now. */
export async function versionsNow(
  db: Executor,
  kinds: readonly ListedEntity[],
  scope: { scoped: boolean; ids: string[] },
): Promise<string> {
  const [row] = await versionsOf(
    db,
    { scoped: scope.scoped },
    { entities: [...kinds].sort(), scope: scope.ids },
  );
  return digest(row?.v ?? '');
}
