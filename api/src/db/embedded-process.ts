import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from './lock';

/**
 * The embedded server as a process: which PID is it, and stopping it. `postmaster.pid` lives in a
 * folder the server's user writes, so the PID it names is signalled only once that process is seen
 * to be a PostgreSQL server running on this very data directory (docs/rules.md#embedded-postgresql).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is a PostgreSQL server whose data directory is `pgdata`. On Linux: its executable
 * is a `postgres` binary and its working directory (the server changes into its data directory) is
 * `pgdata`. Elsewhere: its command line runs `postgres -D <pgdata>`. Anything unreadable: no.
 */
export function isServerOf(pid: number, pgdata: string): boolean {
  const target = realpath(pgdata);
  if (!target) return false;
  if (fs.existsSync('/proc/self/exe')) {
    try {
      const exe = fs.readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '');
      return path.basename(exe) === 'postgres' && fs.readlinkSync(`/proc/${pid}/cwd`) === target;
    } catch {
      return false;
    }
  }
  try {
    const args = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const [exe, flag, dir] = args.split(/\s+/);
    return (
      path.basename(exe ?? '') === 'postgres' &&
      flag === '-D' &&
      (dir === pgdata || realpath(dir ?? '') === target)
    );
  } catch {
    return false;
  }
}

/** The PID in a data directory's postmaster.pid, when that process is its server and still runs. */
export function leftoverServer(pgdata: string): number | undefined {
  const file = path.join(pgdata, 'postmaster.pid');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  return processAlive(pid) && isServerOf(pid, pgdata) ? pid : undefined;
}

/**
 * Asks a server to stop (fast shutdown) and waits for it; past the wait, an immediate shutdown.
 * `pgdata`, when given, is checked again before each signal (the PID may have gone and been reused).
 */
export async function stopPid(pid: number, waitMs = 30_000, pgdata?: string) {
  const ours = () => !pgdata || isServerOf(pid, pgdata);
  const deadline = Date.now() + waitMs;
  try {
    if (!ours()) return;
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  // A zombie (exited, not reaped yet) is no server any more.
  while (processAlive(pid) && ours()) {
    if (Date.now() > deadline) {
      try {
        if (ours()) process.kill(pid, 'SIGQUIT');
      } catch {
        /* gone */
      }
      await sleep(500);
      return;
    }
    await sleep(50);
  }
}
