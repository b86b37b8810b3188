/**
 * Builds and starts the whole system the way README says (`npm start` at the repository root) on a
 * free port and a fresh embedded database, and stops it again. Used by the global setup/teardown.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Where the running system is, as the tests read it (set by the global setup, or by you to reuse one). */
export const ENV_KEYS = { baseUrl: 'E2E_BASE_URL', adminPassword: 'E2E_ADMIN_PASSWORD' } as const;

export interface RunningSystem {
  baseUrl: string;
  /** Process group of `npm start` (spawned detached, so the group id is its pid). */
  pid: number;
  /** Temporary folder holding the database (data/) and the server's output (server.log). */
  tmpDir: string;
  logFile: string;
}

/**
 * The system the global setup started, for the global teardown (both run in jest's main process; a
 * global, because jest may load this module once for each of them).
 */
export const started: { system?: RunningSystem } = ((
  globalThis as { __sertifikasiE2e?: { system?: RunningSystem } }
).__sertifikasiE2e ??= {});

/** Debian's chromium, driven by playwright-core (nothing is ever downloaded). */
export function chromiumPath(): string {
  let found = '';
  try {
    found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    // not on PATH
  }
  if (!found || !fs.existsSync(found)) {
    throw new Error(
      "e2e: Chromium was not found (`command -v chromium` is empty). Install Debian's package " +
        '(`apt-get install chromium`); the suite drives it with playwright-core and never runs ' +
        '`playwright install`.',
    );
  }
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Waits for /api/health, failing early (with the server's output) when `npm start` exits. */
async function waitUntilHealthy(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs: number) {
  const exit: { status?: number | string } = {};
  child.once('exit', (code, signal) => {
    exit.status = code ?? signal ?? 'unknown';
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exit.status !== undefined) {
      throw new Error(
        `e2e: \`npm start\` exited (${exit.status}) before the system answered:\n${tail(logFile)}`,
      );
    }
    if (await healthy(baseUrl)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(
    `e2e: ${baseUrl}/api/health did not answer within ${timeoutMs / 1000} s:\n${tail(logFile)}`,
  );
}

/**
 * `npm start` at the repository root with its own port and database; resolves once /api/health answers.
 * `prepare` runs first, with the environment the server gets (e.g. to fill the database with the demo
 * command).
 */
export async function startSystem(
  adminPassword: string,
  timeoutMs = 10 * 60_000,
  prepare?: (env: NodeJS.ProcessEnv) => void,
): Promise<RunningSystem> {
  const port = await freePort();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-e2e-'));
  // Run as root, the embedded PostgreSQL runs as an unprivileged user, who must pass through here.
  fs.chmodSync(tmpDir, 0o755);
  const dataDir = path.join(tmpDir, 'data');
  fs.mkdirSync(dataDir);
  const logFile = path.join(tmpDir, 'server.log');
  // Started as a user would: jest's NODE_ENV=test (cheap password hashing, silent logs) stays out.
  const { NODE_ENV: _nodeEnv, JEST_WORKER_ID: _worker, ...env } = process.env;
  if (prepare) {
    try {
      prepare({ ...env, DATA_DIR: dataDir, ADMIN_PASSWORD: adminPassword });
    } catch (err) {
      fs.rmSync(tmpDir, { recursive: true, force: true });
      throw err;
    }
  }
  const log = fs.openSync(logFile, 'a');
  const child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: adminPassword,
      RATE_LIMIT_PUBLIC: '10000',
      // The webhook scenario's receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  });
  fs.closeSync(log);
  if (child.pid === undefined) throw new Error('e2e: could not spawn `npm start`');
  const system: RunningSystem = { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid, tmpDir, logFile };
  try {
    await waitUntilHealthy(system.baseUrl, child, logFile, timeoutMs);
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
  return system;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole process group (npm, the build, the API), SIGKILL if it lingers; then the temp dir goes. */
export async function stopSystem(system: RunningSystem, graceMs = 20_000): Promise<void> {
  if (groupAlive(system.pid)) {
    process.kill(-system.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (groupAlive(system.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (groupAlive(system.pid)) process.kill(-system.pid, 'SIGKILL');
  }
  // The embedded PostgreSQL runs in a process group of its own: stopped by the API on SIGTERM, but
  // left running when the API had to be killed.
  const pidFile = path.join(system.tmpDir, 'data', 'postgres', 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    } catch {
      /* already stopped */
    }
  }
  fs.rmSync(system.tmpDir, { recursive: true, force: true });
}
