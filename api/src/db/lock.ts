import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (PID ${pid}). ` +
        'Only one process may open the embedded database: stop that process, or set DATA_DIR to another ' +
        'directory, or use PostgreSQL through DATABASE_URL to run several API processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Whether a process with this PID runs (one of another user's counts too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the exclusive lock file (holding our PID) of an embedded database directory: one process
 * runs its server, so a second process fails fast here (and never starts a second server on it). A lock left by a dead
 * process is taken over.
 */
const heldHere = new Set<string>();

export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(fs.realpathSync(dataDir), '.lock');
  // Two openers inside one process corrupt the directory just the same.
  if (heldHere.has(file)) throw new DataDirLockedError(dataDir, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      heldHere.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
      // A lock holding our own PID but not held here was left by an earlier process (PID reuse).
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
        throw new DataDirLockedError(dataDir, pid);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
