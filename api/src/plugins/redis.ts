import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Db } from '../db';
import {
  dbLoginThrottle,
  failoverLoginThrottle,
  type LoginThrottle,
  redisLoginThrottle,
} from '../services/login-throttle';

/**
 * Redis is optional and may falter (docs/rules.md#faults-and-overload): while it is unreachable, sign-in
 * counters come from the database and request rate limits from the process's memory, one warning a
 * minute reaches the log (not one per request or per reconnect attempt), and everything returns to
 * Redis by itself once it answers again. Every error ioredis emits goes through here: none is left
 * for ioredis to print on stderr as an "Unhandled error event".
 */

/** How often, at most, a Redis outage is reported (the first failure is reported at once). */
export const REDIS_WARN_INTERVAL_MS = 60_000;

interface WarnLog {
  warn(entry: object, message: string): void;
  info(entry: object, message: string): void;
}

/** What Redis's state means for the rest of the app. */
export interface RedisLink {
  /** The client, when REDIS_URL is set. */
  client: Redis | undefined;
  /** Configured and connected: 'up'; configured and not connected: 'down'; not configured: undefined. */
  state(): 'up' | 'down' | undefined;
  /** A command failed: reported through the once-a-minute warning. */
  failed(err: unknown): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    redis: RedisLink;
  }
}

const WATCHED = Symbol('sertifikasi.redisWatched');
type Watched = Redis & { [WATCHED]?: (err: unknown) => void };

/**
 * Watches a client: reports its errors at most once every `intervalMs` (with how many were left
 * out), and reports once when it answers again. Returns the reporting function. Watching a client
 * twice returns the first watcher.
 */
export function watchRedis(client: Redis, log: WarnLog, intervalMs = REDIS_WARN_INTERVAL_MS) {
  const watched = client as Watched;
  if (watched[WATCHED]) return watched[WATCHED];
  let lastWarned = -Infinity;
  let suppressed = 0;
  let down = false;
  const failed = (err: unknown) => {
    down = true;
    const now = Date.now();
    if (now - lastWarned < intervalMs) {
      suppressed++;
      return;
    }
    const e = err as { code?: unknown; message?: unknown };
    log.warn(
      {
        redis: {
          code: typeof e?.code === 'string' ? e.code : undefined,
          error: typeof e?.message === 'string' ? e.message : String(err),
          suppressed,
        },
      },
      'Redis unreachable: sign-in counters from the database, rate limits from memory until it answers',
    );
    lastWarned = now;
    suppressed = 0;
  };
  client.on('error', failed);
  client.on('ready', () => {
    if (!down) return;
    down = false;
    lastWarned = -Infinity;
    suppressed = 0;
    log.info({ redis: { state: 'up' } }, 'Redis reachable again');
  });
  watched[WATCHED] = failed;
  return failed;
}

/**
 * The client for REDIS_URL: commands fail at once while it is disconnected (no queue that would
 * hold a sign-in for seconds) or after 1 s without an answer; it reconnects in the background for
 * ever, at most every 2 s.
 */
export function openRedis(url: string, log: WarnLog): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  watchRedis(client, log);
  return client;
}

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];
interface RawStore {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  read?(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): RawStore;
}
type StoreCtor = new (...args: unknown[]) => RawStore;

// The plugin's own stores (no type declarations of their own).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as StoreCtor;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as StoreCtor;

/**
 * A rate-limit store that counts in Redis while it answers and in this process's memory while it
 * does not (each process then limits on its own: a request limit, unlike the sign-in counters,
 * protects capacity rather than passwords).
 */
function failoverRateLimitStore(link: RedisLink, nameSpace: string) {
  const use = (
    redisStore: RawStore,
    local: RawStore,
    method: 'incr' | 'read',
  ): ((key: string, cb: StoreCallback, timeWindow: number, max: number) => void) => {
    return (key, cb, timeWindow, max) => {
      const fallback = () => (local[method] ?? local.incr).call(local, key, cb, timeWindow, max);
      if (link.state() !== 'up') return fallback();
      (redisStore[method] ?? redisStore.incr).call(
        redisStore,
        key,
        (err, res) => {
          if (err) {
            link.failed(err);
            fallback();
          } else cb(null, res);
        },
        timeWindow,
        max,
      );
    };
  };
  class FailoverStore implements FastifyRateLimitStore {
    readonly redisStore: RawStore;
    readonly local: RawStore;
    incr: FastifyRateLimitStore['incr'];
    read: (key: string, cb: StoreCallback, timeWindow: number, max: number) => void;
    constructor(
      options: { continueExceeding?: boolean; exponentialBackoff?: boolean },
      stores?: { redisStore: RawStore; local: RawStore },
    ) {
      this.redisStore =
        stores?.redisStore ??
        new RedisStore(options.continueExceeding, options.exponentialBackoff, link.client, nameSpace);
      this.local = stores?.local ?? new LocalStore(options.continueExceeding, options.exponentialBackoff);
      this.incr = use(this.redisStore, this.local, 'incr');
      this.read = use(this.redisStore, this.local, 'read');
    }
    child(routeOptions: RouteOptions) {
      return new FailoverStore(routeOptions as { continueExceeding?: boolean }, {
        redisStore: this.redisStore.child(routeOptions),
        local: this.local.child(routeOptions),
      });
    }
  }
  return FailoverStore;
}

/** The settings @fastify/rate-limit takes from Redis's presence (none without REDIS_URL). */
export function rateLimitStoreOptions(link: RedisLink, nameSpace: string) {
  return link.client ? { store: failoverRateLimitStore(link, nameSpace), nameSpace } : { nameSpace };
}

/** The sign-in counters: Redis while it answers, the database otherwise (or always, without Redis). */
export function loginThrottleFor(link: RedisLink, db: Db): LoginThrottle {
  const database = dbLoginThrottle(db);
  if (!link.client) return database;
  return failoverLoginThrottle(
    redisLoginThrottle(link.client),
    database,
    () => link.state() === 'up',
    (err) => link.failed(err),
  );
}

/** Decorates `app.redis` (see {@link RedisLink}). */
export default fp(
  async function redisPlugin(app: FastifyInstance, opts: { client?: Redis | undefined }) {
    const { client } = opts;
    const failed = client ? watchRedis(client, app.log) : () => undefined;
    const link: RedisLink = {
      client,
      state: () => (client ? (client.status === 'ready' ? 'up' : 'down') : undefined),
      failed,
    };
    app.decorate('redis', link);
  },
  { name: 'redis' },
);
