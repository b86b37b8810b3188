/**
 * The large demo data set, built once per size and kept (bench/README.md "Large data set"): a
 * PostgreSQL database `sertifikasi_demo_large_x<scale>_s<seed>_v<version>_m<migrations>` on the
 * bench server and an embedded DATA_DIR `embedded_<same name>` in `bench/.cache`, each built under a
 * temporary name and renamed when complete, with their build times beside them. Shared by the
 * large-set bench (large-bench.ts) and the backup bench (backup-bench.ts), so both find the same
 * databases.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeOnInterrupt } from './harness';
import { stopServerIn } from './targets';
import {
  type Config,
  type Database,
  demoVolume,
  fillDemoDatabase,
  migrate,
  openDatabase,
  readMigrations,
  seedAdministrator,
  seedPermissions,
  type SQL,
  sql,
} from './api';

/**
 * Bump when the generator's output changes, so cached databases are built again (2: the register
 * counts, made by the generator's rebuild; 3: decision dates, audits done and the stored items due
 * of the certification cycle; 4: signed QR codes on every training certificate and on a third of
 * the schemes out of draft, audit rows marked `demo`; 5: every record through its service, by each
 * company's staff user, its status changes, audits done and QRs as writes of their own).
 */
export const GENERATOR_VERSION = 5;

export interface LargeSet {
  scale: number;
  seed: number;
  /** Where build times are kept. */
  cacheDir: string;
  /** Build it again even when cached (BENCH_REBUILD=1). */
  rebuild: boolean;
}

/**
 * The cached data set's name: size, scale, seed, generator version and how many migrations made
 * its schema (a new migration, or a generator change, gives a new name: a fresh build).
 */
export const largeSetName = (set: Pick<LargeSet, 'scale' | 'seed'>) =>
  `demo_large_x${String(set.scale).replace('.', '_')}_s${set.seed}` +
  `_v${GENERATOR_VERSION}_m${readMigrations().length}`;

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Build times are kept beside the cache (`<target>: <line>` lines), so a later run can still print
 * them. Plain text: the cache folder stays out of Prettier's way.
 */
const timesFile = (set: LargeSet) => path.join(set.cacheDir, `${largeSetName(set)}.times.txt`);
function readTimes(set: LargeSet): Map<string, string> {
  const file = timesFile(set);
  if (!fs.existsSync(file)) return new Map();
  return new Map(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)] as [string, string],
      ),
  );
}
export function recordBuild(set: LargeSet, target: string, line: string) {
  fs.mkdirSync(set.cacheDir, { recursive: true });
  const all = readTimes(set);
  all.set(target, line);
  fs.writeFileSync(timesFile(set), [...all].map(([k, v]) => `${k}: ${v}\n`).join(''));
}
export const recordedBuild = (set: LargeSet, target: string): string | undefined =>
  readTimes(set).get(target);

/** Migrates, makes the administrator and fills the demo data set: what `npm run demo` does. */
export async function fillLargeSet(set: LargeSet, database: Database, config: Config): Promise<string> {
  const started = performance.now();
  await migrate(database);
  await seedPermissions(database.db);
  await seedAdministrator(database.db, {
    username: 'admin',
    password: randomBytes(12).toString('base64url'),
    cost: config.argon2,
  });
  const volume = demoVolume('large', set.scale);
  console.log(
    `  building ${largeSetName(set)}: ${volume.clients} clients, ${volume.schemes} schemes, ${volume.trainings} training certificates`,
  );
  const result = await fillDemoDatabase(database, config, {
    volume,
    seed: set.seed,
    password: randomBytes(12).toString('base64url'),
    log: (line) => console.log(line),
  });
  const total = performance.now() - started;
  return (
    `built ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} CPUs: ${secs(total)} in all ` +
    `(writing ${result.seconds.write.toFixed(1)} s, vacuum analyze ${result.seconds.analyze.toFixed(1)} s); ` +
    `${result.rows.schemes} schemes, ${result.rows.auditRows} audit rows`
  );
}

/** The rows of a raw query (both drivers answer `{rows}`). */
export async function queryRows<T>(database: Database, query: SQL): Promise<T[]> {
  const result: unknown = await database.db.execute(query);
  return (result as { rows: T[] }).rows;
}

export async function onServer<T>(serverUrl: string, run: (db: Database) => Promise<T>): Promise<T> {
  const admin = await openDatabase({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    return await run(admin);
  } finally {
    await admin.close();
  }
}

export const withDatabase = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * The URL of the cached PostgreSQL database of `set` on the bench server, built under a temporary
 * name when missing. `configFor` gives the API's configuration for a database URL (the demo
 * generator's argon2 cost, time zone).
 */
export async function postgresLargeSet(
  serverUrl: string,
  set: LargeSet,
  configFor: (env: Record<string, string>) => Config,
): Promise<string> {
  const name = `sertifikasi_${largeSetName(set)}`;
  const building = `${name}_building`;
  const exists = await onServer(serverUrl, async (db) => {
    if (set.rebuild) await db.exec(`drop database if exists ${name} with (force)`);
    return (await queryRows(db, sql`select 1 from pg_database where datname = ${name}`)).length > 0;
  });
  if (!exists) {
    await onServer(serverUrl, async (db) => {
      await db.exec(`drop database if exists ${building} with (force)`);
      await db.exec(`create database ${building}`);
    });
    const url = withDatabase(serverUrl, building);
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    let line: string;
    try {
      line = await fillLargeSet(set, database, configFor({ DATABASE_URL: url }));
    } finally {
      await database.close();
    }
    await onServer(serverUrl, (db) => db.exec(`alter database ${building} rename to ${name}`));
    recordBuild(set, 'postgres', line);
  }
  return withDatabase(serverUrl, name);
}

/**
 * The cached embedded DATA_DIR of `set` (the API's own PostgreSQL server and its files), built when
 * missing: in `<dir>.building`, where the API's openDatabase starts the server; the server is
 * stopped and the folder renamed when complete. A server left running in either by an interrupted
 * run is stopped before the folder is removed or opened.
 */
export async function embeddedLargeSet(
  set: LargeSet,
  configFor: (env: Record<string, string>) => Config,
): Promise<string> {
  const dir = path.join(set.cacheDir, `embedded_${largeSetName(set)}`);
  if (set.rebuild) {
    await stopServerIn(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!fs.existsSync(dir)) {
    const building = `${dir}.building`;
    await stopServerIn(building);
    fs.rmSync(building, { recursive: true, force: true });
    fs.mkdirSync(building, { recursive: true });
    const opened = await openDatabase({ dataDir: building });
    const close = closeOnInterrupt(() => opened.close());
    let line: string;
    try {
      line = await fillLargeSet(set, opened, configFor({ DATA_DIR: building }));
    } finally {
      await close();
    }
    fs.renameSync(building, dir);
    recordBuild(set, 'embedded', line);
  }
  return dir;
}
