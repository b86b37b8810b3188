import pg from 'pg';

/**
 * One way for a connection of the app's pool: given the rest of the way (`next`, ending at the
 * pool itself), it answers the connection, doing what it must before and after (time the wait,
 * wait for a place first).
 */
export type AcquireStep = (next: () => Promise<pg.PoolClient>) => Promise<pg.PoolClient>;

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * The app's connection pool (db/index.ts): a node-postgres pool whose `connect` (which its `query`
 * and drizzle's transactions go through: where the app takes a client) runs through the steps
 * added with `around`, the last added outermost. Without steps it is the pool's own `connect`.
 * What watches the pool (db/pool-watch.ts, db/pool-share.ts) adds a step here and listens to the
 * pool's own events ('acquire', 'release'); nothing replaces a method of the pool or of a client.
 */
export class AppPool extends pg.Pool {
  #steps: AcquireStep[] = [];

  /** Adds a step to every acquisition from now on; answers its removal. */
  around(step: AcquireStep): () => void {
    this.#steps.push(step);
    return () => {
      const at = this.#steps.indexOf(step);
      if (at >= 0) this.#steps.splice(at, 1);
    };
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (!this.#steps.length) return callback ? super.connect(callback) : super.connect();
    let way = (): Promise<pg.PoolClient> => super.connect();
    for (const step of this.#steps) {
      const next = way;
      way = () => step(next);
    }
    const connected = way();
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, (err?: unknown) => client.release(err as Error | undefined)),
      (err: Error) => callback(err, undefined, () => undefined),
    );
  }
}

/** Whether `pool` is the app's pool (a test or a bench may hand a plain one: then nothing is watched). */
export const isAppPool = (pool: unknown): pool is AppPool => pool instanceof AppPool;
