/**
 * Backup and restore on the large register (bench/README.md "Backup and restore"): the API's backup
 * (`writeBackup`, api/src/db/backup.ts) beside `pg_dump -Fc` of the same database, and its restore
 * (`restoreBackup`) into an empty database beside `pg_restore` of that dump into another, in one
 * run on the PostgreSQL server of BENCH_DATABASE_URL (or TEST_DATABASE_URL); then the same on a
 * smaller register, to show the time per row stays put as the register grows (linear, not
 * quadratic). Prints seconds and ratios; asserts nothing.
 *
 *     TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run backup --workspace bench
 *
 * The registers are the large demo data set at BENCH_SCALE (default 1: 100,000 clients, 300,000
 * schemes, about 404,000 audit rows, 100,000 training certificates) and at BACKUP_SMALL_SCALE
 * (default 0.25), built once and cached on the server as the large-set bench does (large-set.ts).
 * Each of the four operations runs BACKUP_REPEAT times (default 2), ours and PostgreSQL's tool in
 * turn, and the best run is compared (every run is printed: the machine is shared). Restores go into
 * fresh databases `sertifikasi_bench_<random>`, dropped afterwards (and on Ctrl-C); the files go to a
 * temporary folder, removed at the end. PG_DUMP and PG_RESTORE name other binaries than the ones on
 * the PATH; they should be of the server's major version.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DEMO_SEED, loadConfig, openDatabase, restoreBackup, sql, writeBackup } from './api';
import { onInterrupt } from './harness';
import { type LargeSet, largeSetName, postgresLargeSet, queryRows, recordedBuild } from './large-set';
import { envInt } from './settings';
import { describeUrl, postgresTarget } from './targets';

function envScale(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!(n > 0 && n <= 10)) throw new Error(`${name} must be a number above 0 and at most 10, got "${raw}"`);
  return n;
}

const settings = {
  serverUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || '',
  scale: envScale('BENCH_SCALE', 1),
  smallScale: envScale('BACKUP_SMALL_SCALE', 0.25),
  seed: envInt('BENCH_SEED', DEFAULT_DEMO_SEED, 0, 999_999_999),
  repeat: envInt('BACKUP_REPEAT', 2, 1, 10),
  cacheDir: path.resolve(process.env.BENCH_CACHE_DIR || path.join(__dirname, '..', '.cache')),
  rebuild: process.env.BENCH_REBUILD === '1',
  pgDump: process.env.PG_DUMP || 'pg_dump',
  pgRestore: process.env.PG_RESTORE || 'pg_restore',
};

const configFor = (env: Record<string, string>) =>
  loadConfig({ ...env, NODE_ENV: 'production', DB_STATEMENT_TIMEOUT_MS: '0', LOG_LEVEL: 'warn' });

/** Runs a program to its end; its standard error is shown when it fails. */
function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

interface Timed {
  seconds: number;
  /** This process's peak resident set above what it was before, MiB (our backup and restore). */
  peakRssMb: number;
}

