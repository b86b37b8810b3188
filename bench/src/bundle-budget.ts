/**
 * The bundle budget (issue 3, "Budgets"): how much JavaScript the login page loads, and what each
 * module adds when one of its routes is visited. Starts the built system the way README says
 * (`npm start` on a free port and a fresh embedded database) unless BASE_URL points at a running one
 * (then ADMIN_PASSWORD signs in), opens /login in headless Chromium (Debian's `chromium` driven by
 * playwright-core) and sums every JavaScript response, raw and gzip level 9 (the server may not
 * compress). Prints a table and the login page against the 400 KB gz budget; asserts nothing.
 *
 *     npm run budget --workspace bench
 *     BASE_URL=http://localhost:8080 ADMIN_PASSWORD=... npm run budget --workspace bench
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Page, type Response } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGIN_BUDGET_KB_GZ = 400;
const WAIT = 60_000;
/** One route per module, visited after sign-in (only modules listed in /modules/remotes.json). */
const MODULE_ROUTES: Record<string, string> = {
  'mf-master-data': '/user',
  'mf-certification': '/accredited',
  'mf-reports': '/report-company-certificate',
  'mf-public-check': '/check-certification-company',
};

interface Fetched {
  url: string;
  raw: number;
  gz: number;
}

interface Running {
  baseUrl: string;
  adminPassword: string | undefined;
  stop: () => Promise<void>;
}

