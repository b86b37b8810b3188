/**
 * The bundle budget (bench/README.md "What a browser downloads"): the JavaScript each page
 * actually sends, as the browser receives it. Starts the built system the way README says (`npm start`
 * on a free port and a fresh embedded database) unless BASE_URL points at a running one (then
 * ADMIN_PASSWORD signs in), and in headless Chromium (Debian's `chromium` driven by playwright-core)
 * asking with `Accept-Encoding: br, gzip` measures, per page: the login page; signing in; each built
 * module's first screen reached from the menu; and a signed-in direct hit on the Company list (a new
 * tab with an empty cache). For each: the files, their size as sent on the wire (after Brotli/gzip)
 * and once decoded, and how they were encoded. Prints a table and the goals; asserts nothing.
 *
 *     npm run budget                      # BUDGET_FILES=1 lists every file
 *     BASE_URL=http://localhost:8080 ADMIN_PASSWORD=... npm run budget
 */
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { REMOTES, type RemoteName, type RoutePath } from '@sertifikasi/shared-contracts';
import {
  byOrigin,
  type Fetched,
  kb,
  type Line,
  listFiles,
  printTable,
  Recorder,
  sum,
  verdict,
} from './budget-report';
import { chromiumPath, type Running, runningSystem, signIn } from './portal-system';

/** What the browser says it accepts (Chromium also offers deflate and zstd, which the portal does not make). */
const ACCEPT_ENCODING = 'br, gzip';
/** Goals for the JavaScript sent (KB as sent, after compression). */
const GOALS = { loginKb: 250, loginFiles: 25, companyDirectKb: 350, publicPageKb: 82 };
/** The public check page a QR code opens, measured on a direct hit. */
const PUBLIC_PAGE_ROUTE = '/check-certification-company';
/** The Company list, reached by typing its address while signed in. */
const COMPANY_ROUTE = '/company';
const LIST_FILES = process.argv.includes('--files') || process.env.BUDGET_FILES === '1';
const WAIT = 60_000;
/** One route per module, visited after sign-in (only modules listed in /modules/remotes.json). */
const ROUTE_OF_REMOTE: Record<RemoteName, RoutePath> = {
  mf_master_data: '/user',
  mf_certification: '/accredited',
  mf_reports: '/report-company-certificate',
  mf_public_check: '/check-certification-company',
};
/** The same by folder (the one list of remotes, shared-contracts). */
const MODULE_ROUTES: Record<string, string> = Object.fromEntries(
  REMOTES.map((r) => [r.folder, ROUTE_OF_REMOTE[r.name]]),
);

async function newPage(context: BrowserContext): Promise<{ page: Page; recorder: Recorder }> {
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  return { page, recorder: new Recorder(page) };
}

async function main(): Promise<void> {
  const running = await runningSystem();
  process.once('SIGINT', () => void running.stop().finally(() => process.exit(130)));
  try {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      await measure(browser, running);
    } finally {
      await browser.close();
    }
  } finally {
    await running.stop();
  }
}

