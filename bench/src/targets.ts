import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { LOG_REDACT, loadConfig, openDatabase, openRuntime } from './api';
import { onInterrupt } from './harness';

/** A database the API runs on for one part of the benchmark, created fresh and removed afterwards. */
export interface Target {
  name: 'pglite' | 'postgres';
  /** What goes into the API's environment (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  /** Safe to call more than once. */
  dispose: () => Promise<void>;
}

/** The embedded database in a fresh temporary DATA_DIR. */
export function pgliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-bench-'));
  return {
    name: 'pglite',
    env: { DATA_DIR: dir },
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
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
    env: { DATABASE_URL: url.toString() },
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
  const runtime = await openRuntime(config, { migrate: true, logger });
  return { password, config, logger, runtime };
}

/**
 * Runs `bench` on each target BENCH_TARGETS names (pglite, postgres; PostgreSQL only with
 * BENCH_DATABASE_URL or TEST_DATABASE_URL), one at a time, each disposed afterwards (and on Ctrl-C),
 * and answers the lines they report, in that order.
 */
export async function benchEachTarget(bench: (target: Target) => Promise<string[]>): Promise<string[]> {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const names = (process.env.BENCH_TARGETS || 'pglite,postgres').split(',').map((s) => s.trim());
  const results: string[] = [];
  for (const name of ['pglite', 'postgres'] as const) {
    if (!names.includes(name)) continue;
    if (name === 'postgres' && !serverUrl) continue;
    if (name === 'postgres') console.log(`  postgres: ${describeUrl(serverUrl!)}`);
    const target = name === 'pglite' ? pgliteTarget() : await postgresTarget(serverUrl!);
    onInterrupt.add(target.dispose);
    try {
      results.push(...(await bench(target)));
    } finally {
      await target.dispose();
    }
  }
  return results;
}
