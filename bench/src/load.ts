import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';

/**
 * One request of a load run. In `body`, every `{{n}}` is replaced by a number that is new for each
 * request the load generator sends (for creates that must be unique, e.g. certificate numbers).
 */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** One load run: requests cycled through by every connection, for a fixed time, on loopback. */
export interface LoadJob {
  url: string;
  connections: number;
  seconds: number;
  requests: LoadRequest[];
}

export interface LoadResult {
  /** Mean responses a second (all status codes). */
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  ok: number;
  /** Response counts by status code, for a look when non2xx is not zero. */
  statusCodes: Record<string, number>;
}

export type WorkerRequest = { id: number; job: LoadJob };
export type WorkerReply = { id: number; result?: LoadResult; error?: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) throw new Error(`bench only loads loopback addresses, not ${host}`);
}

/**
 * autocannon in a child process, so the load generator does not share the event loop it measures:
 * on two cores, the server gets one and the generator the other.
 */
export class LoadGenerator {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: WorkerReply) => void>();

  constructor() {
    // fork() keeps process.execArgv, so the child runs under tsx like this process.
    this.child = fork(path.join(__dirname, 'load-worker.ts'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: WorkerReply) => {
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
    });
    this.child.on('exit', (code) => {
      for (const [id, settle] of this.pending) settle({ id, error: `load generator exited (${code})` });
      this.pending.clear();
    });
  }

  run(job: LoadJob): Promise<LoadResult> {
    assertLoopback(job.url);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // autocannon stops by itself; this only guards against a stuck child.
      const watchdog = setTimeout(
        () => {
          this.pending.delete(id);
          reject(new Error('load generator did not answer in time'));
        },
        (job.seconds + 60) * 1000,
      );
      this.pending.set(id, (reply) => {
        clearTimeout(watchdog);
        if (reply.result) resolve(reply.result);
        else reject(new Error(reply.error ?? 'load generator failed'));
      });
      this.child.send({ id, job } satisfies WorkerRequest);
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
    if (this.child.exitCode === null) this.child.kill();
  }
}
