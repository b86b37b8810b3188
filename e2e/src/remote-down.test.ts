/**
 * Scenario c: the Master Data module cannot be reached. Its screens show the Indonesian unavailable
 * message with 'Coba Lagi' inside the layout, the header and menu keep working, and once the module
 * is back 'Coba Lagi' loads the screen.
 */
import type { Browser } from 'playwright-core';
import {
  collectPageErrors,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  systemUnderTest,
  visible,
} from './support/browser';

const REMOTE = '**/modules/mf-master-data/**';
const UNAVAILABLE = 'Modul ini belum tersedia atau sedang tidak dapat dimuat.';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('a module that cannot be reached', () => {
  it('c. shows the unavailable message with a retry inside the layout; the rest keeps working; retry recovers', async () => {
    const { adminPassword } = systemUnderTest();
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', adminPassword);

    const blocked: string[] = [];
    await page.route(REMOTE, async (route) => {
      blocked.push(route.request().url());
      await route.abort('connectionrefused');
    });

    const main = page.getByRole('main');
    const menu = page.getByRole('navigation', { name: 'Navigasi utama' });
    await page.goto('/user');
    await visible(main.getByText(UNAVAILABLE));
    const retry = await visible(main.getByRole('button', { name: 'Coba Lagi' }));
    expect(blocked.length).toBeGreaterThan(0);
    // Still inside the layout: the header with the route title, the company selector and the menu.
    await visible(page.getByRole('banner').getByRole('heading', { name: 'User' }));
    await visible(page.getByRole('banner').getByRole('combobox', { name: 'Perusahaan' }));
    await visible(menu.getByRole('link', { name: 'Akses User', exact: true }));
    await screenshot(page, 'c1-module-down');

    // The header works: the greeting leads to the profile page (a shell page).
    await page.getByRole('link', { name: /^Halo, / }).click();
    await page.waitForURL('**/profile');
    await visible(main.getByText('Pengaturan Profil').first());
    await visible(main.getByText('admin', { exact: true }).first());

    // The menu works: back to a Master Data screen, still unavailable while the module is down.
    await menu.getByRole('link', { name: 'User', exact: true }).click();
    await page.waitForURL('**/user');
    await visible(main.getByText(UNAVAILABLE));

    // The module is back: 'Coba Lagi' loads the User screen in place.
    await page.unroute(REMOTE);
    await retry.click();
    await visible(main.getByRole('heading', { name: 'User' }));
    await visible(main.getByRole('row').filter({ hasText: 'admin' }).first());
    expect(await main.getByText(UNAVAILABLE).count()).toBe(0);
    expect(await main.getByRole('button', { name: 'Coba Lagi' }).count()).toBe(0);
    await screenshot(page, 'c2-module-back');

    expect(errors).toEqual([]);
    await context.close();
  });
});
