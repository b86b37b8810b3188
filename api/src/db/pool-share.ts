import type pg from 'pg';
import { type Connect, type ConnectCallback, holdAverage, type PoolWait, recentMinimum } from './pool-watch';

/**
 * The part of the pool anonymous requests may hold (docs/architecture.md#overload): an acquisition
 * made for one (`applies()` says so, from the request being served) first takes one of `limit`
 * places, waiting in line for one when all are taken, and gives it back when its connection is
 * released; every other acquisition (signed-in requests, the job engine) goes straight to the pool.
 * So at least `pool size - limit` connections are never held by anonymous requests, however many
 * of them come. A place not given within the pool's own acquire timeout (DB_ACQUIRE_TIMEOUT_MS)
 * fails the query with the pool's timeout error (answered 503 unavailable, plugins/errors.ts).
 */
export interface PoolShare {
  /** How many connections the share may hold. */
  readonly limit: number;
  /** What a new acquisition of the share would wait for a place now, as the pool's wait reads. */
  now(): PoolWait;
  /** Undoes the wrapping. */
  stop(): void;
}

interface Waiter {
  at: number;
  grant: () => void;
}

export function sharePool(pool: pg.Pool, limit: number, applies: () => boolean): PoolShare {
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
  /** The client's release (this checkout's, set by the pool) gives the place back, once. */
  const giveBackOnRelease = (client: pg.PoolClient, since: number) => {
    // The pool sets `release` on every checkout, as a closure that ignores `this`.
    const release = client.release.bind(client);
    let done = false;
    client.release = (err?: Error | boolean) => {
      if (!done) {
        done = true;
        hold.add(performance.now() - since);
        free();
      }
      return release(err);
    };
  };

  const inner = (pool as unknown as { connect: Connect }).connect;
  const wrapped: Connect = function (this: pg.Pool, cb?: ConnectCallback) {
    if (stopped || !applies()) return inner.call(this, cb);
    const connected = place().then((since) =>
      (inner.call(this) as Promise<pg.PoolClient>).then(
        (client) => {
          giveBackOnRelease(client, since);
          return client;
        },
        (err: unknown) => {
          free();
          throw err;
        },
      ),
    );
    if (typeof cb !== 'function') return connected;
    connected.then(
      (client) => cb(undefined, client, (err?: Error | boolean) => client.release(err)),
      (err: Error) => cb(err, undefined, undefined),
    );
    return undefined;
  };
  (pool as unknown as { connect: Connect }).connect = wrapped;

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
      if ((pool as unknown as { connect: Connect }).connect === wrapped) {
        (pool as unknown as { connect: Connect }).connect = inner;
      }
    },
  };
}
