import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  COMPANY_CERTIFICATION_REPORT_COLUMNS,
  EFFECTIVE_STATUS_LABELS,
  type EffectiveStatus,
  type ReportColumn,
  reportColumns,
  SCHEME_REPORT_COLUMNS,
  TRAINING_REPORT_COLUMNS,
  XLSX_CONTENT_TYPE,
} from '@sertifikasi/shared-contracts';
import { trainingCertificates } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { auth, useTestContext } from '../../../test/helpers';
import { buildReportFixture, FIXTURE_NOW, type ReportFixture } from '../../../test/report-fixtures';
import { createClock } from '../../lib/clock';
import { type SchemeExportRow, schemeReportBatches, schemeReportWhere } from './scheme-report.repository';
import { EXCEL_DATE_FORMAT, ExportAborted, writeReportWorkbook } from './workbook';

const ctx = useTestContext({}, { now: FIXTURE_NOW });
let fx: ReportFixture;

beforeAll(async () => {
  fx = await buildReportFixture(ctx.make);
});
afterEach(() => {
  ctx.app.reportExports.batchSize = undefined;
});

/** The workbook of an export (200), and its file name checked when `fileName` is given. */
async function exportOf(path: string, fileName?: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/${path}`,
    headers: { ...auth(ctx.adminToken), 'accept-encoding': 'br, gzip' },
  });
  expect({ status: res.statusCode, body: res.statusCode === 200 ? '' : res.body }).toEqual({
    status: 200,
    body: '',
  });
  if (fileName) expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
  return { res, workbook };
}

const rowValues = (sheet: ExcelJS.Worksheet, n: number) =>
  (sheet.getRow(n).values as ExcelJS.CellValue[]).slice(1);
const filterSheet = (workbook: ExcelJS.Workbook) => {
  const sheet = workbook.getWorksheet('Filter')!;
  const entries: Record<string, ExcelJS.CellValue> = {};
  sheet.eachRow((row) => {
    entries[row.getCell(1).text] = row.getCell(2).value;
  });
  return entries;
};

describe('type=export', () => {
  it('streams the scheme report as a real workbook: headers, rows, dates, frozen filtered header, Filter sheet', async () => {
    const { res, workbook } = await exportOf(
      'report-company-certification-scheme/ALL?type=export&paginate=20',
      'export-skema-sertifikasi-perusahaan.xlsx',
    );
    expect(res.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    // Already a zip: never compressed again, whatever the client accepts.
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Skema Sertifikasi', 'Filter']);

    const sheet = workbook.getWorksheet('Skema Sertifikasi')!;
    expect(rowValues(sheet, 1)).toEqual([
      'Nama Client',
      'Nomor Sertifikat Client',
      'Nama Perusahaan', // ALL: the company column is there
      'Nama Sertifikasi',
      'Nomor Sertifikasi',
      'Status',
      'Tanggal Terbit',
      'Tanggal Kadaluarsa',
      'Akreditasi',
      // The register data, in the workbook only.
      'Tanggal Terbit Awal',
      'Lingkup',
      'Kode Sektor IAF',
      'Revisi',
      'Kota/Kabupaten',
      'Provinsi',
      'Negara',
    ]);
    expect(sheet.actualRowCount).toBe(1 + 10); // every scheme, no page limit
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    expect(sheet.getColumn(1).width).toBeGreaterThan(20);

    // Newest issue date first: s5 (Alfa's draft of 15 April 2024) heads the list.
    expect(rowValues(sheet, 2).slice(0, 8)).toEqual([
      'PT Abadi',
      'AB-003',
      'PT Alfa Sertifikasi',
      'ISO 9001',
      expect.stringMatching(/^SC-/),
      'DRAFT',
      new Date(Date.UTC(2024, 3, 15)),
      new Date(Date.UTC(2025, 3, 15)),
    ]);
    const issue = sheet.getRow(2).getCell(7);
    expect(issue.value).toBeInstanceOf(Date);
    expect(issue.numFmt).toBe(EXCEL_DATE_FORMAT);
    const expired = sheet.getColumn(8).values.filter((v) => v instanceof Date);
    expect(expired).toHaveLength(10);
    const statuses = sheet.getColumn(6).values.slice(2);
    expect(statuses.filter((v) => v === 'KADALUARSA')).toHaveLength(1); // s2
    expect(statuses).toContain('NOT ACTIVE');
    expect(sheet.getColumn(9).values).toContain('KAN');
    // QMS-0001 (s1): its original issue date, own scope, sector codes as '17, 28', the client's city.
    const s1 = sheet.getColumn(5).values.indexOf('QMS-0001');
    expect(rowValues(sheet, s1).slice(9)).toEqual([
      new Date(Date.UTC(2017, 3, 20)),
      'Fabrikasi baja',
      '17, 28',
      0,
      'Kabupaten Bekasi',
      'Jawa Barat',
      'ID',
    ]);

    expect(filterSheet(workbook)).toMatchObject({
      'Laporan Skema Sertifikasi Perusahaan': null,
      Perusahaan: 'Semua',
      'Cari Data': 'Semua',
      'Pilih Status': 'Semua',
      'Jumlah Data': 10,
    });
    expect(typeof filterSheet(workbook)['Jumlah Data']).toBe('number');
  });

  it('writes the filters used, by name, and leaves out the company column for one company', async () => {
    const { workbook } = await exportOf(
      `report-company-certification-scheme/${fx.company.A}?type=export&status=ACTIVE,EXPIRED` +
        `&certification=${fx.type.t9001}&issue_date=2023-04-01T17:00:00.000Z,2023-12-31`,
    );
    const sheet = workbook.getWorksheet('Skema Sertifikasi')!;
    expect(rowValues(sheet, 1)).not.toContain('Nama Perusahaan');
    expect(sheet.actualRowCount).toBe(1 + 2); // s8, s1
    expect(rowValues(sheet, 2)[0]).toBe('PT Maju');
    expect(filterSheet(workbook)).toMatchObject({
      Perusahaan: 'PT Alfa Sertifikasi',
      'Pilih Status': 'ACTIVE, KADALUARSA',
      'Pilih Sertifikat': 'ISO 9001',
      'Tanggal Terbit': '02/04/2023 - 31/12/2023',
      'Jumlah Data': 2,
    });
  });

  it('exports the company and training reports with their file names and columns', async () => {
    const company = await exportOf(
      `report-company-certification/${fx.company.A}?type=export&accredited=${fx.body.ias}`,
      'export-sertifikasi-perusahaan.xlsx',
    );
    const clients = company.workbook.getWorksheet('Sertifikasi Perusahaan')!;
    expect(rowValues(clients, 1)).toEqual([
      'Nama Client',
      'Nomor Sertifikasi',
      'Kode EA',
      'Kode Nace',
      'Region',
      'Telpon',
      'Handphone',
      'Email',
    ]);
    expect(clients.actualRowCount).toBe(2);
    expect(rowValues(clients, 2).slice(0, 2)).toEqual(['CV Sentosa', 'CS-002']);
    expect(filterSheet(company.workbook)).toMatchObject({
      'Pilih Akreditasi': 'IAS',
      'Pilih Sertifikat': 'Semua',
    });

    const training = await exportOf(
      `report-training-certification/${fx.company.A}?type=export&search=budi`,
      'export-sertifikasi-pelatihan.xlsx',
    );
    const sheet = training.workbook.getWorksheet('Sertifikasi Pelatihan')!;
    expect(rowValues(sheet, 1)).toEqual([
      'Nama Personel',
      'Nomor Sertifikat',
      'Tanggal Sertifikasi',
      'Nama Pelatihan',
      'Lokasi',
    ]);
    expect(sheet.actualRowCount).toBe(3);
    expect(sheet.getRow(2).getCell(3).value).toEqual(new Date(Date.UTC(2024, 3, 15)));
    expect(filterSheet(training.workbook)).toMatchObject({ 'Cari Data': 'budi', 'Jumlah Data': 2 });
  });

  it('exports an empty selection as a workbook with only the header', async () => {
    const { workbook } = await exportOf(
      'report-training-certification/ALL?type=export&search=tidak-ada-siapa-pun',
    );
    expect(workbook.getWorksheet('Sertifikasi Pelatihan')!.actualRowCount).toBe(1);
    expect(filterSheet(workbook)['Jumlah Data']).toBe(0);
  });
});

describe('rows are read in batches, never all at once', () => {
  it('reads by keyset in batches of the app’s reportExports.batchSize, in the report’s order, ties included', async () => {
    const f = ctx.make;
    const E = await f.company('PT Epsilon Serentak');
    const type = await f.certificationType(E, 'ISO 22000');
    const client = await f.client(E, 'PT Serentak');
    for (let i = 0; i < 7; i++)
      await f.scheme({ company: E, client, type, issue_date: '2024-01-02', expired_date: '2027-01-02' });
    await f.scheme({ company: E, client, type, issue_date: '2024-01-03', expired_date: '2027-01-03' });

    ctx.app.reportExports.batchSize = 3;
    const filter = {
      query: {
        search: '',
        status: [],
        client: [],
        certification: [],
        accredited: [],
        issue_date: '',
        expired_date: '',
        type: 'export' as const,
        page: 1,
        paginate: 20 as const,
      },
      scope: [E],
      today: '2024-04-15',
      issue: null,
      expired: null,
    };
    const batches: SchemeExportRow[][] = [];
    for await (const batch of schemeReportBatches(ctx.database.db, filter, schemeReportWhere(filter), 3)) {
      batches.push(batch);
    }
    expect(batches.map((b) => b.length)).toEqual([3, 3, 2]);
    const ids = batches.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(8);
    expect(batches[0]![0]!.issue_date).toBe('2024-01-03');
    const tied = ids.slice(1);
    expect(tied).toEqual([...tied].sort().reverse()); // issue_date desc, then id desc

    // The route streams the same rows, batch by batch.
    const { workbook } = await exportOf(`report-company-certification-scheme/${E}?type=export`);
    expect(workbook.getWorksheet('Skema Sertifikasi')!.actualRowCount).toBe(1 + 8);
  });

  it('writes each report’s rows as its table shows them, in the table’s order, across batches', async () => {
    ctx.app.reportExports.batchSize = 2;
    const reports: [string, string, readonly ReportColumn<string>[]][] = [
      ['report-company-certification', 'Sertifikasi Perusahaan', COMPANY_CERTIFICATION_REPORT_COLUMNS],
      ['report-company-certification-scheme', 'Skema Sertifikasi', SCHEME_REPORT_COLUMNS],
      ['report-training-certification', 'Sertifikasi Pelatihan', TRAINING_REPORT_COLUMNS],
    ];
    for (const [endpoint, sheetName, reportCols] of reports) {
      const table = await ctx.app.inject({
        method: 'GET',
        url: `/api/${endpoint}/ALL?paginate=200`,
        headers: auth(ctx.adminToken),
      });
      const rows = table.json<{ data: Record<string, unknown>[] }>().data;
      const columns = reportColumns(reportCols, { all: true });
      // The fixture gives every column a value somewhere: a column left empty would be noticed.
      expect(columns.filter((c) => rows.every((r) => r[c.key] == null)).map((c) => c.key)).toEqual([]);
      expect(rows.length).toBeGreaterThan(4); // more than two batches

      const { workbook } = await exportOf(`${endpoint}/ALL?type=export`);
      const sheet = workbook.getWorksheet(sheetName)!;
      expect(sheet.actualRowCount).toBe(1 + rows.length);
      const written = rows.map((_, i) => columns.map((_c, j) => sheet.getRow(i + 2).getCell(j + 1).value));
      const shown = rows.map((row) =>
        columns.map((c) => {
          const value = row[c.key];
          if (value == null || value === '') return null;
          if (c.kind === 'date') return new Date(`${value as string}T00:00:00Z`);
          if (c.kind === 'status') return EFFECTIVE_STATUS_LABELS[value as EffectiveStatus];
          return value;
        }),
      );
      expect({ endpoint, written }).toEqual({ endpoint, written: shown });
    }
  });

  it('stops reading when the export is aborted', async () => {
    let read = 0;
    let finished = false;
    async function* endless() {
      try {
        for (;;) {
          // Like a database batch, each one waits for I/O.
          await new Promise((resolve) => setImmediate(resolve));
          read++;
          yield [{ id: String(read) }];
        }
      } finally {
        finished = true;
      }
    }
    const fixedClock = createClock('Asia/Jakarta');
    fixedClock.set(FIXTURE_NOW);
    const aborter = new AbortController();
    const out = new PassThrough();
    out.resume();
    const writing = writeReportWorkbook(
      out,
      {
        sheetName: 'Uji',
        title: 'Uji',
        columns: [{ key: 'id', header: 'Id', kind: 'text', width: 10 }],
        filters: [],
        clock: fixedClock,
      },
      endless(),
      aborter.signal,
    );
    setTimeout(() => aborter.abort(), 20);
    await expect(writing).rejects.toBeInstanceOf(ExportAborted);
    const at = read;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toBe(at);
    expect(finished).toBe(true); // the row source was closed (a query generator's loop ends)
  });

  it('a client that goes away stops the export before its rows are read', async () => {
    const F = await ctx.make.company('PT Zeta Ribuan');
    const values = Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      company_id: F,
      name: `Peserta ${i}`,
      certificate_number: `ZT-${i}`,
      training: 'K3 Umum',
      location: 'Bandung',
      date: '2024-02-01',
    }));
    // Raw: 3000 rows in one insert; 3000 service writes would only slow the test.
    await ctx.database.db.insert(trainingCertificates).values(values);
    ctx.app.reportExports.batchSize = 5; // 600 batches: far more than can run before the socket closes
    const exportStats = ctx.app.reportExports.stats;
    const before = { ...exportStats };
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: `/api/report-training-certification/${F}?type=export`,
      headers: auth(ctx.adminToken),
    });
    req.on('error', () => undefined);
    // Once the export runs (its first bytes are still far off), the client hangs up.
    for (let i = 0; i < 400 && exportStats.running === before.running; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(exportStats.running).toBe(before.running + 1);
    req.destroy();
    for (let i = 0; i < 200 && exportStats.running > before.running; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(exportStats.running).toBe(before.running);
    expect(exportStats.aborted).toBe(before.aborted + 1);
    expect(exportStats.completed).toBe(before.completed);
  });
});
