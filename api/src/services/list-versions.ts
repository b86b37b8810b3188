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
 * - A reader (`ListCache.read`) first reads the versions of the companies in its scope (one
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
 * - A whole answer (`ListCache.answer`: 'Rencana Audit' and 'Kalender Auditor' without a search) is
 *   kept the same way, under the versions of EVERY kind of record it shows (the route names them
 *   beside its query: a planned audit shows its scheme's number, its client's and type's names, its
 *   team's names), with its compressed forms once asked for (lib/kept-answer.ts). That is why the
 *   schemes and the auditors have versions too, though no list of theirs keeps a total.
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

/**
 * The record kinds with a list version: those whose lists keep their totals (every record built by
 * defineResourceService, and the planned audits of 'Rencana Audit' without a search), and those
 * whose rows a kept whole answer shows besides (the schemes and auditors named in 'Rencana Audit'
 * and 'Kalender Auditor').
 */
export const LISTED_ENTITIES = [
  'accreditation-body',
  'certification-type',
  'client-certificate',
  'training-certificate',
  'planned-audit',
  'scheme',
  'auditor',
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
  for (const row of [event.before, event.after]) {
    if (row) companiesOf.add((row as { company_id: string }).company_id);
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
function scopeKey(scope: CompanyScope): { scoped: boolean; ids: string[]; key: string } {
  if (scope === ALL) return { scoped: false, ids: [], key: ALL };
  const ids = [...scope].sort();
  return { scoped: true, ids, key: ids.join(',') };
}

/** A digest of the versions of `kinds` for the companies of a scope, read now. */
async function versionsNow(
  db: Executor,
  kinds: readonly ListedEntity[],
  scope: { scoped: boolean; ids: string[] },
): Promise<string> {
  const [row] = await versionsOf(db, { scoped: scope.scoped }, { entities: [...kinds].sort(), scope: scope.ids });
  return digest(row?.v ?? '');
}

/** One list page asked: the record kind, the caller's scope, the search pattern ('' for none), the order. */
export interface ListAsked {
  entity: ListedEntity;
  scope: CompanyScope;
  pattern: string;
  /** The order's name (the page's ids depend on it, the total not). */
  order: string;
  limit: number;
  offset: number;
}

/** How a list reads its total and its rows; `byIds` answers the rows of those ids (any order). */
export interface ListReads<T> {
  count: () => Promise<number>;
  page: (limit: number, offset: number) => Promise<T[]>;
  byIds: (ids: string[]) => Promise<T[]>;
  idOf: (row: T) => string;
}

/** The bounds of an app's list cache. */
export interface ListCacheLimits {
  /**
   * Totals and pages remembered at most (config LIST_CACHE_ENTRIES); 0: none, every list is counted
   * and read (after its versions, as a list asked for the first time), and no whole answer is kept.
   */
  entries: number;
  /** Their keys, versions and ids at most, in bytes (as JavaScript holds strings: two a character). */
  bytes: number;
  /** Whole answers remembered at most (`answer`). */
  answers: number;
  /** Their bodies and compressed forms at most, in bytes; a body over an eighth of it is not kept. */
  answerBytes: number;
}

export const LIST_CACHE_LIMITS: ListCacheLimits = {
  entries: 10_000,
  bytes: 8 * 1024 * 1024,
  answers: 1_000,
  answerBytes: 32 * 1024 * 1024,
};

/**
 * One whole answer asked (`ListCache.answer`): the record kinds whose rows it shows, the caller's
 * scope, and everything else it depends on.
 */
export interface AnswerAsked {
  /**
   * Every kind of record whose rows the answer shows, a name or a date of it: a write of any of them
   * in a company of the scope (through the services, or a bulk load renewing every version) makes
   * the answer again.
   */
  kinds: readonly ListedEntity[];
  scope: CompanyScope;
  /** All else the answer depends on: the route and its whole query as validated (a month, a page). */
  key: string;
}

/** A kept answer: its JSON body and, once first asked for, its compressed forms. */
export interface KeptAnswer {
  readonly body: Buffer;
  /** The body compressed as `encoding`: made by `encode` the first time, then kept with the answer. */
  encoded(encoding: string, encode: (body: Buffer) => Buffer | Promise<Buffer>): Promise<Buffer>;
}

/** An app's list cache (app.listCache): each app instance its own. */
export interface ListCache {
  /**
   * The total and the rows of a list page. The total is the cached one, and the page the rows of
   * the cached ids (read again, by id), while the versions of the scope's companies are those they
   * were read at; else they are counted and read, and kept with the versions read before.
   */
  read<T>(db: Executor, list: ListAsked, reads: ListReads<T>): Promise<{ total: number; rows: T[] }>;
  /**
   * A whole answer, as `make` serialises it: the one kept under the same question while the versions
   * of its kinds for the scope's companies are those read before it was made; else made now and
   * kept with the versions read before. A write landing in between costs a needless remake later,
   * never a stale answer. Only for answers that depend on nothing but the rows of those kinds
   * and the key (no clock, no caller beyond the scope).
   */
  answer(db: Executor, asked: AnswerAsked, make: () => Promise<string | Buffer>): Promise<KeptAnswer>;
  /** Totals and pages remembered now and the bytes counted for them; whole answers and theirs. */
  readonly size: { entries: number; bytes: number; answers: number; answerBytes: number };
}

/** What an entry costs beside its strings (the Map slot, the objects), roughly. */
const ENTRY_OVERHEAD = 160;

interface Entry<V> {
  versions: string;
  value: V;
  bytes: number;
}

/**
 * Entries kept with the versions they were read at, least recently used first out, within a number
 * and a size in bytes.
 */
function createLru<V>(limits: { entries: number; bytes: number }) {
  const entries = new Map<string, Entry<V>>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const trim = () => {
    for (const [oldest] of entries) {
      if (entries.size <= limits.entries && bytes <= limits.bytes) break;
      drop(oldest);
    }
  };
  return {
    /** The entry under `key`, whatever its versions, without counting it as used. */
    peek: (key: string) => entries.get(key),
    /** The entry under `key` if it was read at `versions` (then it is the most recently used). */
    hit(key: string, versions: string): Entry<V> | undefined {
      const entry = entries.get(key);
      if (!entry || entry.versions !== versions) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    /** Keeps `value` read at `versions`; `size`: its bytes beside the key and versions. */
    keep(key: string, versions: string, value: V, size: number) {
      drop(key);
      const entry = { versions, value, bytes: 2 * (key.length + versions.length) + size + ENTRY_OVERHEAD };
      entries.set(key, entry);
      bytes += entry.bytes;
      trim();
    },
    /** `size` more bytes held by the value under `key`, if it is still that value. */
    grow(key: string, value: V, size: number) {
      const entry = entries.get(key);
      if (entry?.value !== value) return;
      entry.bytes += size;
      bytes += size;
      trim();
    },
    get size() {
      return { entries: entries.size, bytes };
    },
  };
}

/** A kept answer of `body`; `grew` is told the bytes of each compressed form made. */
function keptAnswer(body: Buffer, grew: (answer: KeptAnswer, size: number) => void): KeptAnswer {
  const forms = new Map<string, Buffer>();
  const answer: KeptAnswer = {
    body,
    async encoded(encoding, encode) {
      const kept = forms.get(encoding);
      if (kept) return kept;
      const made = await encode(body);
      // Another request may have made it meanwhile: one is kept, and counted once.
      const first = forms.get(encoding);
      if (first) return first;
      forms.set(encoding, made);
      grew(answer, made.length);
      return made;
    },
  };
  return answer;
}

/** A new, empty list cache, least recently used first out (LIST_CACHE_LIMITS where `bounds` is silent). */
export function createListCache(bounds: Partial<ListCacheLimits> = {}): ListCache {
  const limits = { ...LIST_CACHE_LIMITS, ...bounds };
  const lists = createLru<number | string[]>(limits);
  const answers = createLru<KeptAnswer>({
    entries: limits.entries > 0 ? limits.answers : 0,
    bytes: limits.answerBytes,
  });

  return {
    async read(db, list, reads) {
      const { limit, offset } = list;
      const scope = scopeKey(list.scope);
      const totalKey = `${list.entity}\n${scope.key}\n${list.pattern}`;
      const pageKey = `${totalKey}\n${list.order}\n${limit}\n${offset}`;
      // The rows of the page's ids as last read are read beside the versions; they are answered
      // only if the versions are those the ids were read at.
      const seen = lists.peek(pageKey);
      const guess = seen ? reads.byIds(seen.value as string[]) : undefined;
      guess?.catch(() => undefined);
      const versions = await versionsNow(db, [list.entity], scope);

      const cachedTotal = lists.hit(totalKey, versions);
      const total = cachedTotal
        ? Promise.resolve(cachedTotal.value as number)
        : reads.count().then((n) => {
            lists.keep(totalKey, versions, n, 0);
            return n;
          });
      const rows = (async () => {
        const cachedPage = guess && lists.hit(pageKey, versions);
        if (cachedPage) {
          const pageIds = cachedPage.value as string[];
          const got = await guess;
          // A row deleted since (a write landing while this was read): read the page instead.
          if (got.length === pageIds.length) {
            const byId = new Map(got.map((r) => [reads.idOf(r), r]));
            const ordered = pageIds.map((id) => byId.get(id));
            if (ordered.every((r) => r !== undefined)) return ordered as typeof got;
          }
        }
        const read = await reads.page(limit, offset);
        const ids = read.map(reads.idOf);
        lists.keep(pageKey, versions, ids, ids.reduce((n, id) => n + id.length + 8, 0));
        return read;
      })();
      return { total: await total, rows: await rows };
    },
    async answer(db, asked, make) {
      const scope = scopeKey(asked.scope);
      const kinds = [...new Set(asked.kinds)].sort();
      const key = `${kinds.join(',')}\n${scope.key}\n${asked.key}`;
      const versions = await versionsNow(db, kinds, scope);
      const kept = answers.hit(key, versions);
      if (kept) return kept.value;
      const made = await make();
      const answer = keptAnswer(Buffer.isBuffer(made) ? made : Buffer.from(made), (a, size) =>
        answers.grow(key, a, size),
      );
      if (answer.body.length <= limits.answerBytes / 8) answers.keep(key, versions, answer, answer.body.length);
      return answer;
    },
    get size() {
      const a = answers.size;
      return { ...lists.size, answers: a.entries, answerBytes: a.bytes };
    },
  };
}
