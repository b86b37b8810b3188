/**
 * Scenario: planning an audit. A scheme issued 400 days ago has its first surveillance due. The
 * company has two lead auditors qualified for its type; one of them once consulted for the client (a
 * conflict of interest). The administrator chooses the company in the header, opens 'Jadwal Audit',
 * plans the item with 'Rencanakan': the form suggests the audit days from the client's employees;
 * the conflicted auditor is refused with the reason under the team member; the other is saved. The
 * schedule then shows the planned audit and its lead, and 'Kalender Auditor' shows the lead's days in
 * that month; at 390 px the calendar and 'Rencana Audit' fit the screen. 'Batalkan' on 'Rencana
 * Audit' frees the lead's days and the schedule offers 'Rencanakan' again.
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
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { makeRegister } from './support/register';

const suffix = runSuffix();
const stamp = Date.now().toString(36).toUpperCase();
const COMPANY = `PT Lembaga Rencana${suffix} ${stamp}`;
const CLIENT = `PT Rencana Audit Makmur${suffix}`;
const CERT_NUMBER = `RNC/${stamp}/001`;
const LEAD = `Budi Santoso ${stamp}`;
const CONFLICTED = `Sari Wulandari ${stamp}`;
/** Two days, starting ten days from now. */
const START = day(10);
const END = day(11);

let browser: Browser;
let token: string;
const api = apiCaller(() => token);

