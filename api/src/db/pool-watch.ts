import type pg from 'pg';
import type { AppPool } from './app-pool';

/**
 * How long requests wait for a connection of the pool, the signal overload is judged by
 * (plugins/overload.ts): most requests wait on the database, which the event loop does not
 * show. A step of the app's pool (db/app-pool.ts `around`: its `connect`, which its `query` and
 * drizzle's transactions go through) times every acquisition from the call to the connection (or
 * the acquire timeout's error); the pool's `acquire` and `release` events time how long
 * connections are held.
 */
export interface PoolWait {
  /** Acquisitions waiting for a connection now. */
  waiting: number;
  /** How long the oldest of them has waited (ms); 0 when none waits. */
  oldestMs: number;
  /**
   * The shortest wait of the acquisitions completed in the last 100 to 200 ms, undefined when none
   * completed: above a limit, every request of that time waited (a queue that stands, not a burst).
   */
  recentMinMs: number | undefined;
  /** How long a connection is held, a moving average over recent releases (ms). */
  holdMs: number;
  /**
   * What the queue ahead of a new acquisition takes to drain at that pace, (waiting + 1) x hold /
   * connections (ms); 0 when a connection is free and nobody waits.
   */
  drainMs: number;
  /**
   * What a new acquisition would wait (ms): 0 when a connection is free and nobody waits, otherwise
   * the largest of the oldest wait, the recent minimum and the drain time.
   */
  expectedMs: number;
}

export interface PoolWatch {
  now(): PoolWait;
  /** Stops watching (its step leaves the pool; other steps keep working). */
  stop(): void;
}

/** Completed waits are kept as the minimum of each bucket: the current one and the one before. */
const BUCKET_MS = 100;
/** Weight of the newest hold in the moving average. */
const HOLD_WEIGHT = 0.1;

/**
 * The shortest of the waits completed in the current 100 ms bucket and the one before (undefined
 * when none completed): above a limit, every acquisition of that time waited.
 */
export function recentMinimum() {
  let bucket = -1;
  let bucketMin = Infinity;
  let previousMin = Infinity;
  return {
    record(waitMs: number, at: number) {
      const b = Math.floor(at / BUCKET_MS);
      if (b !== bucket) {
        previousMin = b === bucket + 1 ? bucketMin : Infinity;
        bucket = b;
        bucketMin = Infinity;
      }
      if (waitMs < bucketMin) bucketMin = waitMs;
    },
    read(now: number): number | undefined {
      const b = Math.floor(now / BUCKET_MS);
      const recent =
        b === bucket ? Math.min(bucketMin, previousMin) : b === bucket + 1 ? bucketMin : Infinity;
      return recent === Infinity ? undefined : recent;
    },
  };
}

/** A moving average of how long connections are held (ms). */
export function holdAverage() {
  let holdMs = 0;
  return {
    add(held: number) {
      holdMs = holdMs ? holdMs + HOLD_WEIGHT * (held - holdMs) : held;
    },
    get: () => holdMs,
  };
}

export function watchPool(pool: AppPool): PoolWatch {
  const size = Math.max(1, pool.options.max ?? 10);
  const pending = new Set<{ at: number }>();
  const waits = recentMinimum();
  const hold = holdAverage();

  const removeStep = pool.around(async (next) => {
    const entry = { at: performance.now() };
    pending.add(entry);
    const settle = () => {
      if (!pending.delete(entry)) return;
      const now = performance.now();
      waits.record(now - entry.at, now);
    };
    try {
      return await next();
    } finally {
      settle();
    }
  });

  const heldSince = new WeakMap<object, number>();
  const onAcquire = (client: pg.PoolClient) => heldSince.set(client, performance.now());
  const onRelease = (_err: Error | undefined, client: pg.PoolClient) => {
    const since = heldSince.get(client);
    if (since === undefined) return;
    heldSince.delete(client);
    hold.add(performance.now() - since);
  };
  pool.on('acquire', onAcquire);
  pool.on('release', onRelease);

  return {
    now() {
      const now = performance.now();
      const oldest = pending.values().next().value;
      const oldestMs = oldest ? now - oldest.at : 0;
      const recentMinMs = waits.read(now);
      const holdMs = hold.get();
      const waiting = pool.waitingCount;
      // A connection free now, and nobody ahead: a new acquisition waits for nothing.
      const free = waiting === 0 && (pool.idleCount > 0 || pool.totalCount < size);
      const drainMs = free ? 0 : ((waiting + 1) * holdMs) / size;
      return {
        waiting,
        oldestMs,
        recentMinMs,
        holdMs,
        drainMs,
        expectedMs: free ? 0 : Math.max(oldestMs, recentMinMs ?? 0, drainMs),
      };
    },
    stop() {
      removeStep();
      pending.clear();
      pool.off('acquire', onAcquire);
      pool.off('release', onRelease);
    },
  };
}
