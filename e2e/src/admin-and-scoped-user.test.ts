/**
 * Scenarios a and b: an administrator sets up a company (with a logo), a second company, the role
 * 'Operator' and a user scoped to the first company; that user then sees only what the role allows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  collectPageErrors,
  eventually,
  gone,
  launchBrowser,
  newPage,
  runSuffix,
  screenshot,
  signIn,
  systemUnderTest,
  toast,
  visible,
} from './support/browser';
import { logoPng } from './support/png';

const suffix = runSuffix();
const COMPANY_1 = `PT Nusantara Mutu${suffix}`;
const COMPANY_2 = `PT Samudra Inspeksi${suffix}`;
const ROLE = `Operator${suffix}`;
const USER = { name: 'Sari Operator', username: `sari${suffix.trim()}`, password: 'Sari-rahasia-1' };
const CREATED = 'Berhasil menambahkan data';

let browser: Browser;
let logoFile: string;

beforeAll(async () => {
  browser = await launchBrowser();
  logoFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-e2e-logo-')), 'logo.png');
  fs.writeFileSync(logoFile, logoPng());
});

afterAll(async () => {
  await browser?.close();
  if (logoFile) fs.rmSync(path.dirname(logoFile), { recursive: true, force: true });
});

/** The side menu (the permanent drawer: the viewport is desktop-wide). */
const menu = (page: Page) => page.getByRole('navigation', { name: 'Navigasi utama' });
const main = (page: Page) => page.getByRole('main');

async function openForm(page: Page) {
  await main(page)
    .getByRole('button', { name: /^Tambah/ })
    .click();
  return visible(page.getByRole('dialog'));
}

async function save(page: Page) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Simpan Data' }).click();
  await visible(toast(page, CREATED));
  await gone(dialog);
}

/** A row of the list table holding `text`. */
const row = (page: Page, text: string) => main(page).getByRole('row').filter({ hasText: text });