beforeAll(async () => {
  browser = await launchBrowser();
  const { adminPassword } = systemUnderTest();
  token = String((await api('POST', '/api/login', { username: 'admin', password: adminPassword })).token);
  const { companyId, typeId, clientId } = await makeRegister(api, {
    company: { name: COMPANY, website: 'https://rencana.co.id' },
    type: { code: `RNC-${stamp}` },
    client: { name: CLIENT, certificate_number: `KR-${stamp}`, region: 'Bandung', employees_number: 40 },
    schemes: [CERT_NUMBER],
    issue_date: day(-400),
  });
  const qualification = {
    certification_id: typeId,
    role: 'LEAD_AUDITOR',
    sector_codes: [],
    valid_from: day(-700),
    valid_until: null,
  };
  for (const [name, conflicts] of [
    [LEAD, []],
    [CONFLICTED, [{ client_id: clientId, reason: 'Mantan konsultan klien', until: null }]],
  ] as const) {
    await api('POST', '/api/auditor', {
      company_id: companyId,
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}.${stamp.toLowerCase()}@rencana.example`,
      employment: 'INTERNAL',
      active: 'true',
      qualifications: [qualification],
      conflicts,
    });
  }
});

afterAll(async () => {
  await browser?.close();
});

const main = (page: Page) => page.getByRole('main');
const row = (page: Page): Locator => main(page).getByRole('row').filter({ hasText: CERT_NUMBER });

/** The header's company selector set to this scenario's company. */
async function chooseCompany(page: Page) {
  const selector = page.getByRole('banner').getByRole('combobox', { name: 'Perusahaan' });
  await selector.fill(COMPANY);
  await page.getByRole('listbox').getByRole('option', { name: COMPANY, exact: true }).click();
  await gone(page.getByRole('listbox'));
}

/** Types a YYYY-MM-DD day into a date field of the Indonesian picker (dd/mm/yyyy). */
async function typeDate(page: Page, scope: Locator, label: string, value: string) {
  const [y, m, d] = value.split('-') as [string, string, string];
  const group = scope.getByRole('group', { name: label });
  await group.getByRole('spinbutton').first().click();
  await page.keyboard.type(`${d}${m}${y}`, { delay: 30 });
  expect(await group.textContent()).toContain(`${d}/${m}/${y}`);
}

/** Picks an auditor by name in the team member's autocomplete. */
async function chooseAuditor(page: Page, dialog: Locator, name: string) {
  const input = dialog.getByRole('combobox', { name: /^Auditor/ }).first();
  await input.fill(name);
  await page.getByRole('listbox').getByRole('option', { name, exact: true }).click();
}

/** A required field's label: marked with '*', and drawn over the field's box, not above it. */
async function expectFieldLabel(scope: Locator, name: string) {
  const label = scope.locator('label').filter({ hasText: new RegExp(`^${name}`) });
  expect(await label.textContent()).toMatch(/\*/);
  const field = label.locator('xpath=..');
  const [own, box] = [await label.boundingBox(), await field.locator('fieldset').boundingBox()];
  // The outline's top edge runs through the label (the field is empty: the label inside the box).
  expect(own!.y + own!.height).toBeGreaterThan(box!.y);
}

describe('Rencana Audit', () => {
  it('plans the due surveillance from the schedule: the conflicted auditor refused, the other saved and on the calendar (1366 px)', async () => {
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await chooseCompany(page);
      await openFromMenu(page, 'Sertifikasi', 'Jadwal Audit', '/audit-schedule');
      await main(page).getByRole('button', { name: 'Semua', exact: true }).click();
      await main(page).getByRole('searchbox', { name: 'Cari Data' }).fill(CERT_NUMBER);
      const due = await visible(row(page));
      await due.getByRole('button', { name: 'Rencanakan' }).click();

      const dialog = await visible(page.getByRole('dialog', { name: `Rencanakan Audit ${CERT_NUMBER}` }));
      // 40 employees: IAF MD 5 suggests the initial audit's days, a surveillance a third of them.
      await visible(dialog.getByText(/^Saran \d+(,\d)? hari/));
      expect(Number((await dialog.getByLabel(/^Hari Audit/).inputValue()).replace(',', '.'))).toBeGreaterThan(
        0,
      );
      // A required date field's label says so ('*') and sits in its outline, as every other field's.
      for (const name of ['Tanggal Mulai', 'Tanggal Selesai']) await expectFieldLabel(dialog, name);
      await typeDate(page, dialog, 'Tanggal Mulai', START);
      await typeDate(page, dialog, 'Tanggal Selesai', END);

      // The auditor with a conflict of interest with the client is refused, the reason under the member.
      await chooseAuditor(page, dialog, CONFLICTED);
      await dialog.getByRole('button', { name: 'Simpan Data' }).click();
      await visible(dialog.getByText(/konflik kepentingan dengan klien: Mantan konsultan klien/));
      await screenshot(page, 'planned-audit-1366-conflict');

      await chooseAuditor(page, dialog, LEAD);
      await dialog.getByRole('button', { name: 'Simpan Data' }).click();
      // Saved: the dialog closes (its 2.5 s toast may come and go before a busy machine looks).
      await gone(dialog);
      // The schedule's row shows the planned audit and its lead.
      await visible(row(page).getByText(new RegExp(LEAD)));
      await screenshot(page, 'planned-audit-1366-schedule');

      // 'Kalender Auditor': the lead's two days in the audit's month; the other auditor is free.
      await openFromMenu(page, 'Sertifikasi', 'Kalender Auditor', '/auditor-calendar');
      await main(page).getByLabel('Bulan').fill(START.slice(0, 7));
      const lead = await visible(main(page).getByRole('region', { name: LEAD }));
      await visible(lead.getByText('2 hari bertugas'));
      await visible(lead.getByText(CLIENT));
      await visible(
        main(page).getByRole('region', { name: CONFLICTED }).getByText('Tidak ada audit bulan ini'),
      );
      await screenshot(page, 'planned-audit-1366-calendar');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone (390 px): the calendar and the planned audits fit the screen', async () => {
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await chooseCompany(page);
      await page.goto('/auditor-calendar');
      await main(page).getByLabel('Bulan').fill(START.slice(0, 7));
      await visible(main(page).getByRole('region', { name: LEAD }).getByText('2 hari bertugas'));
      await screenshot(page, 'planned-audit-390-calendar');
      await expectNoSidewaysScroll(page);

      await page.goto('/planned-audit');
      await visible(main(page).getByRole('heading', { name: 'Rencana Audit' }));
      await visible(main(page).getByText(CLIENT).first());
      await screenshot(page, 'planned-audit-390-list');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("'Batalkan' frees the lead's days and the schedule offers 'Rencanakan' again (1366 px)", async () => {
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await chooseCompany(page);
      await openFromMenu(page, 'Sertifikasi', 'Rencana Audit', '/planned-audit');
      const planned = await visible(main(page).getByRole('row').filter({ hasText: CLIENT }));
      await visible(planned.getByText('Direncanakan'));
      await planned.getByRole('button', { name: 'Batalkan' }).click();
      // It asks first, naming the audit; 'Ya, Batalkan Audit' cancels it (and emails the team).
      const ask = await visible(page.getByRole('dialog', { name: 'Batalkan Audit?' }));
      await visible(ask.getByText(CLIENT));
      await ask.getByRole('button', { name: 'Ya, Batalkan Audit' }).click();
      await gone(ask);
      await visible(main(page).getByRole('row').filter({ hasText: CLIENT }).getByText('Dibatalkan'));

      await openFromMenu(page, 'Sertifikasi', 'Kalender Auditor', '/auditor-calendar');
      await main(page).getByLabel('Bulan').fill(START.slice(0, 7));
      await visible(main(page).getByRole('region', { name: LEAD }).getByText('Tidak ada audit bulan ini'));

      await openFromMenu(page, 'Sertifikasi', 'Jadwal Audit', '/audit-schedule');
      await main(page).getByRole('button', { name: 'Semua', exact: true }).click();
      await main(page).getByRole('searchbox', { name: 'Cari Data' }).fill(CERT_NUMBER);
      await visible(row(page).getByRole('button', { name: 'Rencanakan' }));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