async function timed(work: () => Promise<void>): Promise<Timed> {
  const base = process.memoryUsage().rss;
  let rss = base;
  const timer = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    await work();
    return { seconds: (performance.now() - started) / 1000, peakRssMb: (rss - base) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

const OPERATIONS = ['backup', 'pg_dump -Fc', 'restore', 'pg_restore'] as const;
type Operation = (typeof OPERATIONS)[number];

interface Measured {
  name: string;
  rows: number;
  /** Bytes of our file and of the dump. */
  ourBytes: number;
  dumpBytes: number;
  runs: Record<Operation, Timed[]>;
}

const best = (runs: Timed[]) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const secs = (n: number) => n.toFixed(1);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** A fresh empty database on the server for one restore, dropped when `work` ends. */
async function intoEmptyDatabase(work: (url: string) => Promise<void>): Promise<void> {
  const target = await postgresTarget(settings.serverUrl);
  onInterrupt.add(target.dispose);
  try {
    await work(target.env.DATABASE_URL!);
  } finally {
    await target.dispose();
    onInterrupt.delete(target.dispose);
  }
}

async function benchRegister(scale: number, dir: string): Promise<Measured> {
  const set: LargeSet = {
    scale,
    seed: settings.seed,
    cacheDir: settings.cacheDir,
    rebuild: settings.rebuild,
  };
  const name = largeSetName(set);
  console.log(`\n== ${name} ==`);
  const url = await postgresLargeSet(settings.serverUrl, set, configFor);
  console.log(`  ${recordedBuild(set, 'postgres') ?? 'cached'} (${describeUrl(url)})`);
  const ourFile = path.join(dir, `${name}.backup`);
  const dumpFile = path.join(dir, `${name}.dump`);
  const runs: Record<Operation, Timed[]> = {
    backup: [],
    'pg_dump -Fc': [],
    restore: [],
    pg_restore: [],
  };
  const report = (op: Operation, t: Timed, extra = '') =>
    console.log(`  ${op.padEnd(12)} ${secs(t.seconds).padStart(6)} s${extra}`);

  const source = await openDatabase({ databaseUrl: url, poolSize: 2 });
  let rows = 0;
  try {
    const counted = await queryRows<{ n: string }>(
      source,
      sql`select sum(n_live_tup)::bigint as n from pg_stat_user_tables`,
    );
    console.log(`  about ${Number(counted[0]?.n ?? 0).toLocaleString('en')} rows in all its tables`);
    for (let i = 0; i < settings.repeat; i++) {
      fs.rmSync(ourFile, { force: true });
      const ours = await timed(() => writeBackup(source.db, ourFile, new Date()));
      runs.backup.push(ours);
      report('backup', ours, `  (${mb(fs.statSync(ourFile).size)}, peak +${ours.peakRssMb.toFixed(0)} MiB)`);
      fs.rmSync(dumpFile, { force: true });
      const dump = await timed(() => run(settings.pgDump, ['-Fc', '-f', dumpFile, '-d', url]));
      runs['pg_dump -Fc'].push(dump);
      report('pg_dump -Fc', dump, `  (${mb(fs.statSync(dumpFile).size)})`);
    }
  } finally {
    await source.close();
  }
  for (let i = 0; i < settings.repeat; i++) {
    await intoEmptyDatabase(async (target) => {
      const database = await openDatabase({ databaseUrl: target, poolSize: 2 });
      try {
        let counts: Record<string, number> = {};
        const ours = await timed(async () => {
          counts = (await restoreBackup(database, ourFile)).counts;
        });
        rows = Object.values(counts).reduce((a, b) => a + b, 0);
        runs.restore.push(ours);
        report(
          'restore',
          ours,
          `  (${rows.toLocaleString('en')} rows, peak +${ours.peakRssMb.toFixed(0)} MiB)`,
        );
      } finally {
        await database.close();
      }
    });
    await intoEmptyDatabase(async (target) => {
      const theirs = await timed(() => run(settings.pgRestore, ['-d', target, dumpFile]));
      runs.pg_restore.push(theirs);
      report('pg_restore', theirs);
    });
  }
  return {
    name,
    rows,
    ourBytes: fs.statSync(ourFile).size,
    dumpBytes: fs.statSync(dumpFile).size,
    runs,
  };
}

function versionOf(program: string): string {
  const out = spawnSync(program, ['--version'], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : `${program}: not found`;
}

async function main(): Promise<number> {
  if (!settings.serverUrl) {
    console.error('Set BENCH_DATABASE_URL or TEST_DATABASE_URL: the backup bench runs on PostgreSQL only.');
    return 1;
  }
  const server = await openDatabase({ databaseUrl: settings.serverUrl, poolSize: 1 });
  const [version] = await queryRows<{ v: string }>(
    server,
    sql`select current_setting('server_version') as v`,
  );
  await server.close();
  console.log(
    `Backup and restore: node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; PostgreSQL ${version?.v} (${describeUrl(settings.serverUrl)}), ` +
      `${versionOf(settings.pgDump)}, ${versionOf(settings.pgRestore)}; best of ${settings.repeat}`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-backup-bench-'));
  const removeDir = async () => fs.rmSync(dir, { recursive: true, force: true });
  onInterrupt.add(removeDir);
  const results: Measured[] = [];
  try {
    for (const scale of [settings.smallScale, settings.scale]) results.push(await benchRegister(scale, dir));
  } finally {
    await removeDir();
  }

  const [small, large] = results as [Measured, Measured];
  const us = (m: Measured, op: Operation) => (best(m.runs[op]).seconds * 1e6) / m.rows;
  console.log(`\n| register | rows | operation | seconds (every run) | vs PostgreSQL's tool | µs a row |`);
  console.log(`| --- | ---: | --- | ---: | ---: | ---: |`);
  for (const m of results) {
    for (const op of OPERATIONS) {
      const ours = op === 'backup' || op === 'restore';
      const theirs: Operation = op === 'backup' ? 'pg_dump -Fc' : 'pg_restore';
      const ratio = ours ? `${(best(m.runs[op]).seconds / best(m.runs[theirs]).seconds).toFixed(2)}` : '1';
      const all = m.runs[op].map((t) => secs(t.seconds)).join(', ');
      console.log(
        `| ${m.name} | ${m.rows.toLocaleString('en')} | ${op} | ${secs(best(m.runs[op]).seconds)} (${all}) | ${ratio} | ${us(m, op).toFixed(1)} |`,
      );
    }
  }
  console.log(
    `\nFiles: ours ${mb(large.ourBytes)}, pg_dump -Fc ${mb(large.dumpBytes)} (${large.name}); ` +
      `ours ${mb(small.ourBytes)}, pg_dump -Fc ${mb(small.dumpBytes)} (${small.name}).`,
  );
  console.log(
    `Linearity, time a row on ${large.name} over ${small.name} (${(large.rows / small.rows).toFixed(2)} times the rows; 1.00 = linear): ` +
      OPERATIONS.map((op) => `${op} ${(us(large, op) / us(small, op)).toFixed(2)}`).join(', '),
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
