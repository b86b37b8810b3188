/**
 * Scenario d: the portal on a phone (390 x 844, touch). Sign in, open the menu with the hamburger and
 * tap items at its top (they lay under the header before), open the company list, add a company in
 * the full-screen form and see the toast. Throughout: the header never covers the page title or the
 * content, the page never scrolls sideways (only the table's own box does), the action column stays
 * reachable, and 'Pilih Gambar' stays on one line.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import {
  collectPageErrors,
  eventually,
  gone,
  launchBrowser,
  newPage,
  runSuffix,
  PHONE,
  screenshot,
  signIn,
  systemUnderTest,
  toast,
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';

const suffix = runSuffix();
const COMPANY = `PT Telepon Genggam Sertifikasi Nusantara${suffix}`;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('element has no box (not visible)');
  return b;
}

/** The header's bottom edge and whether `locator` starts at or below it. */
async function expectBelowHeader(page: Page, locator: Locator) {
  const header = await box(page.getByRole('banner'));
  const target = await box(locator);
  expect(target.y).toBeGreaterThanOrEqual(header.y + header.height - 0.5);
}

/** What a tap at the centre of `locator` would hit belongs to it (nothing lies on top of it). */
async function expectTappable(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const b = await box(locator);
  const hit = await locator.evaluate(
    (el, { x, y }) => {
      const top = el.ownerDocument.elementFromPoint(x, y);
      return !!top && el.contains(top);
    },
    { x: b.x + b.width / 2, y: b.y + b.height / 2 },
  );
  expect(hit).toBe(true);
}

describe('the portal on a phone (390 x 844)', () => {
  it('d. signs in, uses the menu, opens a list and adds a company; nothing hides under the header', async () => {
    const { adminPassword } = systemUnderTest();
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    const main = page.getByRole('main');
    const header = page.getByRole('banner');

    await signIn(page, 'admin', adminPassword);
    // The landing page: its title in the header, the dashboard below the header.
    await visible(header.getByRole('heading', { name: 'Statistik' }));
    const landing = await visible(main.getByRole('heading', { name: 'Status Sertifikasi Perusahaan' }));
    await expectBelowHeader(page, landing);
    // An administrator with scope ALL starts on 'Semua Perusahaan'.
    await eventually(async () =>
      expect(await header.getByRole('combobox', { name: 'Perusahaan' }).inputValue()).toBe(
        'Semua Perusahaan',
      ),
    );
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'd1-phone-landing');

    // The menu: its first entries are on top of everything, the header included, and answer a tap.
    await page.getByRole('button', { name: 'Buka menu' }).tap();
    const menu = page.getByRole('navigation', { name: 'Navigasi utama' });
    const first = await visible(menu.getByRole('link', { name: 'Statistik', exact: true }));
    // Once the menu has slid in (its animation), nothing lies on top of its entries.
    await eventually(() => expectTappable(first), 5000);
    const masterData = menu.getByRole('button', { name: 'Master Data' });
    await eventually(() => expectTappable(masterData), 5000);
    await screenshot(page, 'd2-phone-menu');
    await masterData.tap();
    await eventually(async () => expect(await masterData.getAttribute('aria-expanded')).toBe('false'));
    await masterData.tap();
    await eventually(async () => expect(await masterData.getAttribute('aria-expanded')).toBe('true'));
    await menu.getByRole('link', { name: 'Perusahaan', exact: true }).tap();
    await page.waitForURL('**/company');
    await gone(menu);

    // The list: its title below the header, the page not wider than the phone.
    const title = await visible(main.getByRole('heading', { name: 'Profil Perusahaan' }));
    await expectBelowHeader(page, title);
    await visible(header.getByRole('heading', { name: 'Profil Perusahaan' }));
    await expectNoSidewaysScroll(page);

    // Tambah: the form takes the whole screen; the image buttons keep to one line.
    await main.getByRole('button', { name: /^Tambah/ }).tap();
    const dialog = await visible(page.getByRole('dialog', { name: 'Tambah Perusahaan' }));
    expect(await box(dialog)).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    const choose = dialog.getByText('Pilih Gambar');
    expect(await choose.count()).toBe(3);
    for (const button of await choose.all()) {
      const b = await box(button);
      expect(b.height).toBeLessThan(40); // one line (a wrapped label is about 53 px)
      expect(b.x + b.width).toBeLessThanOrEqual(390);
    }
    await dialog.getByLabel('Nama Perusahaan').fill(COMPANY);
    await dialog.getByLabel('Website').fill('https://telepon-genggam.co.id');
    await dialog.getByLabel('Email').fill('info@telepon-genggam.co.id');
    await dialog.getByLabel('Telepon').fill('+62 21 5550 1234');
    await screenshot(page, 'd3-phone-form');
    await dialog.getByRole('button', { name: 'Simpan Data' }).tap();
    await visible(toast(page, 'Berhasil menambahkan data'));
    await gone(dialog);

    // The table is wider than the phone: it scrolls in its own box, says so, and its action column
    // stays on screen.
    const row = await visible(main.getByRole('row').filter({ hasText: COMPANY }));
    await visible(main.getByText('Geser untuk melihat kolom lain'));
    const table = main.getByRole('table');
    const tableBox = await table.evaluate((t) => {
      const b = t.parentElement!;
      return {
        scrollWidth: b.scrollWidth,
        clientWidth: b.clientWidth,
        overflowX: getComputedStyle(b).overflowX,
      };
    });
    expect(tableBox.scrollWidth).toBeGreaterThan(tableBox.clientWidth);
    expect(tableBox.overflowX).toBe('auto');
    await expectNoSidewaysScroll(page);
    const edit = row.getByRole('button', { name: 'Ubah' });
    const editBox = await box(edit);
    expect(editBox.x + editBox.width).toBeLessThanOrEqual(390);
    await eventually(() => expectTappable(edit), 5000);
    await screenshot(page, 'd4-phone-list');
    await edit.tap();
    const editDialog = await visible(page.getByRole('dialog', { name: 'Ubah Perusahaan' }));
    expect(await editDialog.getByLabel('Nama Perusahaan').inputValue()).toBe(COMPANY);
    await editDialog.getByRole('button', { name: 'Tutup' }).tap();
    await gone(editDialog);

    expect(errors).toEqual([]);
    await context.close();
  });
});
