/**
 * What the flood benches share (flood-bench.ts): the API started as its own process on a filled
 * DATA_DIR (or BENCH_DATABASE_URL), one request timed, sign-in. Traffic to 127.0.0.1 only.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './api';

export const root = path.resolve(__dirname, '..', '..');
export const SCALE = Number(process.env.FLOOD_SCALE ?? 10);
/** A request not answered within this long is given up (counted "no answer"). */
export const GIVE_UP_MS = 60_000;
export const PASSWORD = 'flood-admin-password';
export const HOST = '127.0.0.1';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function start(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'api', 'dist', 'server.js')], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST,
      LOG_LEVEL: process.env.FLOOD_LOG_LEVEL ?? 'error',
    },
    stdio: ['ignore', process.env.FLOOD_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'],
  });
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`http://${HOST}:${port}/api/health`)).ok) return { child, port };
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the API did not start');
}

export async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Fills the database with the demo data set through the API's own command. */
function fill(dbEnv: Record<string, string>) {
  console.log(`filling the database: demo data set, --size small --scale ${SCALE} ...`);
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'api', 'dist', 'cli.js'), 'demo', '--size', 'small', '--scale', String(SCALE)],
    {
      env: { ...process.env, ...dbEnv, ADMIN_PASSWORD: PASSWORD, DEMO_PASSWORD: `${PASSWORD}-demo` },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`the demo command failed (exit ${result.status})`);
  const summary = result.stdout.split('\n').find((line) => /clients, \d+ schemes/.test(line));
  console.log(summary?.trim() ?? 'filled');
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

export interface Outcome {
  status: number;
  ms: number;
  retryAfter: number | undefined;
}

/** One GET on `agent`'s connections, signed in with `token` when given. */
export function send(
  agent: http.Agent,
  port: number,
  token: string | undefined,
  url: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(
      { agent, host: HOST, port, path: url, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.resume();
        res.on('end', () => {
          const header = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            retryAfter: header === undefined ? undefined : Number(header),
          });
        });
        res.on('error', () => resolve({ status: 0, ms: performance.now() - started, retryAfter: undefined }));
      },
    );
    req.setTimeout(GIVE_UP_MS, () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, retryAfter: undefined }));
  });
}

export async function signIn(port: number): Promise<string> {
  const res = await fetch(`http://${HOST}:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in answered ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Builds the API if stale, fills the database once (FLOOD_DATA_DIR keeps it between runs), runs
 * `fn` with the settings that point the API at it, and removes a temporary directory afterwards.
 */
export async function withFilledDatabase(fn: (dbEnv: Record<string, string>) => Promise<void>) {
  spawnSync(process.execPath, [path.join(root, 'api', 'scripts', 'build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
  const external = process.env.BENCH_DATABASE_URL;
  const kept = process.env.FLOOD_DATA_DIR;
  const dataDir = kept ? path.resolve(kept) : fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-flood-'));
  const dbEnv: Record<string, string> = external
    ? { DATABASE_URL: external, BACKUP_SCHEDULE: 'off' }
    : { DATA_DIR: dataDir };
  const marker = path.join(dataDir, `.flood-filled-scale-${SCALE}`);
  try {
    if (!fs.existsSync(marker)) {
      fs.mkdirSync(dataDir, { recursive: true });
      fill(dbEnv);
      if (kept) fs.writeFileSync(marker, '');
    }
    await fn(dbEnv);
  } finally {
    if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
