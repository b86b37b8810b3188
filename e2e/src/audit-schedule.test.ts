/**
 * Scenario: the certification cycle's schedule. A scheme issued 400 days ago (three years, no audit
 * done yet) has its first surveillance late. The administrator opens 'Jadwal Audit' from the menu,
 * narrows it to 'Terlambat' and the scheme's number, records the audit with 'Catat Audit' and sees
 * the row move on: gone from the late ones, back under 'Semua' as the next surveillance a year on.
 * At 1366 px and on a phone (390 px): the screen works and nothing scrolls sideways but the table.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCaller, day } from './support/api';
import {
  collectPageErrors,
  gone,
  launchBrowser,
  newPage,
  openFromMenu,
  PHONE,
  runSuffix,
  screenshot,
  signIn,
  systemUnderTest,
  toast,
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { makeRegister } from './support/register';

const suffix = runSuffix();
const stamp = Date.now().toString(36).toUpperCase();
const CLIENT = `PT Jadwal Audit Sentosa${suffix}`;
const CERT_NUMBER = `JDW/${stamp}/001`;

let browser: Browser;
let token: string;
const api = apiCaller(() => token);

beforeAll(async () => {
  browser = await launchBrowser();
  const { adminPassword } = systemUnderTest();
  token = String((await api('POST', '/api/login', { username: 'admin', password: adminPassword })).token);
  await makeRegister(api, {
    company: { name: `PT Lembaga Jadwal${suffix} ${stamp}`, website: 'https://jadwal.co.id' },
    type: { code: `JDW-${stamp}` },
    client: { name: CLIENT, certificate_number: `KL-${stamp}`, region: 'Jakarta' },
    schemes: [CERT_NUMBER],
    issue_date: day(-400),
  });
});

afterAll(async () => {
  await browser?.close();
});

const main = (page: Page) => page.getByRole('main');
const row = (page: Page): Locator => main(page).getByRole('row').filter({ hasText: CERT_NUMBER });
/** On a phone each item is a card (a list item), not a table row. */
const card = (page: Page): Locator => main(page).getByRole('listitem').filter({ hasText: CERT_NUMBER });

/** The screen narrowed to this scheme's number, in a window. */
async function narrow(page: Page, window: string) {
  await main(page).getByRole('button', { name: window, exact: true }).click();
  const search = main(page).getByRole('searchbox', { name: 'Cari Data' });
  if ((await search.inputValue()) !== CERT_NUMBER) await search.fill(CERT_NUMBER);
}

describe('Jadwal Audit', () => {
  it('records the audit of a late surveillance from the schedule, and the row moves on (1366 px)', async () => {
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      // The dashboard's card links to the schedule.
      await visible(page.getByRole('region', { name: 'Audit Jatuh Tempo' }));
      await openFromMenu(page, 'Sertifikasi', 'Jadwal Audit', '/audit-schedule');
      await narrow(page, 'Terlambat');
      const late = await visible(row(page));
      await visible(late.getByText('Terlambat', { exact: true }));
      await visible(late.getByText('Surveilan', { exact: true }));
      await screenshot(page, 'audit-schedule-1366-late');

      await late.getByRole('button', { name: 'Catat Audit' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: `Catat Audit ${CERT_NUMBER}` }));
      expect(await dialog.getByLabel(/Jenis Audit/).inputValue()).toBe('SURVEILLANCE');
      await dialog.getByLabel(/Catatan/).fill('Surveilan pertama, tanpa temuan mayor');
      await dialog.getByRole('button', { name: 'Simpan Data' }).click();
      await visible(toast(page, 'Berhasil menambahkan data'));
      await gone(dialog);
      // No longer late...
      await gone(row(page));
      // ...but the next surveillance, a year on.
      await narrow(page, 'Semua');
      const next = await visible(row(page));
      await visible(next.getByText('Surveilan', { exact: true }));
      await visible(next.getByText('Nanti', { exact: true }));
      await screenshot(page, 'audit-schedule-1366-next');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works on a phone (390 px): the schedule, its filters and the item as a card, nothing scrolling sideways', async () => {
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await visible(page.getByRole('region', { name: 'Audit Jatuh Tempo' }));
      await screenshot(page, 'audit-schedule-390-dashboard');
      await expectNoSidewaysScroll(page);
      await page.goto('/audit-schedule');
      await visible(main(page).getByRole('heading', { name: 'Jadwal Audit' }));
      await narrow(page, 'Semua');
      // The card names the item's kind and due date beside its number.
      await visible(card(page).filter({ hasText: 'Jatuh Tempo' }));
      await screenshot(page, 'audit-schedule-390');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
