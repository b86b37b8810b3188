/**
 * An app's list cache (app.listCache; docs/rules.md#large-registers): list totals, pages (their ids)
 * and whole answers, each kept with the digest of the list versions it was read at
 * (services/list-versions.ts, which says why that keeps them exact) and answered only while those
 * versions are unchanged. Least recently used first out, within a number and a size in bytes.
 */
import type { CompanyScope } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { type ListedEntity, scopeKey, versionsNow } from './list-versions';

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
   * and the key (the clock only through the key, read once: a day's answer names its day; no
   * caller beyond the scope).
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
        lists.keep(
          pageKey,
          versions,
          ids,
          ids.reduce((n, id) => n + id.length + 8, 0),
        );
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
      if (answer.body.length <= limits.answerBytes / 8)
        answers.keep(key, versions, answer, answer.body.length);
      return answer;
    },
    get size() {
      const a = answers.size;
      return { ...lists.size, answers: a.entries, answerBytes: a.bytes };
    },
  };
}
