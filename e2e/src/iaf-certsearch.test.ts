/**
 * Scenario: before reporting to IAF CertSearch. A client without its city holds an accredited
 * scheme. The administrator (every company in the header) opens 'IAF CertSearch' from 'Laporan',
 * chooses the certification body's company on the screen and sees the readiness: none of its one
 * scheme ready, the scheme listed with 'Kota/Kabupaten' missing and a link to the client's page;
 * the uploads wait for a key. At 1366 px and on a phone (390 px): nothing scrolls sideways but the
 * tables' own boxes.
 */
import type { Browser, Page } from 'playwright-core';
import { apiCaller, day, form } from './support/api';
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
import { logoPng } from './support/png';

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
  const company = await api('POST', '/api/company', form({ name: COMPANY, website: 'https://iaf.co.id' }));
  const companyId = String(company.id);
  const type = await api(
    'POST',
    '/api/certification',
    form({
      company_id: companyId,
      name: 'ISO 9001:2015',
      category: 'ISO',
      code: `IAF-${stamp}`,
      position: '1',
      icon_file: logoPng(64),
    }),
  );
  const body = await api(
    'POST',
    '/api/accredited',
    form({
      company_id: companyId,
      name: 'Komite Akreditasi Nasional',
      acronym: 'KAN',
      icon_file: logoPng(64),
    }),
  );
  const client = await api(
    'POST',
    '/api/company-certificate',
    form({
      company_id: companyId,
      name: CLIENT,
      certificate_number: `KL-${stamp}`,
      region: 'Jawa Timur',
      address: 'Jl. Merdeka No. 1',
      scope: 'Produksi kemasan plastik',
      ea_code: 'EA 14',
    }),
  );
  clientId = String(client.id);
  await api('POST', '/api/company-certificate-scheme', {
    certificate_id: client.id,
    certification_id: type.id,
    cert_number: CERT_NUMBER,
    status: 'ACTIVE',
    issue_date: day(-10),
    valid_for: 3,
    valid_for_type: 'YEAR',
    is_accredited: 'true',
    accredited_id: body.id,
  });
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

/** Nothing but a table's own box scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  expect(widths.doc).toBeLessThanOrEqual(widths.view);
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
