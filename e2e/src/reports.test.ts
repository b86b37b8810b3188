/**
 * Scenario: a manager's morning. A system of its own, filled by the demo command (`npm run
 * demo --workspace api`, as README says), is signed in to as the demo's manager ('manajer': dashboard
 * and reports, two companies):
 * a. the dashboard shows what the data holds: the four totals, a bar per status at its share, the
 *    certificates expiring this month with Detail links, both charts drawn (and redrawn from the
 *    settings modal); cross-checked against the reports' own counts;
 * b. the scheme report filtered by status KADALUARSA and an expiry range typed in the date picker,
 *    then exported: the workbook is downloaded and opened with exceljs's reader (headers, one row per
 *    scheme found, statuses, the expiry a real date cell);
 * c. both screens on a phone (390 px): nothing scrolls sideways but the table's own box.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  EFFECTIVE_STATUS_LABELS,
  REPORTS,
  reportColumns,
  SCHEME_REPORT_COLUMNS,
  type DashboardTotals,
  type ListResponse,
  type SchemeReportRow,
} from '@sertifikasi/shared-contracts';
import {
  collectPageErrors,
  eventually,
  launchBrowser,
  openFromMenu,
  PHONE,
  screenshot,
  signIn,
  visible,
  WAIT,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { REPO_ROOT, type RunningSystem, startSystem, stopSystem } from './support/system';

/** The demo users' password (DEMO_PASSWORD). */
const DEMO_PASSWORD = `Demo-e2e-${Date.now().toString(36)}`;
const MANAGER = 'manajer';
const COMPANY_CHART = 'Grafik Sertifikasi Perusahaan';
const TRAINING_CHART = 'Grafik Sertifikasi Pelatihan';

let browser: Browser;
let demo: RunningSystem;
let downloads: string;

const idNumber = (n: number) => new Intl.NumberFormat('id-ID').format(n);

beforeAll(async () => {
  browser = await launchBrowser();
  downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-e2e-xlsx-'));
  process.stdout.write('e2e reports: a second system with the demo data set ...\n');
  demo = await startSystem(`e2e-Admin-${Date.now().toString(36)}`, 10 * 60_000, (env) => {
    execFileSync('npm', ['run', 'demo', '--workspace', 'api'], {
      cwd: REPO_ROOT,
      env: { ...env, DEMO_PASSWORD },
      stdio: 'pipe',
      timeout: 10 * 60_000,
    });
  });
}, 20 * 60_000);

afterAll(async () => {
  await browser?.close();
  if (demo) await stopSystem(demo);
  if (downloads) fs.rmSync(downloads, { recursive: true, force: true });
});

async function demoPage(device?: typeof PHONE): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: demo.baseUrl,
    locale: 'id-ID',
    acceptDownloads: true,
    ...(device ?? { viewport: { width: 1366, height: 900 } }),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  return { context, page };
}

/** The signed-in page's token and header company (once user-info has settled it). */
async function session(page: Page): Promise<{ token: string; companyId: string }> {
  let found: { token: string; companyId: string } | null = null;
  await eventually(async () => {
    const [token, companyId] = await page.evaluate(() => [
      localStorage.getItem('sertifikasi.token'),
      localStorage.getItem('sertifikasi.company_id'),
    ]);
    expect(token && companyId).toBeTruthy();
    found = { token: token!, companyId: companyId! };
  });
  return found!;
}

async function apiGet<T>(token: string, apiPath: string, params: Record<string, string> = {}): Promise<T> {
  const url = new URL(`/api/${apiPath}`, demo.baseUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${url.pathname} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Today in the deployment's time zone (the demo's dates are relative to it). */
function todayInJakarta(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: process.env.TZ || 'Asia/Jakarta' }).format(new Date());
}

