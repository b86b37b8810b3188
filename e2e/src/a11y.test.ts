/**
 * Accessibility, kept so (docs/conventions.md#accessibility-wcag-21-aa): axe-core (WCAG 2.0/2.1 A and AA rules) on every route of the route registry
 * (shared-contracts/src/routes.ts), at 1366 px and at 390 px, on a system of its own filled by the
 * demo command (`npm run demo --workspace api`), signed in as the administrator. A route added to the
 * registry is scanned without a new test. On each route:
 * - the page as it opens (lists with rows; a `:id` route is opened from its list's first record);
 * - every dialog its content offers (Tambah..., Ubah..., Hapus, Riwayat Status, chart settings),
 *   each checked to take focus on opening and to give it back to its opener on Esc;
 * - signed-in pages: one `h1` and the title '<route title> - Sistem Sertifikasi';
 * - public check pages: empty, an unknown number, and a real certificate in both languages, with
 *   `<html lang>` following the chosen language;
 * - once per width: the company selector's list open, and (phone) the menu drawer open.
 *
 * On a reused system (E2E_BASE_URL given) that already holds the demo data, set E2E_DEMO=1 to scan
 * it instead of starting another.
 */
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  ALL,
  type AppRoute,
  type ListResponse,
  REPORTS,
  ROUTES,
  type SchemeReportRow,
} from '@sertifikasi/shared-contracts';
import { axeViolations, describeFindings, injectAxe, settle } from './support/axe';
import { eventually, launchBrowser, PHONE, screenshot, signIn, visible, WAIT } from './support/browser';
import { ENV_KEYS, REPO_ROOT, type RunningSystem, startSystem, stopSystem } from './support/system';

const TITLE_SUFFIX = ' - Sistem Sertifikasi';
/**
 * Buttons in a page's content that open a dialog (their accessible names begin so): forms, the
 * delete confirmation, a scheme's history, a chart's settings, a date field's calendar.
 */
const DIALOG_OPENERS = /^(Tambah|Ubah|Hapus|Riwayat Status|Atur |Pilih tanggal)/;

const WIDTHS = [
  { name: '1366 px', device: { viewport: { width: 1366, height: 900 } } },
  { name: '390 px', device: PHONE },
] as const;

let browser: Browser;
let own: RunningSystem | undefined;
let baseUrl: string;
let adminPassword: string;
/** A real certificate number for each public check page that takes `?cert=`. */
const samples: Record<string, string> = {};

function demoSystemGiven(): boolean {
  return process.env.E2E_DEMO === '1' && !!process.env[ENV_KEYS.baseUrl];
}

async function apiJson<T>(path: string, token?: string, body?: object): Promise<T> {
  const res = await fetch(new URL(path, baseUrl), {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  browser = await launchBrowser();
  if (demoSystemGiven()) {
    baseUrl = process.env[ENV_KEYS.baseUrl]!;
    adminPassword = process.env[ENV_KEYS.adminPassword]!;
  } else {
    adminPassword = `e2e-Admin-${Date.now().toString(36)}`;
    process.stdout.write('e2e a11y: a system of its own with the demo data set ...\n');
    own = await startSystem(adminPassword, 10 * 60_000, (env) => {
      execFileSync('npm', ['run', 'demo', '--workspace', 'api'], {
        cwd: REPO_ROOT,
        env: { ...env, DEMO_PASSWORD: `Demo-${Date.now().toString(36)}` },
        stdio: 'pipe',
        timeout: 10 * 60_000,
      });
    });
    baseUrl = own.baseUrl;
  }
  const { token } = await apiJson<{ token: string }>('/api/login', undefined, {
    username: 'admin',
    password: adminPassword,
  });
  const schemes = await apiJson<ListResponse<SchemeReportRow>>(
    `/api/${REPORTS.scheme.endpoint}/${ALL}`,
    token,
  );
  const trainings = await apiJson<ListResponse<{ certificate_number: string }>>(
    `/api/${REPORTS.training.endpoint}/${ALL}`,
    token,
  );
  const scheme = schemes.data.find((r) => r.cert_number && r.effective_status === 'ACTIVE');
  const training = trainings.data[0];
  if (!scheme?.cert_number || !training) throw new Error('e2e a11y: the demo data holds no certificate');
  samples['/check-certification-company'] = scheme.cert_number;
  samples['/check-certification-training'] = training.certificate_number;
}, 20 * 60_000);

afterAll(async () => {
  await browser?.close();
  if (own) await stopSystem(own);
});

async function newContext(device: (typeof WIDTHS)[number]['device']): Promise<{
  context: BrowserContext;
  page: Page;
}> {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'id-ID', ...device });
  await injectAxe(context);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  return { context, page };
}

const main = (page: Page) => page.locator('main');

