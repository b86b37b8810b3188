/**
 * Waiting for things in tests that run real processes or real time: one way to poll, one way to
 * start the API's own scripts as child processes. A test never waits a fixed time for something it
 * can watch; it polls for it, with a deadline that only a broken system reaches.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Whether a process is a zombie: it has exited, and only its entry waits for a parent to reap it. */
function zombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/**
 * Whether a process of this id is running (signal 0 checks without signalling). A zombie is not: a
 * server stopped after its parent was killed may wait a while for init to reap it.
 */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !zombie(pid);
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it answers something truthy, and answers that; throws `timed out waiting for
 * <what>` past the deadline. `every`: the pause between two probes.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  { timeoutMs = 60_000, every = 100 }: { timeoutMs?: number; every?: number } = {},
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(every);
  }
}

/** A child process of ours, with everything it printed so far and its exit code once it ends. */
export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const apiRoot = path.resolve(__dirname, '..');

/**
 * Runs one of the API's scripts (`src/server.ts`, `src/cli.ts`) from its source as production
 * would (NODE_ENV production, info logs), with `env` over this process's environment.
 */
export function runApi(script: string, args: string[], env: Record<string, string>): Proc {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: apiRoot,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}