function chromiumPath(): string {
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-budget-'));
  fs.mkdirSync(path.join(tmp, 'data'));
  const logFile = path.join(tmp, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const adminPassword = `budget-${Date.now().toString(36)}`;
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

const isJavaScript = (response: Response): boolean =>
  response.request().resourceType() === 'script' ||
  /javascript|ecmascript/.test(response.headers()['content-type'] ?? '') ||
  /\.m?js(\?|$)/.test(new URL(response.url()).pathname);

/** The module folder a file is served from ('/modules/<folder>/...'), or 'shell'. */
const origin = (url: string): string => /^\/modules\/([^/]+)\//.exec(new URL(url).pathname)?.[1] ?? 'shell';

/** Records JavaScript responses (once per URL over the whole run) and every path fetched, per phase. */
class Recorder {
  private seen = new Set<string>();
  private pending: Promise<void>[] = [];
  private lastActivity = Date.now();
  js: Fetched[] = [];
  paths: string[] = [];

  constructor(page: Page) {
    page.on('request', () => {
      this.lastActivity = Date.now();
    });
    page.on('response', (response) => {
      this.lastActivity = Date.now();
      this.paths.push(new URL(response.url()).pathname);
      if (!isJavaScript(response) || this.seen.has(response.url())) return;
      this.seen.add(response.url());
      this.pending.push(
        response.body().then(
          (body) =>
            void this.js.push({
              url: response.url(),
              raw: body.length,
              gz: zlib.gzipSync(body, { level: 9 }).length,
            }),
          () => undefined, // a redirect or a response without a body
        ),
      );
    });
  }

  /**
   * Waits until the page has asked for nothing for `ms` (a client-side navigation has no load state
   * to wait for: lazy chunks arrive after the URL changes), then for the bodies of this phase, and
   * hands over what it fetched, starting a new phase.
   */
  async phase(ms = 1000): Promise<{ js: Fetched[]; paths: string[] }> {
    while (Date.now() - this.lastActivity < ms) await sleep(100);
    await Promise.all(this.pending);
    const result = { js: this.js, paths: this.paths };
    this.js = [];
    this.paths = [];
    this.pending = [];
    return result;
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

interface Line {
  label: string;
  files: Fetched[];
}

function printTable(lines: Line[]): void {
  const rows = [
    ['page / module', 'files', 'raw KB', 'gzip KB'],
    ...lines.map(({ label, files }) => [
      label,
      String(files.length),
      kb(files.reduce((n, f) => n + f.raw, 0)),
      kb(files.reduce((n, f) => n + f.gz, 0)),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const format = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${format(rows[0]!)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of rows.slice(1)) process.stdout.write(`${format(r)}\n`);
}

/** Splits a phase's files by the folder they are served from (when more than one). */
function byOrigin(files: Fetched[]): Line[] {
  const folders = [...new Set(files.map((f) => origin(f.url)))].sort();
  if (folders.length < 2) return [];
  return folders.map((folder) => ({
    label: `  of which ${folder}`,
    files: files.filter((f) => origin(f.url) === folder),
  }));
}

async function main(): Promise<void> {
  const running: Running = process.env.BASE_URL
    ? {
        baseUrl: process.env.BASE_URL.replace(/\/+$/, ''),
        adminPassword: process.env.ADMIN_PASSWORD,
        stop: async () => {},
      }
    : await startSystem();
  process.once('SIGINT', () => void running.stop().finally(() => process.exit(130)));
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({
      baseURL: running.baseUrl,
      viewport: { width: 1366, height: 850 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    const recorder = new Recorder(page);
    const lines: Line[] = [];

    await page.goto('/login');
    await page.getByRole('heading', { name: 'Login Sistem Sertifikasi' }).waitFor();
    await page.waitForLoadState('networkidle');
    const login = await recorder.phase();
    lines.push({ label: '/login (shell)', files: login.js }, ...byOrigin(login.js));

    const remotes = (await (await fetch(`${running.baseUrl}/modules/remotes.json`)).json()) as {
      remotes?: { folder?: string; name: string }[];
    };
    const folders = (remotes.remotes ?? []).map((r) => r.folder ?? r.name.replace(/_/g, '-'));

    let signedIn = false;
    if (running.adminPassword) {
      await page.getByLabel('Username').fill(process.env.ADMIN_USERNAME || 'admin');
      await page.getByLabel('Password').fill(running.adminPassword);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/statistik');
      await page.getByRole('navigation', { name: 'Navigasi utama' }).waitFor();
      signedIn = true;
      lines.push({ label: 'sign-in -> /statistik', files: (await recorder.phase()).js });

      for (const folder of folders) {
        const route = MODULE_ROUTES[folder];
        if (!route) continue;
        // A client-side navigation, as the menu does: only what the route needs is fetched.
        await page.evaluate(
          `history.pushState({}, '', ${JSON.stringify(route)}); dispatchEvent(new PopStateEvent('popstate'))`,
        );
        await page.waitForURL(`**${route}`);
        await page.getByRole('main').getByRole('heading').first().waitFor();
        const visited = await recorder.phase();
        const label = `${route} -> ${folder}`;
        lines.push({ label, files: visited.js }, ...byOrigin(visited.js));
      }
    } else {
      process.stdout.write('BASE_URL is set without ADMIN_PASSWORD: only the login page is measured.\n');
    }

    printTable(lines);
    const loginGz = login.js.reduce((n, f) => n + f.gz, 0) / 1024;
    process.stdout.write(
      `\nLogin page: ${loginGz.toFixed(1)} KB gz of JavaScript; budget ${LOGIN_BUDGET_KB_GZ} KB gz: ` +
        `${loginGz <= LOGIN_BUDGET_KB_GZ ? 'within' : 'over'}` +
        ` (${((loginGz / LOGIN_BUDGET_KB_GZ) * 100).toFixed(0)}% of it)\n`,
    );
    const largest = [...login.js].sort((a, b) => b.gz - a.gz).slice(0, 5);
    process.stdout.write('Largest on the login page (gzip KB): ');
    process.stdout.write(`${largest.map((f) => `${new URL(f.url).pathname} ${kb(f.gz)}`).join(', ')}\n`);
    for (const folder of folders) {
      const onLogin = login.paths.filter((p) => p.startsWith(`/modules/${folder}/`));
      process.stdout.write(
        onLogin.length === 0
          ? `${folder} files fetched on the login page: none (as required)\n`
          : `${folder} files fetched on the login page: ${onLogin.length} (should be none): ${onLogin.join(', ')}\n`,
      );
    }
    const missing = Object.keys(MODULE_ROUTES).filter((f) => !folders.includes(f));
    if (missing.length > 0)
      process.stdout.write(`Not built yet (not in /modules/remotes.json): ${missing.join(', ')}\n`);
    if (!signedIn) process.stdout.write('Modules were not measured (no sign-in).\n');
  } finally {
    await browser.close();
    await running.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bundle budget: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