/** The path to open for a route: itself, or (with `:id`) the first record its list links to. */
async function urlOf(page: Page, route: AppRoute): Promise<string> {
  if (!route.path.includes(':')) return route.path;
  const list = route.path.slice(0, route.path.indexOf('/:'));
  await page.goto(list);
  await settle(page);
  const link = main(page).locator(`a[href^="${list}/"]`).first();
  await visible(link);
  return (await link.getAttribute('href'))!;
}

/**
 * Every page has one h1; the tab names it ('<route title> - Sistem Sertifikasi'; a public check page
 * names itself in its chosen language, so only the suffix is checked there).
 */
async function pageFacts(page: Page, route: AppRoute, where: string): Promise<string[]> {
  const out: string[] = [];
  const h1 = await page.locator('h1').count();
  if (h1 !== 1) out.push(`${where}: ${h1} h1 elements (one expected)`);
  const title = await page.title();
  const expected = route.auth || !('remote' in route) ? `${route.title}${TITLE_SUFFIX}` : null;
  if (expected ? title !== expected : !title.endsWith(TITLE_SUFFIX)) out.push(`${where}: title '${title}'`);
  return out;
}

async function scan(page: Page, where: string, scope?: Locator): Promise<string[]> {
  await settle(page);
  return describeFindings(where, await axeViolations(page, scope));
}

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/**
 * Each dialog the page's content offers (the first opener of each name): opened, scanned, checked
 * to hold the focus, closed with Esc, and checked to give the focus back to its opener.
 */
async function scanDialogs(page: Page, where: string): Promise<string[]> {
  const out: string[] = [];
  const names = new Set<string>();
  const buttons = main(page).getByRole('button', { name: DIALOG_OPENERS });
  for (const button of await buttons.all()) {
    const name = (await button.getAttribute('aria-label')) ?? (await button.innerText()).trim();
    if (names.has(name) || !(await button.isVisible()) || !(await button.isEnabled())) continue;
    names.add(name);
    await button.click();
    const dialog = page.getByRole('dialog');
    await visible(dialog);
    const state = `${where} [dialog '${name}']`;
    out.push(...(await scan(page, state)));
    const inside = await dialog.evaluate((el) => el.contains(document.activeElement));
    if (!inside) out.push(`${state}: focus is not inside the dialog`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await settle(page);
    if (!(await isFocused(button))) out.push(`${state}: focus did not return to its opener`);
  }
  return out;
}

/** A public check page: empty, an unknown number, a real certificate in each language. */
async function scanPublic(page: Page, route: AppRoute, where: string): Promise<string[]> {
  const out: string[] = [];
  await page.goto(route.path);
  out.push(...(await scan(page, `${where} (empty)`)));
  out.push(...(await pageFacts(page, route, where)));
  await page.goto(`${route.path}?cert=${encodeURIComponent('TIDAK/ADA/0000')}`);
  out.push(...(await scan(page, `${where} (unknown number)`)));
  const sample = samples[route.path];
  if (!sample) return out;
  await page.goto(`${route.path}?cert=${encodeURIComponent(sample)}`);
  for (const [lang, label] of [
    ['en', 'English'],
    ['id', 'Bahasa Indonesia'],
  ] as const) {
    await page.getByRole('button', { name: label }).click();
    await visible(page.getByRole('row').first());
    const state = `${where} (result, ${lang})`;
    out.push(...(await scan(page, state)));
    const htmlLang = await page.evaluate(() => document.documentElement.lang);
    if (htmlLang !== lang) out.push(`${state}: <html lang="${htmlLang}">`);
  }
  return out;
}

describe.each(WIDTHS)('no WCAG 2.1 A/AA violation at $name', ({ name: width, device }) => {
  let signedIn: { context: BrowserContext; page: Page };
  let signedOut: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    signedOut = await newContext(device);
    signedIn = await newContext(device);
    await signIn(signedIn.page, 'admin', adminPassword);
  }, 5 * 60_000);

  afterAll(async () => {
    await signedIn?.context.close();
    await signedOut?.context.close();
  });

  it.each(ROUTES.map((route) => [route.path, route] as const))(
    '%s',
    async (_path, route) => {
      const where = `${width} ${route.path}`;
      const findings: string[] = [];
      if (!route.auth) {
        const { page } = signedOut;
        if ('remote' in route) findings.push(...(await scanPublic(page, route, where)));
        else {
          await page.goto(route.path);
          findings.push(...(await scan(page, where)));
          findings.push(...(await pageFacts(page, route, where)));
        }
      } else {
        const { page } = signedIn;
        await page.goto(await urlOf(page, route));
        await settle(page);
        findings.push(...(await scan(page, where)));
        findings.push(...(await pageFacts(page, route, where)));
        findings.push(...(await scanDialogs(page, where)));
      }
      expect(findings).toEqual([]);
    },
    10 * 60_000,
  );

  it('the header company selector open, and (phone) the menu drawer open', async () => {
    const { page } = signedIn;
    await page.goto('/statistik');
    await settle(page);
    const findings: string[] = [];
    if (device.viewport.width < 900) {
      await page.getByRole('button', { name: 'Buka menu' }).click();
      await visible(page.getByRole('navigation', { name: 'Navigasi utama' }));
      findings.push(...(await scan(page, `${width} menu drawer`)));
      await page.keyboard.press('Escape');
      await settle(page);
    }
    await page.getByRole('combobox', { name: 'Perusahaan' }).click();
    await visible(page.getByRole('listbox'));
    findings.push(...(await scan(page, `${width} company selector`)));
    await page.keyboard.press('Escape');
    expect(findings).toEqual([]);
  }, 120_000);
});

