/**
 * The built system for the browser benches (bundle-budget.ts, phone-bench.ts): started the way
 * README says (`npm start` on a free port and a fresh embedded database), or a running one at
 * BASE_URL (then ADMIN_PASSWORD signs in); Debian's chromium; the staff sign-in.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { freePort } from './api';
import { sleep } from './budget-report';

const ROOT = path.resolve(__dirname, '..', '..');

export interface Running {
  baseUrl: string;
  adminPassword: string | undefined;
  stop: () => Promise<void>;
}

export function chromiumPath(): string {
  let found = '';
  try {
    found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    // not on PATH
  }
  if (!found)
    throw new Error("Chromium was not found: install Debian's `chromium` package (nothing is downloaded).");
  return found;
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** `npm start` at the root (builds what is stale, then serves everything on one port), in its own process group. */
async function startSystem(): Promise<Running> {
  const port = await freePort();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-portal-'));
  fs.mkdirSync(path.join(tmp, 'data'));
  const logFile = path.join(tmp, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const adminPassword = `bench-${Date.now().toString(36)}`;
  const { NODE_ENV: _nodeEnv, ...env } = process.env;
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: path.join(tmp, 'data'),
      ADMIN_PASSWORD: adminPassword,
      RATE_LIMIT_PUBLIC: '10000',
    },
  });
  fs.closeSync(log);
  const pid = child.pid;
  const alive = () => {
    try {
      if (pid !== undefined) process.kill(-pid, 0);
      return pid !== undefined;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (pid !== undefined && alive()) {
      process.kill(-pid, 'SIGTERM');
      for (let i = 0; i < 100 && alive(); i++) await sleep(200);
      if (alive()) process.kill(-pid, 'SIGKILL');
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  const exit: { status?: number | string } = {};
  child.once('exit', (code, signal) => (exit.status = code ?? signal ?? 'unknown'));
  const baseUrl = `http://127.0.0.1:${port}`;
  process.stdout.write(`Starting the system (npm start; builds what is stale) on ${baseUrl} ...\n`);
  const deadline = Date.now() + 10 * 60_000;
  while (!(await healthy(baseUrl))) {
    if (exit.status !== undefined || Date.now() > deadline) {
      const output = fs.existsSync(logFile)
        ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n')
        : '';
      await stop();
      throw new Error(`the system did not start (${exit.status ?? 'timed out'}):\n${output}`);
    }
    await sleep(1000);
  }
  return { baseUrl, adminPassword, stop };
}

export async function signIn(page: Page, password: string): Promise<void> {
  await page.getByLabel('Username').fill(process.env.ADMIN_USERNAME || 'admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/statistik');
  await page.getByRole('navigation', { name: 'Navigasi utama' }).waitFor();
}

/** The running system of BASE_URL, or a new one started with `npm start` (stop() ends it). */
export async function runningSystem(): Promise<Running> {
  return process.env.BASE_URL
    ? {
        baseUrl: process.env.BASE_URL.replace(/\/+$/, ''),
        adminPassword: process.env.ADMIN_PASSWORD,
        stop: async () => {},
      }
    : startSystem();
}
