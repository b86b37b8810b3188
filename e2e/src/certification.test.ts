/**
 * Scenario: the certification module as a new user meets it. The administrator creates
 * a company, a certification type and an accreditation body (each with an icon), a client with a
 * logo, and a scheme on the client's page; generates the scheme's QR, downloads it, and decodes it
 * (Debian's zbarimg) to the public check URL; adds a training certificate and opens its page, whose
 * QR decodes to the training check URL. Then the same pages on a phone: nothing scrolls sideways.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  collectPageErrors,
  eventually,
  gone,
  launchBrowser,
  newPage,
  PHONE,
  runSuffix,
  screenshot,
  signIn,
  systemUnderTest,
  toast,
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { logoPng } from './support/png';

const suffix = runSuffix();
const tag = suffix.trim().toUpperCase();
const COMPANY = `PT Lembaga Sertifikasi Mutu${suffix}`;
const TYPE = `ISO 9001:2015${suffix}`;
const ACCREDITATION = `Komite Akreditasi Nasional${suffix}`;
const CLIENT = `PT Baja Perkasa Abadi${suffix}`;
const SCHEME_NUMBER = `QMS/2026/${tag || 'E2E'}/001`;
const TRAINEE = `Rina Wulandari${suffix}`;
const TRAINING_NUMBER = `TR/2026/${tag || 'E2E'}/017`;
const CREATED = 'Berhasil menambahkan data';

let browser: Browser;
let workDir: string;
let logoFile: string;
/** Where the client's and the training certificate's pages are, for the phone test. */
const pages: { client?: string; training?: string } = {};

/** Debian's zbarimg (zbar-tools), which reads the QR codes the way a phone's camera would. */
function zbarimg(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v zbarimg'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error("e2e: zbarimg was not found: install Debian's zbar-tools (`apt-get install zbar-tools`)");
  }
}

/** The text of the one QR code in a PNG file. */
function decodeQr(file: string): string {
  return execFileSync(zbarimg(), ['--raw', '-q', file], { encoding: 'utf8' }).trim();
}

beforeAll(async () => {
  zbarimg();
  browser = await launchBrowser();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-e2e-cert-'));
  logoFile = path.join(workDir, 'logo.png');
  fs.writeFileSync(logoFile, logoPng());
});

afterAll(async () => {
  await browser?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

const menu = (page: Page) => page.getByRole('navigation', { name: 'Navigasi utama' });
const main = (page: Page) => page.getByRole('main');
const row = (page: Page, text: string) => main(page).getByRole('row').filter({ hasText: text });

async function goTo(page: Page, link: string, url: string) {
  await menu(page).getByRole('link', { name: link, exact: true }).click();
  await page.waitForURL(`**${url}`);
}

async function openAdd(page: Page, title: string): Promise<Locator> {
  await main(page)
    .getByRole('button', { name: /^Tambah/ })
    .click();
  return visible(page.getByRole('dialog', { name: title }));
}

async function save(page: Page, dialog: Locator, message = CREATED) {
  await dialog.getByRole('button', { name: 'Simpan Data' }).click();
  await visible(toast(page, message));
  await gone(dialog);
}

/** Picks the record's company in a form (the header says 'Semua Perusahaan'). */
async function chooseCompany(page: Page, dialog: Locator) {
  const company = dialog.getByRole('combobox', { name: 'Perusahaan' });
  await company.fill(COMPANY);
  await page.getByRole('listbox').getByRole('option', { name: COMPANY, exact: true }).click();
}

/** An image of the page that has loaded (not a broken link). */
async function expectLoaded(img: Locator) {
  await visible(img);
  await eventually(async () =>
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0),
  );
}

/** Clicks 'Download QR' and returns the saved file's name and path. */
async function downloadQr(page: Page, scope: Locator, name: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    scope.getByRole('button', { name: 'Download QR' }).click(),
  ]);
  const file = path.join(workDir, name);
  await download.saveAs(file);
  return { suggested: download.suggestedFilename(), file };
}