/** What the focused element is called: its label, its aria name, or its text. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const byIds = el
      .getAttribute('aria-labelledby')
      ?.split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    const labels = (el as HTMLInputElement).labels;
    const name =
      el.getAttribute('aria-label') ||
      byIds ||
      (labels && labels.length > 0 ? labels[0]!.textContent : '') ||
      el.textContent ||
      '';
    return name.replace(/\s+/g, ' ').trim();
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name matches (at most `max` times). */
async function tabTo(page: Page, name: RegExp, { max = 60, back = false } = {}): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focusedName(page);
    if (name.test(now)) return;
    seen.push(now);
  }
  throw new Error(`Tab never reached ${name}; it went through: ${seen.join(' | ')}`);
}

describe('the keyboard alone', () => {
  it(
    'signs in, skips to the content, opens Tambah Sertifikasi Perusahaan from the menu, fills it and saves it',
    async () => {
      const { context, page } = await newContext(WIDTHS[0].device);
      const client = `PT Papan Ketik Nusantara ${Date.now().toString(36)}`;
      try {
        await page.goto('/login');
        await tabTo(page, /^Username/);
        await page.keyboard.type('admin');
        await tabTo(page, /^Password/);
        await page.keyboard.type(adminPassword);
        await page.keyboard.press('Enter');
        await page.waitForURL('**/statistik');
        // The address changes before the dashboard is drawn: the router keeps the sign-in form on
        // screen (and the focus in it) while the dashboard's module loads, so wait until the form
        // has gone and the signed-in layout is there before the first Tab.
        await page.getByRole('button', { name: 'Login' }).waitFor({ state: 'detached', timeout: WAIT });
        await page.getByRole('main').waitFor({ timeout: WAIT });
        await settle(page);

        // The first Tab: the skip link, shown while focused; Enter puts the focus in the content.
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('Langsung ke konten utama');
        await screenshot(page, 'a11y-skip-link');
        await page.keyboard.press('Enter');
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');

        // The menu, by keyboard: Shift+Tab from the content goes back through the header to the menu.
        await tabTo(page, /^Sertifikasi Perusahaan$/, { back: true });
        await screenshot(page, 'a11y-focus-menu-link');
        await page.keyboard.press('Enter');
        await page.waitForURL('**/company-certificate');
        // The address changes at once; the list's module may still be loading (the dashboard stays
        // on screen meanwhile), so wait for its button before walking to it by keyboard.
        const opener = page.getByRole('button', { name: 'Tambah Sertifikasi Perusahaan' });
        await visible(opener);
        await settle(page);

        await tabTo(page, /^Tambah Sertifikasi Perusahaan$/);
        await screenshot(page, 'a11y-focus-add-button');
        await page.keyboard.press('Enter');
        const dialog = await visible(page.getByRole('dialog', { name: 'Tambah Sertifikasi Perusahaan' }));
        await settle(page);
        expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);

        // The header says 'Semua Perusahaan': the company is chosen in the form (type, arrow, Enter).
        await tabTo(page, /^Perusahaan/);
        await page.keyboard.type('Mutu Sertifikasi');
        await visible(page.getByRole('listbox'));
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await expect(dialog.getByRole('combobox', { name: /^Perusahaan/ }).inputValue()).resolves.toBe(
          'PT Mutu Sertifikasi Nusantara',
        );
        await tabTo(page, /^Nama Klien/);
        await page.keyboard.type(client);
        await tabTo(page, /^Nomor Sertifikat/);
        await page.keyboard.type(`KB-${Date.now().toString(36).toUpperCase()}`);
        await tabTo(page, /^Region/);
        await page.keyboard.type('DKI Jakarta');
        await screenshot(page, 'a11y-focus-dialog-field');
        await tabTo(page, /^Simpan Data$/);
        await page.keyboard.press('Enter');

        // Announced, not focused: the toast is an alert, and the focus is back on 'Tambah ...'.
        await visible(page.getByRole('alert').filter({ hasText: 'Berhasil menambahkan data' }));
        await dialog.waitFor({ state: 'hidden' });
        await eventually(async () => expect(await isFocused(opener)).toBe(true));
        // And found again by typing in the list's search (before 'Tambah ...').
        await tabTo(page, /^Cari/, { back: true });
        await page.keyboard.type(client);
        await visible(main(page).getByRole('row').filter({ hasText: client }));
      } finally {
        await context.close();
      }
    },
    5 * 60_000,
  );
});
