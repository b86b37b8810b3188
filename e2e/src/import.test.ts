/**
 * Scenario (docs/rules.md#import): bringing a register in from Excel, on a phone (390 x 844). The administrator (header on
 * 'Semua Perusahaan') opens 'Sertifikasi Perusahaan', 'Impor Excel', picks the company, chooses a
 * file with a client and two schemes, 'Periksa File' (the counts), 'Impor Data': the job's progress
 * bar, then its end (the toast, clear of the dialog's title; the counts); 'Riwayat Impor' lists it.
 * The same file applied again with the dialog closed while it runs still ends in a toast and a
 * reloaded list showing the client; a check of it then finds nothing to change. The page never
 * scrolls sideways.
 */
import ExcelJS from 'exceljs';
import type { APIRequestContext, Browser } from 'playwright-core';
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
      // The job's progress as soon as the file is accepted: waiting its turn, or 'Mengimpor x dari 2 baris'.
      await visible(
        dialog.getByRole('progressbar', { name: /Menunggu giliran impor|Mengimpor \d+ dari 2 baris/ }),
      );
      const done = await visible(toast(page, 'Impor selesai: 2 baris'));
      await eventually(async () => expect(await status.textContent()).toContain('Impor selesai'));
      // On a phone the toast stays clear of the full-screen dialog's title.
      const title = await dialog.getByRole('heading', { name: /Impor Excel/ }).boundingBox();
      const shown = await done.boundingBox();
      expect(title && shown).toBeTruthy();
      expect(shown!.y >= title!.y + title!.height || shown!.y + shown!.height <= title!.y).toBe(true);

      await expectNoSidewaysScroll(page);
      await screenshot(page, 'import-phone');

      await dialog.getByRole('button', { name: 'Riwayat Impor' }).click();
      const history = await visible(dialog.getByRole('table', { name: 'Riwayat Impor' }));
      await eventually(async () =>
        expect(await history.getByRole('row').nth(1).textContent()).toContain('register.xlsx'),
      );
      expect(await history.getByRole('row').nth(1).textContent()).toContain('Selesai');
      await screenshot(page, 'import-history-phone');
      await gone(done);

      // Again, closing the dialog while the job runs: its end is still told, and the list reloads.
      await dialog.getByLabel('Pilih File').setInputFiles({
        name: 'register.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await registerFile(),
      });
      await dialog.getByRole('button', { name: 'Impor Data' }).click();
      await visible(
        dialog.getByRole('progressbar', { name: /Menunggu giliran impor|Mengimpor \d+ dari 2 baris/ }),
      );
      await dialog.getByRole('button', { name: 'Tutup' }).click();
      await gone(dialog);
      await visible(toast(page, 'Impor selesai: 2 baris'));
      await visible(page.getByText(CLIENT).first());

      await page.getByRole('button', { name: 'Impor Excel' }).click();
      const again = await visible(page.getByRole('dialog', { name: /Impor Excel/ }));
      await again.getByRole('combobox', { name: 'Perusahaan' }).selectOption({ label: COMPANY });
      await again.getByLabel('Pilih File').setInputFiles({
        name: 'register.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await registerFile(),
      });
      await again.getByRole('button', { name: 'Periksa File' }).click();
      await eventually(async () =>
        expect(await again.getByRole('status').textContent()).toContain(
          'Skema: 0 baru, 0 diubah, 2 tidak berubah',
        ),
      );
      await again.getByRole('button', { name: 'Tutup' }).click();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
