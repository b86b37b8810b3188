/**
 * The phone bench (bench/README.md "Every screen at the cost of its queries"): the portal as a phone
 * on a slow network sees it. Starts the built system as README says (or uses BASE_URL with
 * ADMIN_PASSWORD), then
 *
 * 1. Lighthouse 12.2.3, mobile (its defaults: a phone's screen, simulated Slow 4G and 4x CPU
 *    slowdown), performance only, on the staff login page and the two public check pages: score,
 *    LCP, TBT and bytes;
 * 2. for the dashboard, 'Sertifikasi Perusahaan' and 'Jadwal Audit', signed in, in Debian's chromium
 *    at 390 x 844 with Slow 4G (150 ms RTT, 1.6 Mbps down, 750 kbps up, as Lighthouse's) and 4x CPU
 *    slowdown applied through CDP: the time from the navigation to the screen usable (its heading
 *    and data shown: table rows, a phone's cards or the empty list's message; nothing busy: no
 *    progress bar, skeleton or aria-busy region), cold (a new
 *    browser context: empty cache) and from cache (the same address again), and the bytes received.
 *
 * Prints a table; asserts nothing (never a test). PHONE_RUNS (default 2) repeats each measurement;
 * PHONE_LIGHTHOUSE=0 skips Lighthouse, PHONE_SCREENS=0 the signed-in screens.
 *
 *     npm run phone --workspace bench
 *     BASE_URL=http://localhost:8080 ADMIN_PASSWORD=... npm run phone --workspace bench
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { freePort } from './api';
import { chromiumPath, type Running, runningSystem, signIn } from './portal-system';
import { envInt } from './settings';

const RUNS = envInt('PHONE_RUNS', 2, 1, 20);
const WAIT = 120_000;
/** Lighthouse's mobile Slow 4G, as DevTools applies it (its "devtools" throttling figures). */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
  uploadThroughput: ((750 * 1024) / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;
const PHONE = { width: 390, height: 844 };

/** The signed-in screens: where, and what shows once the screen is usable. */
const SCREENS = [
  { label: 'dashboard (/statistik)', path: '/statistik', ready: 'Status Sertifikasi Perusahaan' },
  { label: "'Sertifikasi Perusahaan'", path: '/company-certificate', ready: 'table' },
  { label: "'Jadwal Audit'", path: '/audit-schedule', ready: 'table' },
] as const;

const PUBLIC_PAGES = ['/check-certification-company', '/check-certification-training'];

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Lighthouse {
  score: number;
  lcp: number;
  tbt: number;
  bytes: number;
  /** Main-thread work as Lighthouse reports it (its 'mainthread-work-breakdown', simulated 4x CPU). */
  mainThread: number;
}

/** Lighthouse 12.2.3's mobile performance run on one address, in a chromium of its own. */
async function lighthouseRun(url: string): Promise<Lighthouse> {
  // Loaded only here: the rest of the bench runs without it.
  const { default: lighthouse } = (await import('lighthouse')) as unknown as {
    default: (url: string, flags: Record<string, unknown>) => Promise<{ lhr: LhResult } | undefined>;
  };
  const chrome = await startChromium();
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    return {
      score: lhr.categories.performance.score ?? 0,
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      bytes: lhr.audits['total-byte-weight']?.numericValue ?? NaN,
      mainThread: lhr.audits['mainthread-work-breakdown']?.numericValue ?? NaN,
    };
  } finally {
    await chrome.stop();
  }
}

/**
 * Debian's chromium for Lighthouse, with a debugging port and a fresh profile (empty cache). Chromium
 * 156 runs Lighthouse 12.2.3 only in the new headless mode.
 */
async function startChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-phone-'));
  const child = spawn(
    chromiumPath(),
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // a file still being written: the folder is left in the system's temporary folder
    }
  };
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return { port, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error('chromium did not open its debugging port');
}

interface LhResult {
  categories: { performance: { score: number | null } };
  audits: Record<string, { numericValue?: number } | undefined>;
}

/** Slow 4G and the CPU slowdown on a page, and a counter of the bytes it receives (CDP). */
async function throttle(page: Page): Promise<{ bytes: () => number; reset: () => void }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  let received = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    received += e.encodedDataLength;
  });
  return { bytes: () => received, reset: () => (received = 0) };
}

/**
 * Navigates to a screen and answers the milliseconds from the navigation's start to the screen
 * usable: its heading or table shown with data (a body row, or the dashboard's status heading) and
 * nothing in `main` busy.
 */