describe("a manager's dashboard and reports on the demo data", () => {
  it('a. the dashboard shows what the data holds, and its charts redraw from their settings', async () => {
    const { context, page } = await demoPage();
    const errors = collectPageErrors(page);
    try {
      await signIn(page, MANAGER, DEMO_PASSWORD);
      const { token, companyId } = await session(page);
      const totals = await apiGet<DashboardTotals>(token, `dashboard-total/${companyId}`);
      const main = page.getByRole('main');

      // The four cards.
      const cards: [string, number][] = [
        ['Perusahaan Tersertifikasi', totals.company_certificate],
        ['Sertifikasi Perusahaan', totals.company_certificate_total],
        ['Personel Tersertifikasi', totals.training_certificate],
        ['Sertifikasi Pelatihan', totals.training_certificate_total],
      ];
      for (const [label, value] of cards) {
        const card = main.getByRole('group', { name: label, exact: true });
        await eventually(async () => expect(await card.textContent()).toContain(idNumber(value)));
      }
      expect(totals.company_certificate_total).toBeGreaterThan(0);

      // The demo has every status; each bar is its share of all schemes.
      for (const { status, total } of totals.company_certificate_scheme_bystatus) {
        const bar = main.getByRole('progressbar', { name: EFFECTIVE_STATUS_LABELS[status], exact: true });
        expect(await bar.getAttribute('aria-valuenow')).toBe(
          String((total / totals.company_certificate_total) * 100),
        );
      }
      // Cross-checks with the reports' own counts: every scheme, the expired ones, every training.
      const schemes = await apiGet<ListResponse<SchemeReportRow>>(
        token,
        `${REPORTS.scheme.endpoint}/${companyId}`,
        { type: 'table' },
      );
      expect(schemes.total).toBe(totals.company_certificate_total);
      const expired = await apiGet<ListResponse<SchemeReportRow>>(
        token,
        `${REPORTS.scheme.endpoint}/${companyId}`,
        { type: 'table', status: 'EXPIRED' },
      );
      expect(expired.total).toBe(
        totals.company_certificate_scheme_bystatus.find((s) => s.status === 'EXPIRED')?.total,
      );
      const trainings = await apiGet<ListResponse<unknown>>(
        token,
        `${REPORTS.training.endpoint}/${companyId}`,
        {
          type: 'table',
        },
      );
      expect(trainings.total).toBe(totals.training_certificate_total);

      // This month's expiring certificates (the demo makes some), each with Detail to its client.
      const expiring = main.getByRole('list', { name: 'Sertifikat Kadaluarsa Bulan Ini' });
      const items = expiring.getByRole('listitem');
      await eventually(async () =>
        expect(await items.count()).toBe(totals.company_certificate_expired_in_amonth.length),
      );
      expect(totals.company_certificate_expired_in_amonth.length).toBeGreaterThan(0);
      const first = totals.company_certificate_expired_in_amonth[0]!;
      expect(await items.first().textContent()).toContain(first.profile.name);
      expect(await items.first().getByRole('link', { name: 'Detail' }).getAttribute('href')).toBe(
        `/company-certificate/${first.profile.id}`,
      );

      // Both charts are drawn by apexcharts once their data is in.
      for (const name of [COMPANY_CHART, TRAINING_CHART]) {
        await visible(main.getByRole('img', { name }).locator('svg').first());
      }
      await screenshot(page, 'r1-dashboard');

      // The company chart's settings: the last 6 months per month, two statuses.
      await main.getByRole('button', { name: `Atur ${COMPANY_CHART}` }).click();
      const dialog = await visible(page.getByRole('dialog', { name: `Pengaturan ${COMPANY_CHART}` }));
      await dialog.getByRole('combobox', { name: 'Periode' }).selectOption({ label: '6 bulan terakhir' });
      await dialog.getByRole('radio', { name: 'Bulanan' }).check();
      for (const status of ['WITHDRAWN', 'NOT ACTIVE']) {
        // The chip's delete icon.
        await dialog.getByRole('button', { name: status, exact: true }).locator('svg').click();
      }
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/grafic-certification-company/')),
        dialog.getByRole('button', { name: 'Terapkan' }).click(),
      ]);
      const asked = new URL(answer.url()).searchParams;
      expect(Object.fromEntries(asked)).toEqual({
        date_type: '6m',
        chart: 'MONTH',
        status: 'ACTIVE,SUSPENDED',
      });
      const rows = (await answer.json()) as { date: string; total: number }[];
      expect(rows.length).toBeGreaterThanOrEqual(6);
      expect(rows.at(-1)!.date).toBe(todayInJakarta().slice(0, 7));
      await visible(main.getByText('6 bulan terakhir · Bulanan'));
      await visible(main.getByRole('img', { name: COMPANY_CHART }).locator('svg').first());
      expect(await page.getByRole('dialog').count()).toBe(0);
      await screenshot(page, 'r2-dashboard-chart-settings');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('b. the scheme report filtered by status and expiry, exported and opened as a workbook', async () => {
    const { context, page } = await demoPage();
    const errors = collectPageErrors(page);
    try {
      await signIn(page, MANAGER, DEMO_PASSWORD);
      const { token, companyId } = await session(page);
      const totals = await apiGet<DashboardTotals>(token, `dashboard-total/${companyId}`);
      const expiredCount = totals.company_certificate_scheme_bystatus.find(
        (s) => s.status === 'EXPIRED',
      )!.total;
      expect(expiredCount).toBeGreaterThan(0);

      await openFromMenu(
        page,
        'Laporan',
        'Laporan Skema Sertifikasi Perusahaan',
        '/report-company-certificate-scheme',
      );
      const main = page.getByRole('main');
      await visible(main.getByRole('heading', { name: REPORTS.scheme.title }));
      await visible(main.getByRole('table').getByRole('row').nth(1));

      // KADALUARSA, and an expiry up to today typed as dd/MM/yyyy in the Indonesian picker.
      await main.getByRole('combobox', { name: 'Pilih Status' }).click();
      await page.getByRole('option', { name: 'KADALUARSA' }).click();
      await page.keyboard.press('Escape');
      const [y, m, d] = todayInJakarta().split('-') as [string, string, string];
      const until = main.getByRole('group', { name: 'Tanggal Kadaluarsa sampai' });
      await until.getByRole('spinbutton').first().click();
      await page.keyboard.type(`${d}${m}${y}`, { delay: 30 });
      expect(await until.textContent()).toContain(`${d}/${m}/${y}`);

      const [searched] = await Promise.all([
        page.waitForResponse(
          (r) => r.url().includes(`/api/${REPORTS.scheme.endpoint}/`) && r.url().includes('type=table'),
        ),
        main.getByRole('button', { name: 'Cari Data' }).click(),
      ]);
      const query = new URL(searched.url()).searchParams;
      expect(query.get('status')).toBe('EXPIRED');
      // The end of the range is the chosen day's midnight in the browser, as an ISO timestamp.
      expect(query.get('expired_date')).toMatch(/^,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const found = (await searched.json()) as ListResponse<SchemeReportRow>;
      expect(found.total).toBe(expiredCount);

      const headers = await main.getByRole('table').getByRole('columnheader').allTextContents();
      const statusColumn = headers.indexOf('Status');
      const bodyRows = main.getByRole('table').getByRole('row');
      await eventually(async () => expect(await bodyRows.count()).toBe(Math.min(20, expiredCount) + 1));
      for (const row of (await bodyRows.all()).slice(1)) {
        expect(await row.getByRole('cell').nth(statusColumn).textContent()).toBe('KADALUARSA');
      }
      await visible(
        main.getByText(
          `Menampilkan 1 - ${idNumber(Math.min(20, expiredCount))} dari ${idNumber(expiredCount)} data`,
        ),
      );
      await screenshot(page, 'r3-scheme-report-filtered');

      // Export Excel: the same filters, saved under the spec's name.
      const [download, exported] = await Promise.all([
        page.waitForEvent('download'),
        page.waitForRequest((r) => r.url().includes('type=export')),
        main.getByRole('button', { name: 'Export Excel' }).click(),
      ]);
      expect(new URL(exported.url()).searchParams.get('status')).toBe('EXPIRED');
      expect(download.suggestedFilename()).toBe(REPORTS.scheme.fileName);
      const file = path.join(downloads, download.suggestedFilename());
      await download.saveAs(file);
      await visible(page.getByRole('alert').filter({ hasText: 'File Excel berhasil diunduh' }));

      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(file);
      const sheet = workbook.getWorksheet(REPORTS.scheme.sheetName);
      expect(sheet).toBeDefined();
      const columns = reportColumns(SCHEME_REPORT_COLUMNS, { all: false });
      const headerRow = sheet!.getRow(1);
      expect(columns.map((_, i) => headerRow.getCell(i + 1).value)).toEqual(columns.map((c) => c.header));
      const dataRows: ExcelJS.Row[] = [];
      sheet!.eachRow((row, n) => {
        if (n > 1) dataRows.push(row);
      });
      expect(dataRows).toHaveLength(expiredCount);
      const col = (key: string) => columns.findIndex((c) => c.key === key) + 1;
      const today = todayInJakarta();
      for (const row of dataRows) {
        expect(row.getCell(col('effective_status')).value).toBe('KADALUARSA');
        const expiry = row.getCell(col('expired_date'));
        expect(expiry.type).toBe(ExcelJS.ValueType.Date);
        expect(expiry.value).toBeInstanceOf(Date);
        expect((expiry.value as Date).toISOString().slice(0, 10) < today).toBe(true);
      }
      // The first row is the newest issue date, as on the screen.
      expect(dataRows[0]!.getCell(col('cert_number')).value).toBe(found.data[0]!.cert_number);
      expect(workbook.getWorksheet('Filter')).toBeDefined();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('c. on a phone (390 px) the dashboard and a report never scroll sideways', async () => {
    const { context, page } = await demoPage(PHONE);
    try {
      await signIn(page, MANAGER, DEMO_PASSWORD);
      const main = page.getByRole('main');
      await visible(main.getByRole('img', { name: COMPANY_CHART }).locator('svg').first());
      await visible(main.getByRole('list', { name: 'Sertifikat Kadaluarsa Bulan Ini' }));
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'r4-phone-dashboard');

      await page.goto('/report-company-certificate-scheme');
      await visible(main.getByRole('table').getByRole('row').nth(1));
      await expectNoSidewaysScroll(page);
      // The table is wider than the phone: it scrolls in its own box, which says so.
      await visible(main.getByText('Geser untuk melihat kolom lain'));
      await screenshot(page, 'r5-phone-scheme-report');
    } finally {
      await context.close();
    }
  });
});
