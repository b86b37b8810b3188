/**
 * Scenario: before reporting to IAF CertSearch. A client without its city holds an accredited
 * scheme. The administrator (every company in the header) opens 'IAF CertSearch' from 'Laporan',
 * chooses the certification body's company on the screen and sees the readiness: none of its one
 * scheme ready, the scheme listed with 'Kota/Kabupaten' missing and a link to the client's page;
 * the uploads wait for a key. At 1366 px and on a phone (390 px): nothing scrolls sideways but the
 * tables' own boxes.
 */
import type { Browser, Page } from 'playwright-core';
import { apiCaller, day } from './support/api';
import {
  collectPageErrors,
  launchBrowser,
  newPage,
  openFromMenu,
  PHONE,
  runSuffix,
  screenshot,
  signIn,
  systemUnderTest,
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { makeRegister } from './support/register';

const suffix = runSuffix();
const stamp = Date.now().toString(36).toUpperCase();
const COMPANY = `PT Lembaga IAF${suffix} ${stamp}`;
const CLIENT = `PT Klien Tanpa Kota${suffix} ${stamp}`;
const CERT_NUMBER = `IAF/${stamp}/001`;

let browser: Browser;
let token: string;
let clientId: string;
const api = apiCaller(() => token);

beforeAll(async () => {
  browser = await launchBrowser();
  const { adminPassword } = systemUnderTest();
  token = String((await api('POST', '/api/login', { username: 'admin', password: adminPassword })).token);
  // A client without its city ('Kota/Kabupaten'), its one scheme accredited.
  ({ clientId } = await makeRegister(api, {
    company: { name: COMPANY, website: 'https://iaf.co.id' },
    type: { code: `IAF-${stamp}` },
    accredited: { name: 'Komite Akreditasi Nasional', acronym: 'KAN' },
    client: {
      name: CLIENT,
      certificate_number: `KL-${stamp}`,
      region: 'Jawa Timur',
      address: 'Jl. Merdeka No. 1',
      scope: 'Produksi kemasan plastik',
      ea_code: 'EA 14',
    },
    schemes: [CERT_NUMBER],
    issue_date: day(-10),
  }));
});

afterAll(async () => {
  await browser?.close();
});

const main = (page: Page) => page.getByRole('main');

/** The screen, its company chosen on it (the header shows every company). */
async function openFor(page: Page) {
  const picker = main(page).getByRole('combobox', { name: 'Perusahaan' });
  await picker.fill(COMPANY);
  await page.getByRole('listbox').getByRole('option', { name: COMPANY, exact: true }).click();
  await visible(main(page).getByText('0 dari 1 skema siap diunggah'));
}

describe('IAF CertSearch', () => {
  it('shows the readiness of the chosen company: the incomplete scheme, what it misses, where to fix it (1366 px)', async () => {
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await openFromMenu(page, 'Laporan', 'IAF CertSearch', '/iaf-certsearch');
      await openFor(page);
      const incomplete = main(page).getByRole('table', { name: 'Skema yang belum lengkap' });
      const row = incomplete.getByRole('row').filter({ hasText: CERT_NUMBER });
      await visible(row.getByText(CLIENT));
      await visible(row.getByText('Kota/Kabupaten'));
      expect(await row.getByRole('link', { name: `Perbaiki ${CLIENT}` }).getAttribute('href')).toBe(
        `/company-certificate/${clientId}`,
      );
      // No key yet: the uploads wait for one, and say so.
      expect(await main(page).getByRole('button', { name: 'Unggah Sekarang' }).isDisabled()).toBe(true);
      await visible(main(page).getByText('Kunci API IAF CertSearch belum diatur'));
      await visible(main(page).getByRole('table', { name: 'Riwayat Unggah' }));
      await screenshot(page, 'iaf-certsearch-1366');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works on a phone (390 px), nothing scrolling sideways', async () => {
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await page.goto('/iaf-certsearch');
      await openFor(page);
      await visible(main(page).getByText(CLIENT));
      await screenshot(page, 'iaf-certsearch-390');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