async function timeToUsable(page: Page, url: string, ready: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  // A string: the bench is compiled without the DOM's types.
  const handle = await page.waitForFunction(
    `(() => {
      const main = document.querySelector('main');
      if (!main) return false;
      if (main.querySelector('[aria-busy="true"], .MuiSkeleton-root, [role="progressbar"]:not([aria-valuenow])'))
        return false;
      // A list: a table's body row, or on a phone a card (an item of a named list), or the empty
      // list's message (shared-ui's 'Opps, Data Masih Kosong').
      const shown = ${JSON.stringify(ready)} === 'table'
        ? main.querySelector('table tbody tr, ul[aria-label] > li') !== null ||
          [...main.querySelectorAll('p')].some((p) => p.textContent.trim() === 'Opps, Data Masih Kosong')
        : [...main.querySelectorAll('h1,h2,h3,h4,h5,h6')].some((h) => h.textContent.trim() === ${JSON.stringify(ready)});
      return shown ? performance.now() : false;
    })()`,
    undefined,
    { polling: 'raf', timeout: WAIT },
  );
  return (await handle.jsonValue()) as number;
}

interface ScreenFigures {
  cold: number[];
  cached: number[];
  coldBytes: number[];
  cachedBytes: number[];
}

async function measureScreens(browser: Browser, running: Running): Promise<Map<string, ScreenFigures>> {
  const figures = new Map<string, ScreenFigures>();
  // Signed in once, unthrottled; each measurement starts from that session in a new context.
  const setup = await browser.newContext({
    baseURL: running.baseUrl,
    viewport: { width: 1366, height: 850 },
  });
  const first = await setup.newPage();
  first.setDefaultTimeout(WAIT);
  await first.goto('/login');
  await signIn(first, running.adminPassword!);
  const storageState = await setup.storageState();
  await setup.close();
  for (let run = 0; run < RUNS; run++) {
    for (const screen of SCREENS) {
      const context: BrowserContext = await browser.newContext({
        baseURL: running.baseUrl,
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        // The portal's Content-Security-Policy forbids eval, which the bench's readiness check uses.
        bypassCSP: true,
        storageState,
      });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(WAIT);
        const counter = await throttle(page);
        const cold = await timeToUsable(page, screen.path, screen.ready);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        const coldBytes = counter.bytes();
        counter.reset();
        const cached = await timeToUsable(page, screen.path, screen.ready);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        const f = figures.get(screen.label) ?? { cold: [], cached: [], coldBytes: [], cachedBytes: [] };
        f.cold.push(cold);
        f.cached.push(cached);
        f.coldBytes.push(coldBytes);
        f.cachedBytes.push(counter.bytes());
        figures.set(screen.label, f);
      } finally {
        await context.close();
      }
    }
  }
  return figures;
}

async function main(): Promise<void> {
  const running = await runningSystem();
  process.once('SIGINT', () => void running.stop().finally(() => process.exit(130)));
  try {
    console.log(
      `Phone bench on ${running.baseUrl}: ${RUNS} run(s) each; 390 x 844, Slow 4G, ${CPU_SLOWDOWN}x CPU slowdown`,
    );
    if (process.env.PHONE_LIGHTHOUSE !== '0') {
      console.log(
        '\nLighthouse 12.2.3, mobile, performance (goal: login >= 0.95, LCP <= 1.5 s, TBT <= 200 ms):',
      );
      for (const path of ['/login', ...PUBLIC_PAGES]) {
        const runs: Lighthouse[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await lighthouseRun(running.baseUrl + path));
        console.log(
          `  ${path.padEnd(32)} score ${runs.map((r) => r.score.toFixed(2)).join(' / ')}; ` +
            `LCP ${runs.map((r) => fmt(r.lcp)).join(' / ')}; TBT ${runs.map((r) => `${Math.round(r.tbt)} ms`).join(' / ')}; ` +
            `${runs.map((r) => kib(r.bytes)).join(' / ')}; main thread ${runs.map((r) => fmt(r.mainThread)).join(' / ')}`,
        );
      }
    }
    if (process.env.PHONE_SCREENS === '0') return;
    if (!running.adminPassword) {
      console.log('\nBASE_URL without ADMIN_PASSWORD: the signed-in screens are not measured.');
      return;
    }
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const figures = await measureScreens(browser, running);
      console.log(
        '\nSigned-in screens, time to usable (goal: 2.5 s cold, 1 s from cache), median of the runs:',
      );
      console.log(
        `  ${'screen'.padEnd(28)} ${'cold'.padStart(8)} ${'bytes'.padStart(9)} ${'cached'.padStart(8)} ${'bytes'.padStart(9)}   runs (cold / cached)`,
      );
      for (const [label, f] of figures) {
        console.log(
          `  ${label.padEnd(28)} ${fmt(median(f.cold)).padStart(8)} ${kib(median(f.coldBytes)).padStart(9)} ` +
            `${fmt(median(f.cached)).padStart(8)} ${kib(median(f.cachedBytes)).padStart(9)}   ` +
            `${f.cold.map(fmt).join(', ')} / ${f.cached.map(fmt).join(', ')}`,
        );
      }
    } finally {
      await browser.close();
    }
  } finally {
    await running.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`phone bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