async function measure(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  running: Running,
): Promise<void> {
  const contextOptions = {
    baseURL: running.baseUrl,
    viewport: { width: 1366, height: 850 },
    extraHTTPHeaders: { 'Accept-Encoding': ACCEPT_ENCODING },
  };
  const context = await browser.newContext(contextOptions);
  const { page, recorder } = await newPage(context);
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

  let companyDirect: Fetched[] | undefined;
  if (running.adminPassword) {
    await signIn(page, running.adminPassword);
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

    if (folders.includes('mf-master-data')) {
      // The address typed while signed in: a new browser context (empty cache) with the same session.
      const direct = await browser.newContext({
        ...contextOptions,
        storageState: await context.storageState(),
      });
      try {
        const tab = await newPage(direct);
        await tab.page.goto(COMPANY_ROUTE);
        await tab.page.getByRole('main').getByRole('heading').first().waitFor();
        await tab.page.getByRole('main').getByRole('table').waitFor();
        companyDirect = (await tab.recorder.phase()).js;
        lines.push(
          { label: `${COMPANY_ROUTE} direct, signed in`, files: companyDirect },
          ...byOrigin(companyDirect),
        );
      } finally {
        await direct.close();
      }
    }
  } else {
    process.stdout.write('BASE_URL is set without ADMIN_PASSWORD: only the login page is measured.\n');
  }

  printTable(lines);
  if (LIST_FILES) listFiles(lines);

  const loginKb = sum(login.js, 'sent') / 1024;
  process.stdout.write(
    `\nGoals (JavaScript sent, Accept-Encoding: ${ACCEPT_ENCODING}):\n` +
      `  login page: ${loginKb.toFixed(1)} KB (goal ${GOALS.loginKb}): ${verdict(loginKb, GOALS.loginKb)}; ` +
      `${login.js.length} files (goal ${GOALS.loginFiles}): ${verdict(login.js.length, GOALS.loginFiles)}\n`,
  );
  if (companyDirect) {
    const companyKb = sum(companyDirect, 'sent') / 1024;
    process.stdout.write(
      `  ${COMPANY_ROUTE} direct hit, signed in: ${companyKb.toFixed(1)} KB in ${companyDirect.length} files ` +
        `(goal ${GOALS.companyDirectKb} KB): ${verdict(companyKb, GOALS.companyDirectKb)}\n`,
    );
  } else {
    process.stdout.write(
      `  ${COMPANY_ROUTE} direct hit: not measured (no sign-in or mf-master-data not built)\n`,
    );
  }
  const uncompressed = lines.flatMap((l) => l.files).filter((f) => f.encoding === 'identity' && f.raw > 1024);
  if (uncompressed.length > 0) {
    process.stdout.write(
      `Sent uncompressed (over 1 KB): ${[...new Set(uncompressed.map((f) => new URL(f.url).pathname))].join(', ')}\n`,
    );
  }
  const largest = [...login.js].sort((a, b) => b.sent - a.sent).slice(0, 5);
  process.stdout.write('Largest on the login page (KB sent): ');
  process.stdout.write(`${largest.map((f) => `${new URL(f.url).pathname} ${kb(f.sent)}`).join(', ')}\n`);
  for (const folder of folders) {
    const onLogin = login.paths.filter((p) => p.startsWith(`/modules/${folder}/`));
    process.stdout.write(
      onLogin.length === 0
        ? `${folder} files fetched on the login page: none (as required)\n`
        : `${folder} files fetched on the login page: ${onLogin.length} (should be none): ${onLogin.join(', ')}\n`,
    );
  }
  await measurePublicPage(browser, running);
  const missing = Object.keys(MODULE_ROUTES).filter((f) => !folders.includes(f));
  if (missing.length > 0)
    process.stdout.write(`Not built yet (not in /modules/remotes.json): ${missing.join(', ')}\n`);
  if (!running.adminPassword) process.stdout.write('Modules were not measured (no sign-in).\n');
}

/**
 * The public check page as a QR scan opens it: a direct hit on
 * /check-certification-company?cert=... in a fresh browser (empty cache, not signed in) at a phone's
 * viewport, asking for gzip only, as the goal is set in gzip: at most 1.2 times React + ReactDOM
 * alone (their minified production builds gzip to about 69 KB, so about 82 KB). Every script must
 * come from mf-public-check's own page folder: never the shell, MUI or staff code.
 */
async function measurePublicPage(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  running: Running,
): Promise<void> {
  const context = await browser.newContext({
    baseURL: running.baseUrl,
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { 'Accept-Encoding': 'gzip' },
  });
  try {
    const { page, recorder } = await newPage(context);
    await page.goto(`${PUBLIC_PAGE_ROUTE}?cert=BUDGET%2F0001`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const { js, paths } = await recorder.phase();
    printTable([{ label: `${PUBLIC_PAGE_ROUTE} direct (public page, gzip)`, files: js }]);
    if (LIST_FILES) listFiles([{ label: PUBLIC_PAGE_ROUTE, files: js }]);
    const sentKb = sum(js, 'sent') / 1024;
    const foreign = paths.filter((p) => /\.m?js$/.test(p) && !p.startsWith('/modules/mf-public-check/page/'));
    process.stdout.write(
      `  public page (${PUBLIC_PAGE_ROUTE}, direct hit): ${sentKb.toFixed(1)} KB gzip in ${js.length} files ` +
        `(goal ${GOALS.publicPageKb} KB = 1.2 x React + ReactDOM): ${verdict(sentKb, GOALS.publicPageKb)}\n` +
        (foreign.length === 0
          ? '  scripts from outside mf-public-check/page: none (as required)\n'
          : `  scripts from outside mf-public-check/page (should be none): ${foreign.join(', ')}\n`),
    );
  } finally {
    await context.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bundle budget: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
