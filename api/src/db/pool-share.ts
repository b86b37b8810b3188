import type pg from 'pg';
import type { AppPool } from './app-pool';
import { holdAverage, type PoolWait, recentMinimum } from './pool-watch';

/**
 * The part of the pool anonymous requests may hold (docs/architecture.md#overload): an acquisition
 * made for one (`applies()` says so, from the request being served) first takes one of `limit`
 * places, waiting in line for one when all are taken, and gives it back when its connection is
 * released; every other acquisition (signed-in requests, the job engine) goes straight to the pool.
 * So at least `pool size - limit` connections are never held by anonymous requests, however many
 * of them come. A place not given within the pool's own acquire timeout (DB_ACQUIRE_TIMEOUT_MS)
 * fails the query with the pool's timeout error (answered 503 unavailable, plugins/errors.ts).
 * The share is a step of the app's pool (db/app-pool.ts `around`); the place goes back at the
 * pool's 'release' event of the connection it was taken for.
 */
export interface PoolShare {
  /** How many connections the share may hold. */
  readonly limit: number;
  /** What a new acquisition of the share would wait for a place now, as the pool's wait reads. */
  now(): PoolWait;
  /** Stops sharing (its step leaves the pool). */
  stop(): void;
}

interface Waiter {
  at: number;
  grant: () => void;
}

export function sharePool(pool: AppPool, limit: number, applies: () => boolean): PoolShare {
  const timeoutMs = pool.options.connectionTimeoutMillis ?? 0;
  const queue: Waiter[] = [];
  const waits = recentMinimum();
  const hold = holdAverage();
  let held = 0;
  let stopped = false;

  const free = () => {
    held--;
    const next = queue.shift();
    if (next) next.grant();
  };
  /** Resolves with the moment the place was taken; rejects at the timeout. */
  const place = (): Promise<number> => {
    const at = performance.now();
    const taken = () => {
      held++;
      const now = performance.now();
      waits.record(now - at, now);
      return now;
    };
    if (held < limit && !queue.length) return Promise.resolve(taken());
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        at,
        grant: () => {
          clearTimeout(timer);
          resolve(taken());
        },
      };
      queue.push(waiter);
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          const now = performance.now();
          waits.record(now - at, now);
          reject(new Error('timeout exceeded when trying to connect'));
        }, timeoutMs);
        timer.unref();
      }
    });
  };
  /** The connections taken with a place, and since when: their release gives the place back. */
  const placed = new Map<pg.PoolClient, number>();
  const onRelease = (_err: Error | undefined, client: pg.PoolClient) => {
    const since = placed.get(client);
    if (since === undefined) return;
    placed.delete(client);
    hold.add(performance.now() - since);
    free();
  };
  pool.on('release', onRelease);

  const removeStep = pool.around(async (next) => {
    if (stopped || !applies()) return next();
    const since = await place();
    let client: pg.PoolClient;
    try {
      client = await next();
    } catch (err) {
      free();
      throw err;
    }
    placed.set(client, since);
    return client;
  });

  return {
    limit,
    now() {
      const now = performance.now();
      const oldest = queue[0];
      const oldestMs = oldest ? now - oldest.at : 0;
      const recentMinMs = waits.read(now);
      const holdMs = hold.get();
      const waiting = queue.length;
      const open = waiting === 0 && held < limit;
      const drainMs = open ? 0 : ((waiting + 1) * holdMs) / limit;
      return {
        waiting,
        oldestMs,
        recentMinMs,
        holdMs,
        drainMs,
        expectedMs: open ? 0 : Math.max(oldestMs, recentMinMs ?? 0, drainMs),
      };
    },
    stop() {
      stopped = true;
      removeStep();
      pool.off('release', onRelease);
    },
  };
}
