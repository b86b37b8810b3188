/**
 * Scenario (docs/rules.md#import): bringing a register in from Excel, on a phone (390 x 844). The administrator
 * (header on 'Semua Perusahaan') opens 'Sertifikasi Perusahaan', 'Impor Excel', picks the company,
 * chooses a file with a client and two schemes, 'Periksa File' (the counts), 'Impor Data' (the
 * toast), and sees the client in the reloaded list; a second check of the same file finds nothing
 * to change. The page never scrolls sideways.
 */
import ExcelJS from 'exceljs';
import type { APIRequestContext, Browser } from 'playwright-core';
import {
  collectPageErrors,
  eventually,
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
import { logoPng } from './support/png';

const suffix = runSuffix();
const tag = (suffix.trim() || 'e2e').toUpperCase();
const COMPANY = `PT Impor Register${suffix}`;
const TYPE = `ISO 9001 Impor${suffix}`;
const CLIENT = `PT Klien Impor Excel${suffix}`;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The company and its certification type, made through the API as the administrator. */
async function prepare(request: APIRequestContext, password: string): Promise<void> {
  const login = await request.post('/api/login', { data: { username: 'admin', password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const company = await request.post('/api/company', {
    headers,
    data: { name: COMPANY, website: 'https://impor.example.id' },
  });
  expect(company.status()).toBe(201);
  const { id } = (await company.json()) as { id: string };
  const type = await request.post('/api/certification', {
    headers,
    multipart: {
      company_id: id,
      name: TYPE,
      category: 'Mutu',
      code: `QMS-${tag}`,
      position: '1',
      icon_file: { name: 'icon.png', mimeType: 'image/png', buffer: logoPng() },
    },
  });
  expect(type.status()).toBe(201);
}

async function registerFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow([
    'Nomor Sertifikat Klien',
    'Nama Klien',
    'Region',
    'Nomor Sertifikat',
    'Sertifikat',
    'Status',
    'Tanggal Terbit',
    'Masa Berlaku',
    'Satuan Masa Berlaku',
  ]);
  sheet.addRow([`KL-${tag}`, CLIENT, 'Jawa Timur', `IMP/${tag}/1`, TYPE, 'ACTIVE', '17/03/2026', 3, 'TAHUN']);
  sheet.addRow([`KL-${tag}`, CLIENT, 'Jawa Timur', `IMP/${tag}/2`, TYPE, 'DRAFT', '2026-04-01', 1, 'TAHUN']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('import from Excel', () => {
  it('imports a register through the dialog on a phone; the list shows it', async () => {
    const { adminPassword } = systemUnderTest();
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    try {
      await prepare(context.request, adminPassword);
      await signIn(page, 'admin', adminPassword);
      await page.goto('/company-certificate');
      await page.getByRole('button', { name: 'Impor Excel' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: /Impor Excel/ }));
      await visible(dialog.getByRole('button', { name: 'Unduh Template' }));

      await dialog.getByRole('combobox', { name: 'Perusahaan' }).selectOption({ label: COMPANY });
      await dialog.getByLabel('Pilih File').setInputFiles({
        name: 'register.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await registerFile(),
      });
      await visible(dialog.getByText('File: register.xlsx'));

      await dialog.getByRole('button', { name: 'Periksa File' }).click();
      const status = dialog.getByRole('status');
      await visible(status);
      await eventually(async () => expect(await status.textContent()).toContain('Klien: 1 baru'));
      expect(await status.textContent()).toContain('Skema: 2 baru');

      await dialog.getByRole('button', { name: 'Impor Data' }).click();
      await visible(toast(page, 'Berhasil mengimpor data'));
      await eventually(async () => expect(await status.textContent()).toContain('Impor selesai'));

      const [scrollWidth, innerWidth] = await page.evaluate(() => [
        document.scrollingElement!.scrollWidth,
        window.innerWidth,
      ]);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await screenshot(page, 'import-phone');

      await dialog.getByRole('button', { name: 'Periksa File' }).click();
      await eventually(async () =>
        expect(await status.textContent()).toContain('Skema: 0 baru, 0 diubah, 2 tidak berubah'),
      );
      await dialog.getByRole('button', { name: 'Tutup' }).click();
      await visible(page.getByText(CLIENT).first());
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
