/**
 * The public check (docs/rules.md#public-check): a certificate's QR code scanned on a phone. The data is made through the API as staff
 * would (a certification body that offers downloads, with its certificate logo and signature, a
 * certification type, an accreditation body, a client and an ACTIVE scheme); then a phone (390 x
 * 844) opens the URL the QR code holds, sees the verdict and the rows on a page that loads only the
 * public-check module and React, switches to Indonesian, and downloads the certificate PDF.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import {
  collectPageErrors,
  launchBrowser,
  newPage,
  PHONE,
  runSuffix,
  screenshot,
  systemUnderTest,
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { makeRegister } from './support/register';
import { apiCaller, day } from './support/api';

const suffix = runSuffix();
const stamp = Date.now().toString(36).toUpperCase();
const CERT_NUMBER = `QMS/E2E/${stamp}`;
const CLIENT = `PT Pindai Kode Nusantara${suffix}`;

let browser: Browser;
let token: string;

const api = apiCaller(() => token);

beforeAll(async () => {
  browser = await launchBrowser();
  const { adminPassword } = systemUnderTest();
  token = String((await api('POST', '/api/login', { username: 'admin', password: adminPassword })).token);
  await makeRegister(api, {
    company: {
      name: `PT Lembaga Sertifikasi QR${suffix} ${stamp}`,
      website: 'https://lsqr.co.id',
      publicDownload: true,
    },
    type: { code: `QMS-${stamp}` },
    accredited: { name: 'Komite Akreditasi Nasional' },
    client: {
      name: CLIENT,
      certificate_number: `KL-${stamp}`,
      region: 'Jawa Barat',
      address: 'Jl. Asia Afrika No. 8, Bandung',
      scope: 'Produksi dan distribusi kopi bubuk',
      ea_code: 'EA 03',
    },
    schemes: [CERT_NUMBER],
    issue_date: day(-10),
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('a QR code scanned on a phone', () => {
  it('shows the truth about the certificate, in either language, and downloads its PDF', async () => {
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    try {
      // What the QR code holds: PUBLIC_BASE_URL/check-certification-company?cert=<number> (docs/rules.md#public-check).
      await page.goto(`/check-certification-company?cert=${encodeURIComponent(CERT_NUMBER)}`);
      await visible(page.getByRole('heading', { level: 1, name: 'Company Certificate Check' }));
      await visible(page.getByText('This certificate is valid.'));
      await expect(page.getByLabel('Certificate Number').inputValue()).resolves.toBe(CERT_NUMBER);
      const row = (label: string) =>
        page.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell');
      await expect(row('Cert No.').textContent()).resolves.toBe(CERT_NUMBER);
      await expect(row('Company').textContent()).resolves.toBe(CLIENT);
      await expect(row('Standard').textContent()).resolves.toBe('ISO 9001:2015');
      await expect(row('Status').textContent()).resolves.toBe('ACTIVE');
      // The date field reads day first in the page's language, whatever the browser's locale:
      // today as dd/mm/yyyy, sent with Enter, answered with the date written out.
      const now = new Date();
      const typed = [now.getDate(), now.getMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/');
      const written = new Intl.DateTimeFormat('en-GB', {
        day: '2-digit',
        month: 'long',
        year: 'numeric',
      }).format(now);
      const onDate = page.getByLabel('Valid on date');
      await onDate.fill(`${typed}/${now.getFullYear()}`);
      await onDate.press('Enter');
      await visible(page.getByText(`On ${written} this certificate was valid.`));

      // A phone-sized page: nothing scrolls sideways.
      await expectNoSidewaysScroll(page);
      // Only the public-check module's own page and React: never the shell, MUI or staff code.
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((s) => !s.startsWith('/modules/mf-public-check/page/'))).toEqual([]);
      await screenshot(page, 'public-check-phone-en');

      await page.getByRole('button', { name: 'Bahasa Indonesia' }).tap();
      await visible(page.getByRole('heading', { level: 1, name: 'Cek Sertifikat Perusahaan' }));
      await visible(page.getByText('Sertifikat ini berlaku.', { exact: true }));
      await expect(row('Perusahaan').textContent()).resolves.toBe(CLIENT);
      await expect(row('Status').textContent()).resolves.toBe('AKTIF');
      await screenshot(page, 'public-check-phone-id');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Unduh Sertifikat' }).tap(),
      ]);
      expect(download.suggestedFilename()).toBe(
        `CERT. NO. ${CERT_NUMBER.replaceAll('/', '_')} ${CLIENT}.pdf`,
      );
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-cert-'));
      try {
        const file = path.join(dir, 'cert.pdf');
        await download.saveAs(file);
        expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
        // Debian's poppler-utils (.ci/run installs it when missing) reads the PDF as a reader would.
        const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
        expect(text).toContain(CERT_NUMBER);
        expect(text).toContain(CLIENT);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }

      // The choice of language is remembered: the company page now opens in Indonesian.
      await page.goto('/check-certification-company');
      await visible(page.getByRole('heading', { level: 1, name: 'Cek Sertifikat Perusahaan' }));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
