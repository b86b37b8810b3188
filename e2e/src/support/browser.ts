/** What every scenario needs: the browser, the running system, signing in, screenshots, bounded waits. */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { chromiumPath, ENV_KEYS } from './system';

export const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'screenshots');

/** Default bound for anything the page should show (first module loads include a cold server). */
export const WAIT = 20_000;

export function systemUnderTest(): { baseUrl: string; adminPassword: string } {
  const baseUrl = process.env[ENV_KEYS.baseUrl];
  const adminPassword = process.env[ENV_KEYS.adminPassword];
  if (!baseUrl || !adminPassword) {
    throw new Error(
      `e2e: ${ENV_KEYS.baseUrl}/${ENV_KEYS.adminPassword} are unset (run through jest's global setup)`,
    );
  }
  return { baseUrl, adminPassword };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A phone: 390 x 844 CSS pixels, touch, mobile viewport handling. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** A fresh context (its own local storage, so its own session): desktop-sized unless `device` says. */
export async function newPage(
  browser: Browser,
  device: { viewport: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean } = {
    viewport: { width: 1366, height: 850 },
  },
): Promise<{ context: BrowserContext; page: Page }> {
  const { baseUrl } = systemUnderTest();
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'id-ID', ...device });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  return { context, page };
}

/** Errors the page threw, to report next to a failing assertion. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

export async function visible(locator: Locator, timeout = WAIT): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

export async function gone(locator: Locator, timeout = WAIT): Promise<void> {
  await locator.waitFor({ state: 'hidden', timeout });
}

/** Retries a jest assertion until it holds or `timeout` passes (then its last failure is thrown). */
export async function eventually(assertion: () => unknown, timeout = WAIT, interval = 100): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Signs in through the login page and waits for the landing page (/statistik). */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await visible(page.getByRole('heading', { name: 'Login Sistem Sertifikasi' }));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/statistik', { timeout: WAIT });
}

/**
 * Follows a link of the side menu inside its group (opened first when closed), as a person would:
 * the menu is drawn again while the first page settles after a sign-in (a group then closes, or the
 * link is replaced under the pointer), so the group is opened and the link clicked again until the
 * page's address is `url`.
 */
export async function openFromMenu(page: Page, group: string, link: string, url: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Navigasi utama' });
  const item = nav.getByRole('link', { name: link, exact: true });
  const deadline = Date.now() + WAIT;
  for (;;) {
    try {
      if (!(await item.isVisible())) await nav.getByRole('button', { name: group }).click({ timeout: 3000 });
      await item.click({ timeout: 3000 });
      await page.waitForURL(`**${url}`, { timeout: 3000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

/** The success toast (top right) with this text. */
export function toast(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ hasText: text });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * What the test's names end with: nothing on the fresh database the global setup started; on a
 * reused system (E2E_BASE_URL given) a suffix of this run, as the data of earlier runs stays.
 */
export const runSuffix = (): string =>
  process.env.E2E_FRESH_DATABASE === '1' ? '' : ` ${Date.now().toString(36)}`;
