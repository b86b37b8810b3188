import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The root-owned folder the embedded server uses as root when the project or DATA_DIR is closed to
 * the server's user (docs/architecture.md#the-embedded-postgresql-server): a copy of the binaries,
 * and the clusters of DATA_DIRs that user cannot reach. What lives in it is trusted only when no
 * one but root (or the user running us) can have changed it: every folder from `/` down is owned
 * by root or us, writable by no one else, and no symlink.
 */
export const STORE_DIR = '/var/lib/sertifikasi';

const myUid = () => (typeof process.getuid === 'function' ? process.getuid() : -1);

function ownedSafely(st: fs.Stats): boolean {
  return (st.uid === 0 || st.uid === myUid()) && (st.mode & 0o022) === 0;
}

/** Whether `p` and every folder above it are real folders/files only root or we can have changed. */
export function trustedPath(p: string): boolean {
  let current = path.resolve(p);
  for (;;) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(current);
    } catch {
      return false;
    }
    if (st.isSymbolicLink() || !ownedSafely(st)) return false;
    const up = path.dirname(current);
    if (up === current) return true;
    current = up;
  }
}

/** Whether everything inside `dir` is ours and writable by no one else; links stay inside it. */
export function trustedTree(dir: string): boolean {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    const st = fs.lstatSync(p);
    if (st.uid !== 0 && st.uid !== myUid()) return false;
    if (st.isSymbolicLink()) {
      const target = fs.readlinkSync(p);
      if (path.isAbsolute(target) || target.split('/').includes('..')) return false;
      continue;
    }
    if ((st.mode & 0o022) !== 0) return false;
    if (st.isDirectory() && !trustedTree(p)) return false;
  }
  return true;
}

/** Takes group and other write permission off everything under `dir` (a fresh copy of ours). */
function closeTree(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    fs.chmodSync(p, fs.statSync(p).mode & 0o7755);
    if (entry.isDirectory()) closeTree(p);
  }
}

/**
 * A folder of the store (made root-owned, 0755 when missing), answered only when it can be
 * trusted; undefined when it cannot be made or trusted (then the caller takes another way).
 */
export function storeFolder(...parts: string[]): string | undefined {
  let dir = STORE_DIR;
  try {
    for (const part of ['', ...parts]) {
      dir = path.join(dir, part);
      if (!fs.existsSync(dir)) {
        fs.mkdirSync(dir);
        // Whatever the umask: the server's user passes through (and reads the binaries).
        fs.chmodSync(dir, 0o755);
      }
    }
  } catch {
    return undefined;
  }
  return trustedPath(dir) ? dir : undefined;
}

/**
 * The binaries folder `native` copied where the server's user can run it, and no one else can have
 * changed it: `<STORE_DIR>/postgres-<stamp>`, reused only while it is trusted (else replaced), built
 * in a fresh folder and renamed into place. Without a usable store: a fresh private copy under the
 * system's temporary folder, for this process only (`temporary`: removed at stop).
 */
export function copyBinaries(
  native: string,
  stamp: string,
  store: string | undefined,
): { dir: string; temporary: boolean } {
  if (!store) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-postgres-'));
    fs.cpSync(native, dir, { recursive: true, verbatimSymlinks: true });
    closeTree(dir);
    fs.chmodSync(dir, 0o755);
    return { dir, temporary: true };
  }
  const copy = path.join(store, `postgres-${stamp}`);
  const usable = () =>
    fs.existsSync(path.join(copy, 'bin', 'postgres')) && trustedPath(copy) && trustedTree(copy);
  if (fs.existsSync(copy) || isLink(copy)) {
    if (usable()) return { dir: copy, temporary: false };
    fs.rmSync(copy, { recursive: true, force: true });
  }
  const building = fs.mkdtempSync(path.join(store, '.building-'));
  try {
    fs.cpSync(native, building, { recursive: true, verbatimSymlinks: true });
    closeTree(building);
    fs.chmodSync(building, 0o755);
    fs.renameSync(building, copy);
  } catch (err) {
    fs.rmSync(building, { recursive: true, force: true });
    // Another process put its copy in place meanwhile.
    if (!usable()) throw err;
  }
  return { dir: copy, temporary: false };
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Where the cluster of a DATA_DIR the server's user cannot reach lives: one folder per DATA_DIR. */
export function relocatedCluster(realDataDir: string): string | undefined {
  const id = createHash('sha256').update(realDataDir).digest('hex').slice(0, 24);
  const folder = storeFolder('clusters', id);
  return folder && path.join(folder, 'postgres');
}
