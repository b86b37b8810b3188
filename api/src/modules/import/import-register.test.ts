import ExcelJS from 'exceljs';
import { IMPORT_MESSAGES } from '@sertifikasi/shared-contracts';
import { auth, call, useTestContext } from '../../../test/helpers';
import { formBody } from '../../../test/forms';
import { workbookOf } from '../../../test/workbook';
import { applyImport, SCHEME_COLUMNS } from '../../../test/import-job';

const ctx = useTestContext();
let alfa: string;

beforeAll(async () => {
  alfa = await ctx.make.company('PT Alfa Register');
  await ctx.make.certificationType(alfa, 'ISO 9001');
});

const HEADER = [
  'Nomor Sertifikat Klien',
  'Nama Klien',
  'Region',
  'Nama (Inggris)',
  'Kota/Kabupaten',
  'Provinsi',
  'Kode Pos',
  'Negara',
  ...SCHEME_COLUMNS,
  'Tanggal Terbit Awal',
  'Lingkup',
  'Kode Sektor IAF',
];
const client = [
  'RG-1',
  'PT Register Satu',
  'Jawa Barat',
  'Register One Ltd',
  'Kota Bandung',
  'Jawa Barat',
  '40111',
];
const scheme = (number: string) => [number, 'ISO 9001', 'ACTIVE', '2025-01-10', 3, 'TAHUN'];

async function xlsx(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(HEADER);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function check(file: Buffer) {
  const { payload, headers } = await formBody({
    file: {
      data: file,
      filename: 'data.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    },
  });
  return ctx.app.inject({
    method: 'POST',
    url: `/api/import/company-certificate/${alfa}?mode=check`,
    payload,
    headers: { ...headers, ...auth(ctx.adminToken) },
  });
}

interface Detail {
  id: string;
  name_en: string | null;
  city: string | null;
  postcode: string | null;
  country: string;
  schema: {
    id: string;
    cert_number: string;
    sector_codes: number[];
    scope: string | null;
    original_issue_date: string | null;
    sites: unknown[];
    revision: number;
  }[];
}
async function detailOf(number: string): Promise<Detail> {
  const list = await call(
    ctx.app,
    ctx.adminToken,
    'GET',
    `/api/company-certificate?company_id=${alfa}&search=${number}`,
  );
  const id = list.json<{ data: { id: string }[] }>().data[0]!.id;
  return (await call(ctx.app, ctx.adminToken, 'GET', `/api/company-certificate/ALL/${id}`)).json<Detail>();
}

describe('import of the register data', () => {
  it('the template holds the new columns', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/import/company-certificate/template');
    const workbook = await workbookOf(res, 'template-impor-sertifikasi-perusahaan.xlsx');
    const header = (workbook.worksheets[0]!.getRow(1).values as unknown[]).filter(Boolean);
    expect(header).toEqual(
      expect.arrayContaining([
        'Nama (Inggris)',
        'Kota/Kabupaten',
        'Provinsi',
        'Kode Pos',
        'Negara',
        'Tanggal Terbit Awal',
        'Lingkup',
        'Kode Sektor IAF',
      ]),
    );
  });

  it('writes the address, the original issue date, the scope and the sector codes read from text', async () => {
    const job = await applyImport(
      ctx.app,
      ctx.adminToken,
      'company-certificate',
      alfa,
      await xlsx([[...client, 'my', ...scheme('RG-S1'), '2015-06-01', 'Produksi roti', 'EA 33; 28']]),
    );
    expect(job.state).toBe('done');
    const detail = await detailOf('RG-1');
    expect(detail).toMatchObject({
      name_en: 'Register One Ltd',
      city: 'Kota Bandung',
      postcode: '40111',
      country: 'MY',
    });
    expect(detail.schema[0]).toMatchObject({
      cert_number: 'RG-S1',
      original_issue_date: '2015-06-01',
      scope: 'Produksi roti',
      sector_codes: [28, 33],
      revision: 0,
    });
  });

  it('an import of the same scheme keeps the sites it covers; a change of its codes is a new revision', async () => {
    const detail = await detailOf('RG-1');
    const site = await ctx.make.site(detail.id, 'Pabrik Roti');
    const stored = detail.schema[0]!;
    const current = (
      await call(ctx.app, ctx.adminToken, 'GET', `/api/company-certificate/ALL/${detail.id}`)
    ).json<Detail>().schema[0]!;
    expect(current.revision).toBe(0);
    // Cover the site through the form's save, then import the row again with other codes.
    const put = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company-certificate-scheme/${stored.id}`, {
      certificate_id: detail.id,
      certification_id: (current as unknown as { certification_id: string }).certification_id,
      cert_number: 'RG-S1',
      status: 'ACTIVE',
      issue_date: '2025-01-10',
      valid_for: 3,
      valid_for_type: 'YEAR',
      is_accredited: 'false',
      original_issue_date: '2015-06-01',
      scope: 'Produksi roti',
      sector_codes: [28, 33],
      sites: [{ site_id: site, scope: 'Dapur' }],
    });
    expect([put.statusCode, put.json<{ revision: number }>().revision]).toEqual([200, 1]);
    await applyImport(
      ctx.app,
      ctx.adminToken,
      'company-certificate',
      alfa,
      await xlsx([[...client, 'MY', ...scheme('RG-S1'), '2015-06-01', 'Produksi roti', '3']]),
    );
    const after = (await detailOf('RG-1')).schema[0]!;
    expect(after).toMatchObject({
      sector_codes: [3],
      sites: [{ site_id: site, scope: 'Dapur' }],
      revision: 2,
    });
  });

  it('refuses sector codes that do not read as 1-39, and a country that is not one', async () => {
    const res = await check(await xlsx([[...client, 'XX', ...scheme('RG-S2'), null, null, 'abc']]));
    expect(res.statusCode).toBe(422);
    const rows = res.json<{ rows: { row: number; column: string; message: string }[] }>().rows;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 2, column: 'Kode Sektor IAF', message: IMPORT_MESSAGES.sectors }),
        expect.objectContaining({ row: 2, column: 'Negara', message: 'Negara tidak valid' }),
      ]),
    );
  });
});