describe('an administrator sets up a company, a role and a scoped user; that user sees only what the role allows', () => {
  it('a. signs in as admin (a wrong password first) and creates two companies, a role and a scoped user', async () => {
    const { adminPassword } = systemUnderTest();
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);

    // A wrong password: the login page says so and stays.
    await page.goto('/login');
    await visible(page.getByRole('heading', { name: 'Login Sistem Sertifikasi' }));
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('bukan-kata-sandinya');
    await page.getByRole('button', { name: 'Login' }).click();
    await visible(page.locator('form').getByText('Nama pengguna & kata sandi salah'));
    expect(new URL(page.url()).pathname).toBe('/login');

    // The right one lands on /statistik (mf-reports shows a placeholder until its screens land).
    await page.getByLabel('Password').fill(adminPassword);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/statistik');
    await visible(page.getByText('Halaman ini sedang disiapkan.'));
    await visible(page.getByRole('link', { name: /^Halo, / }));

    // A company with a logo: the logo shows in the list.
    await menu(page).getByRole('link', { name: 'Perusahaan', exact: true }).click();
    await page.waitForURL('**/company');
    let dialog = await openForm(page);
    await dialog.getByLabel('Nama Perusahaan').fill(COMPANY_1);
    await dialog.getByLabel('Website').fill('https://nusantara-mutu.co.id');
    await dialog.getByLabel('Email').fill('info@nusantara-mutu.co.id');
    await dialog.locator('input[type=file]').first().setInputFiles(logoFile);
    await visible(dialog.getByRole('img', { name: /Logo/ }));
    await save(page);
    const logo = row(page, COMPANY_1).locator('img');
    await visible(logo);
    expect(await logo.getAttribute('src')).toMatch(/\/images\//);
    await eventually(async () =>
      expect(
        await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      ).toBeGreaterThan(0),
    );

    // A second company, without a logo.
    dialog = await openForm(page);
    await dialog.getByLabel('Nama Perusahaan').fill(COMPANY_2);
    await dialog.getByLabel('Website').fill('https://samudra-inspeksi.co.id');
    await save(page);
    await visible(row(page, COMPANY_2));
    await visible(row(page, COMPANY_1));
    await screenshot(page, 'a1-companies');

    // The header's company selector offers the new companies at once (no reload).
    const selector = page.getByRole('banner').getByRole('combobox', { name: 'Perusahaan' });
    await selector.fill(COMPANY_2);
    await visible(page.getByRole('listbox').getByRole('option', { name: COMPANY_2, exact: true }));
    await selector.press('Escape');
    await gone(page.getByRole('listbox'));

    // The role 'Operator': only Statistik, User and Perusahaan, each to look at.
    await menu(page).getByRole('link', { name: 'Akses User', exact: true }).click();
    await page.waitForURL('**/roles');
    dialog = await openForm(page);
    await dialog.getByLabel('Nama Akses').fill(ROLE);
    for (const name of ['Statistik - Lihat', 'User - Lihat', 'Perusahaan - Lihat']) {
      await dialog.getByRole('checkbox', { name, exact: true }).check();
    }
    await eventually(async () =>
      expect(await dialog.getByRole('checkbox', { checked: true }).count()).toBe(3),
    );
    await save(page);
    await visible(row(page, ROLE));

    // The user, scoped to the first company only, with that role.
    await menu(page).getByRole('link', { name: 'User', exact: true }).click();
    await page.waitForURL('**/user');
    dialog = await openForm(page);
    await dialog.getByLabel('Nama User').fill(USER.name);
    await dialog.getByLabel('Username').fill(USER.username);
    await dialog.getByLabel(/^Password/).fill(USER.password);
    await dialog.getByLabel('Akses User').selectOption({ label: ROLE });
    const allCompanies = dialog.getByRole('switch', { name: 'Semua Perusahaan (ALL)' });
    if (await allCompanies.isChecked()) await allCompanies.click();
    const companies = dialog.getByRole('combobox', { name: 'Perusahaan yang boleh diakses' });
    await companies.fill(COMPANY_1);
    await page.getByRole('listbox').getByRole('option', { name: COMPANY_1, exact: true }).click();
    await visible(dialog.getByRole('button', { name: COMPANY_1 }));
    await screenshot(page, 'a2-user-form');
    await save(page);
    const userRow = row(page, USER.username);
    await visible(userRow);
    await visible(userRow.getByText(ROLE, { exact: true }));
    await visible(userRow.getByText('Aktif', { exact: true }));
    await screenshot(page, 'a3-users');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('b. the scoped Operator sees only User and Perusahaan, only their company, and no actions', async () => {
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    await signIn(page, USER.username, USER.password);
    await visible(page.getByRole('link', { name: `Halo, ${USER.name}` }));

    // The menu: Statistik plus the Master Data group with User and Perusahaan only.
    await visible(menu(page).getByRole('link', { name: 'User', exact: true }));
    const links = await menu(page).getByRole('link').allTextContents();
    expect(links.map((l) => l.trim())).toEqual(['Statistik', 'User', 'Perusahaan']);
    expect(await menu(page).getByRole('link', { name: 'Akses User' }).count()).toBe(0);
    for (const group of ['Sertifikasi', 'Laporan']) {
      expect(await menu(page).getByRole('button', { name: group, exact: true }).count()).toBe(0);
    }

    // The company selector offers their company only.
    const selector = page.getByRole('banner').getByRole('combobox', { name: 'Perusahaan' });
    await eventually(async () => expect(await selector.inputValue()).toBe(COMPANY_1));
    await selector.click();
    const listbox = await visible(page.getByRole('listbox'));
    await eventually(async () =>
      expect((await listbox.getByRole('option').allTextContents()).map((o) => o.trim())).toEqual([COMPANY_1]),
    );
    await page.keyboard.press('Escape');
    await gone(listbox);

    // The company list: their company only, no Tambah, no Ubah or Hapus.
    await menu(page).getByRole('link', { name: 'Perusahaan', exact: true }).click();
    await page.waitForURL('**/company');
    await visible(row(page, COMPANY_1));
    expect(await main(page).getByRole('row').filter({ hasText: COMPANY_2 }).count()).toBe(0);
    expect(await main(page).getByRole('row').count()).toBe(2); // the header row and their company
    expect(await page.getByRole('button', { name: /^Tambah/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Ubah' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Hapus' }).count()).toBe(0);
    await screenshot(page, 'b1-operator-companies');

    // Straight to /roles: not for this role.
    await page.goto('/roles');
    await visible(page.getByRole('heading', { name: 'Halaman Tidak Ditemukan' }));
    expect(new URL(page.url()).pathname).toBe('/notfound');
    await screenshot(page, 'b2-operator-roles-notfound');

    // Log Out: back to the login page, signed out.
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL('**/login');
    await visible(page.getByRole('heading', { name: 'Login Sistem Sertifikasi' }));
    await page.goto('/user');
    await page.waitForURL('**/login');

    expect(errors).toEqual([]);
    await context.close();
  });
});
