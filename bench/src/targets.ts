import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { leftoverServer, LOG_REDACT, loadConfig, openDatabase, openRuntime, stopPid } from './api';
import { closeOnInterrupt, onInterrupt } from './harness';

/** The database targets, in the order they run. */
export const TARGET_NAMES = ['embedded', 'postgres'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

/** BENCH_TARGETS (default: both), checked against the known names. */
export function chosenTargets(): TargetName[] {
  const names = (process.env.BENCH_TARGETS || TARGET_NAMES.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(TARGET_NAMES as readonly string[]).includes(name))
      throw new Error(`unknown target "${name}" in BENCH_TARGETS (${TARGET_NAMES.join(', ')})`);
  }
  return names as TargetName[];
}

/** A database the API runs on for one part of the benchmark, created fresh and removed afterwards. */
export interface Target {
  name: TargetName;
  /** What goes into the API's environment (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  /** Safe to call more than once. */
  dispose: () => Promise<void>;
}

/**
 * Stops an embedded PostgreSQL server still running in `dataDir` (its `postmaster.pid`), e.g. one
 * whose API process was interrupted before closing it, the way the API stops a leftover server.
 * Nothing when none runs. A folder is never removed under a running server.
 */
export async function stopServerIn(dataDir: string): Promise<void> {
  const pid = leftoverServer(path.join(dataDir, 'postgres'));
  if (pid) await stopPid(pid);
}

/**
 * The embedded default: a fresh temporary DATA_DIR, in which the API (its `openRuntime` or
 * `openDatabase`) starts its own PostgreSQL server; removed by dispose(), after any server still
 * running there is stopped.
 */
export function embeddedTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-bench-'));
  let disposed: Promise<void> | undefined;
  return {
    name: 'embedded',
    env: { DATA_DIR: dir },
    dispose: () =>
      (disposed ??= (async () => {
        await stopServerIn(dir);
        fs.rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = await openDatabase({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    await admin.exec(statement);
  } finally {
    await admin.close();
  }
}

/** A fresh database `sertifikasi_bench_<random>` on the server of `serverUrl`, dropped by dispose(). */
export async function postgresTarget(serverUrl: string): Promise<Target> {
  const name = `sertifikasi_bench_${randomBytes(5).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name: 'postgres',
    // The bench's API takes no scheduled backups (with DATABASE_URL they would need BACKUP_DIR).
    env: { DATABASE_URL: url.toString(), BACKUP_SCHEDULE: 'off' },
    dispose: async () => {
      if (dropped) return;
      dropped = true;
      // with (force) also ends connections an interrupted run left open (PostgreSQL 13+).
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** The server URL without its password, for printing. */
export function describeUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * The API's runtime on a target as a production start would open it (migrated, the administrator
 * created with a fresh password, logs discarded), for benchmarks that build the app in-process.
 */
export async function openTargetRuntime(target: Target) {
  const password = randomBytes(12).toString('base64url');
  const config = loadConfig({
    ...target.env,
    NODE_ENV: 'production',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: password,
    LOG_LEVEL: 'info',
    // Seeding inserts many rows a statement on a busy machine.
    DB_STATEMENT_TIMEOUT_MS: '0',
    HOST: '127.0.0.1',
    PORT: '0',
  });
  const logger = pino({ level: 'info', redact: LOG_REDACT }, pino.destination('/dev/null'));
  const opened = await openRuntime(config, { migrate: true, logger });
  // Closed once, by the caller's finally or on Ctrl-C before the target is removed.
  const runtime = { ...opened, close: closeOnInterrupt(() => opened.close()) };
  return { password, config, logger, runtime };
}

/**
 * Runs `bench` on each target BENCH_TARGETS names (embedded, postgres; PostgreSQL only with
 * BENCH_DATABASE_URL or TEST_DATABASE_URL), one at a time, each disposed afterwards (and on Ctrl-C),
 * and answers the lines they report, in that order.
 */
export async function benchEachTarget(bench: (target: Target) => Promise<string[]>): Promise<string[]> {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const names = chosenTargets();
  const results: string[] = [];
  for (const name of TARGET_NAMES) {
    if (!names.includes(name)) continue;
    if (name === 'postgres' && !serverUrl) continue;
    const target = name === 'embedded' ? embeddedTarget() : await postgresTarget(serverUrl!);
    console.log(
      `  ${name}: ${name === 'embedded' ? `DATA_DIR ${target.env.DATA_DIR}` : describeUrl(serverUrl!)}`,
    );
    onInterrupt.add(target.dispose);
    try {
      results.push(...(await bench(target)));
    } finally {
      await target.dispose();
      onInterrupt.delete(target.dispose);
    }
  }
  return results;
}
