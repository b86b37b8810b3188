import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * One process at a time owns an embedded DATA_DIR (docs/architecture.md#the-embedded-postgresql-server).
 * On Linux the lock is a listening Unix socket in the abstract namespace, named after the folder's
 * real path: the kernel frees it the moment its process dies (a killed process, a zombie not yet
 * reaped, a PID reused after a restart hold nothing), and a second live process cannot bind it.
 * `DATA_DIR/.lock` then only says which process holds it. Elsewhere (no abstract sockets) the
 * `.lock` file is the lock, taken over when the PID it names is not running.
 */

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | undefined,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process${pid ? ` (PID ${pid})` : ''}. ` +
        'Only one process may open the embedded database: stop that process, or set DATA_DIR to another ' +
        'directory, or use PostgreSQL through DATABASE_URL to run several API processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Whether a process with this PID runs (one of another user's counts too; so does a zombie). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The abstract socket name of a folder (Linux): the same for every path that leads to it. */
export function lockName(realDir: string): string {
  return `\0sertifikasi-lock-${createHash('sha256').update(realDir).digest('hex')}`;
}

const BIND_GRACE_MS = 1000;

/** Two openers inside one process corrupt the directory just the same. */
const heldHere = new Set<string>();

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function writePid(file: string) {
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, String(process.pid));
  fs.renameSync(tmp, file);
}

function removePid(file: string) {
  try {
    if (readPid(file) === process.pid) fs.unlinkSync(file);
  } catch {
    /* already gone */
  }
}

/** Binds the abstract socket; a bound name (another live process) answers undefined. */
function bindAbstract(name: string): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err),
    );
    server.listen({ path: name, exclusive: true }, () => {
      // Held, never waited on: it must not keep the process running.
      server.unref();
      resolve(server);
    });
  });
}

/**
 * Takes the lock of an embedded database directory: a second process fails fast here (and never
 * starts a second server on it). Answers the release.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const real = fs.realpathSync(dataDir);
  const file = path.join(real, '.lock');
  if (heldHere.has(real)) throw new DataDirLockedError(dataDir, process.pid);
  if (process.platform !== 'linux') return pidFileLock(dataDir, real, file);
  // A holder killed a moment ago lets go when its last thread has exited: a short grace.
  let server = await bindAbstract(lockName(real));
  for (let waited = 0; !server && waited < BIND_GRACE_MS; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    server = await bindAbstract(lockName(real));
  }
  if (!server) throw new DataDirLockedError(dataDir, readPid(file));
  heldHere.add(real);
  writePid(file);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    removePid(file);
    heldHere.delete(real);
    server.close();
  };
}

/** Without abstract sockets: the PID file, created exclusively; one naming a dead PID is taken over. */
function pidFileLock(dataDir: string, real: string, file: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      heldHere.add(real);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(real);
        removePid(file);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = readPid(file);
      // A lock holding our own PID but not held here was left by an earlier process (PID reuse).
      if (pid && pid !== process.pid && processAlive(pid)) throw new DataDirLockedError(dataDir, pid);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