/** The public check page a QR points at: its path and certificate number (the origin is PUBLIC_BASE_URL's). */
function checkTarget(text: string) {
  const url = new URL(text);
  return { path: url.pathname, cert: url.searchParams.get('cert'), port: url.port };
}

describe('certification: types, accreditation bodies, clients with schemes and QR codes, training certificates', () => {
  it('e1. creates a type and an accreditation body with icons, a client with a logo, and a scheme; its QR decodes to the public URL', async () => {
    const { adminPassword, baseUrl } = systemUnderTest();
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', adminPassword);

    // The certification body itself.
    await goTo(page, 'Perusahaan', '/company');
    let dialog = await openAdd(page, 'Tambah Perusahaan');
    await dialog.getByLabel('Nama Perusahaan').fill(COMPANY);
    await dialog.getByLabel('Website').fill('https://lsmutu.co.id');
    await save(page, dialog);

    // A certification type with its icon; the list shows the icon, the company, the code and order.
    await goTo(page, 'Sertifikat', '/certification');
    dialog = await openAdd(page, 'Tambah Sertifikat');
    await chooseCompany(page, dialog);
    await dialog.locator('input[type=file]').setInputFiles(logoFile);
    await visible(dialog.getByRole('img', { name: /Icon/ }));
    await dialog.getByLabel('Nama Sertifikat').fill(TYPE);
    await dialog.getByLabel('Kategori').fill('Sistem Manajemen Mutu');
    await dialog.getByLabel(/^Kode/).fill(`QMS${tag}`);
    await dialog.getByLabel('No. Urut').fill('1');
    await save(page, dialog);
    const typeRow = row(page, TYPE);
    await visible(typeRow.getByText(COMPANY));
    await expectLoaded(typeRow.locator('img'));

    // An accreditation body with its logo.
    await goTo(page, 'Akreditasi', '/accredited');
    dialog = await openAdd(page, 'Tambah Akreditasi');
    await chooseCompany(page, dialog);
    await dialog.getByLabel(/^Nama/).fill(ACCREDITATION);
    await dialog.locator('input[type=file]').setInputFiles(logoFile);
    await save(page, dialog);
    await expectLoaded(row(page, ACCREDITATION).locator('img'));

    // A client with a logo.
    await goTo(page, 'Sertifikasi Perusahaan', '/company-certificate');
    dialog = await openAdd(page, 'Tambah Sertifikasi Perusahaan');
    await chooseCompany(page, dialog);
    await dialog.getByLabel('Nama Klien').fill(CLIENT);
    await dialog.getByLabel('Nomor Sertifikat').fill(`KL-${tag || 'E2E'}-001`);
    await dialog.getByLabel('Region').fill('Jawa Barat');
    await dialog.locator('input[type=file]').setInputFiles(logoFile);
    await dialog.getByLabel('Email').fill('qa@bajaperkasa.co.id');
    await dialog.getByLabel('Website').fill('https://bajaperkasa.co.id');
    await dialog.getByLabel('Jumlah Karyawan', { exact: true }).fill('250');
    await save(page, dialog);
    const clientRow = row(page, CLIENT);
    await expectLoaded(clientRow.locator('img'));
    await screenshot(page, 'e1-clients');

    // Its page: the logo, name and company; the profile with '-' where nothing was entered.
    await clientRow.getByRole('link', { name: 'Detail' }).click();
    await page.waitForURL('**/company-certificate/*');
    pages.client = new URL(page.url()).pathname;
    await visible(main(page).getByRole('heading', { name: CLIENT }));
    await visible(main(page).getByText(COMPANY));
    await expectLoaded(main(page).getByRole('img', { name: `Logo ${CLIENT}` }));
    const profile = main(page).getByRole('region', { name: 'Profile Klien' });
    await visible(profile.getByText('qa@bajaperkasa.co.id'));
    await visible(profile.getByRole('button', { name: 'Ubah Profile' }));

    // A scheme: YA reveals the accreditation choice.
    const schemes = main(page).getByRole('region', { name: 'Skema Sertifikasi' });
    await schemes.getByRole('button', { name: 'Tambah Skema Sertifikasi' }).click();
    dialog = await visible(page.getByRole('dialog', { name: 'Tambah Skema Sertifikasi' }));
    const type = dialog.getByRole('combobox', { name: /^Sertifikat/ });
    await eventually(async () => expect(await type.locator('option', { hasText: TYPE }).count()).toBe(1));
    await type.selectOption({ label: TYPE });
    await dialog.getByLabel('Nomor Sertifikat').fill(SCHEME_NUMBER);
    await dialog.getByLabel(/^Tanggal Terbit(\s*\*)?$/).fill('2026-01-15');
    await visible(dialog.getByText('Berlaku sampai 15 Januari 2029'));
    expect(await dialog.getByRole('combobox', { name: /^Akreditasi/ }).count()).toBe(0);
    await dialog.getByRole('combobox', { name: /Terakreditasi/ }).selectOption({ label: 'YA' });
    const accreditation = dialog.getByRole('combobox', { name: /^Akreditasi/ });
    await eventually(async () =>
      expect(await accreditation.locator('option', { hasText: ACCREDITATION }).count()).toBe(1),
    );
    await accreditation.selectOption({ label: ACCREDITATION });
    await screenshot(page, 'e2-scheme-form');
    await save(page, dialog);

    const card = schemes.getByRole('article', { name: new RegExp(SCHEME_NUMBER.replace(/\//g, '\\/')) });
    await visible(card.getByText('ACTIVE', { exact: true }));
    await visible(card.getByText(ACCREDITATION));
    await visible(card.getByText('15 Januari 2029'));
    await visible(card.getByText(/^\d[\d.]* hari$/));

    // Its QR: generated on request, shown 150 px wide, downloaded and read back.
    await card.getByRole('button', { name: 'Generate QR Code' }).click();
    await visible(toast(page, 'Berhasil membuat QR'));
    const qr = card.getByRole('img', { name: `QR Code ${SCHEME_NUMBER}` });
    await expectLoaded(qr);
    expect((await qr.boundingBox())?.width).toBe(150);
    await screenshot(page, 'e3-client-detail');
    const saved = await downloadQr(page, card, 'scheme-qr.png');
    expect(saved.suggested).toBe(`qrcode-${SCHEME_NUMBER.replace(/\//g, '_')}.png`);
    const target = checkTarget(decodeQr(saved.file));
    expect(target).toEqual({
      path: '/check-certification-company',
      cert: SCHEME_NUMBER,
      port: new URL(baseUrl).port,
    });

    // The status history names the creation.
    await card.getByRole('button', { name: 'Riwayat Status' }).click();
    const history = await visible(page.getByRole('dialog', { name: `Riwayat Status ${SCHEME_NUMBER}` }));
    await visible(history.getByRole('listitem').filter({ hasText: 'ACTIVE' }).filter({ hasText: 'admin' }));
    await screenshot(page, 'e3-scheme-history');
    await history.getByRole('button', { name: 'Tutup' }).click();
    await gone(history);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('e2. adds a training certificate and opens its page; its QR decodes to the training check URL', async () => {
    const { adminPassword, baseUrl } = systemUnderTest();
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', adminPassword);

    await goTo(page, 'Sertifikasi Pelatihan', '/training-certificate');
    const dialog = await openAdd(page, 'Tambah Sertifikasi Pelatihan');
    await chooseCompany(page, dialog);
    await dialog.getByLabel('Nama Personel').fill(TRAINEE);
    await dialog.getByLabel('Nomor Sertifikat').fill(TRAINING_NUMBER);
    await dialog.getByLabel('Nama Pelatihan').fill('Auditor Internal ISO 9001:2015');
    await dialog.getByLabel('Lokasi').fill('Bandung');
    await dialog.getByLabel('Tanggal Sertifikasi').fill('2026-03-17');
    await save(page, dialog);
    const trainingRow = row(page, TRAINEE);
    await visible(trainingRow.getByText('17 Maret 2026'));
    await visible(trainingRow.getByText(COMPANY));

    await trainingRow.getByRole('link', { name: 'Detail' }).click();
    await page.waitForURL('**/training-certificate/*');
    pages.training = new URL(page.url()).pathname;
    const profile = await visible(main(page).getByRole('region', { name: 'Profil Personel' }));
    await visible(profile.getByText(TRAINING_NUMBER, { exact: true }));
    await visible(profile.getByText('Auditor Internal ISO 9001:2015'));
    await visible(profile.getByText('Bandung'));
    await visible(profile.getByRole('button', { name: 'Ubah Sertifikasi' }));
    const qr = profile.getByRole('img', { name: `QR Code ${TRAINING_NUMBER}` });
    await expectLoaded(qr);
    await screenshot(page, 'e4-training-detail');
    const saved = await downloadQr(page, profile, 'training-qr.png');
    expect(saved.suggested).toBe(`qrcode-${TRAINING_NUMBER.replace(/\//g, '_')}.png`);
    expect(checkTarget(decodeQr(saved.file))).toEqual({
      path: '/check-certification-training',
      cert: TRAINING_NUMBER,
      port: new URL(baseUrl).port,
    });

    // 'Ubah Sertifikasi' opens the form with the certificate's values.
    await profile.getByRole('button', { name: 'Ubah Sertifikasi' }).click();
    const edit = await visible(page.getByRole('dialog', { name: 'Ubah Sertifikasi Pelatihan' }));
    expect(await edit.getByLabel('Nomor Sertifikat').inputValue()).toBe(TRAINING_NUMBER);
    await edit.getByLabel('Lokasi').fill('Surabaya');
    await save(page, edit, 'Berhasil merubah data');
    await visible(profile.getByText('Surabaya'));

    expect(errors).toEqual([]);
    await context.close();
  });

  it('e3. on a phone (390 px) the lists and both detail pages never scroll sideways', async () => {
    const { adminPassword } = systemUnderTest();
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', adminPassword);
    for (const [url, heading] of [
      ['/accredited', 'Akreditasi'],
      ['/certification', 'Sertifikat'],
      ['/company-certificate', 'Sertifikasi Perusahaan'],
      ['/training-certificate', 'Sertifikasi Pelatihan'],
    ] as const) {
      await page.goto(url);
      await visible(main(page).getByRole('heading', { name: heading }));
      await visible(main(page).getByRole('row').nth(1));
      await expectNoSidewaysScroll(page);
    }
    await screenshot(page, 'e5-phone-clients');

    expect(pages.client).toBeDefined();
    await page.goto(pages.client!);
    const card = await visible(main(page).getByRole('article').first());

    // 'Ubah Profile Client' takes the whole screen, its fields one under another.
    await main(page).getByRole('button', { name: 'Ubah Profile' }).click();
    const profileForm = await visible(page.getByRole('dialog', { name: 'Ubah Profile Client' }));
    expect((await profileForm.boundingBox())?.width).toBe(390);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'e6-phone-profile-form');
    await profileForm.getByRole('button', { name: 'Tutup' }).click();
    await gone(profileForm);
    await visible(card.getByRole('button', { name: 'Download QR' }));
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'e6-phone-client-detail');

    // The scheme form takes the whole screen.
    await card.getByRole('button', { name: 'Ubah' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Ubah Skema Sertifikasi' }));
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(390);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'e7-phone-scheme-form');
    await dialog.getByRole('button', { name: 'Tutup' }).click();
    await gone(dialog);

    expect(pages.training).toBeDefined();
    await page.goto(pages.training!);
    await visible(
      main(page)
        .getByRole('region', { name: 'Profil Personel' })
        .getByRole('button', { name: 'Download QR' }),
    );
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'e8-phone-training-detail');

    expect(errors).toEqual([]);
    await context.close();
  });
});
