// Long file: both kinds of import, their jobs, after-write steps and bad files share one set-up (companies, types, users of each import permission) and the xlsx builders.
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { workbookOf } from '../../../test/workbook';
import { IMPORT_MESSAGES } from '@sertifikasi/shared-contracts';
import {
  auditLog,
  importJobs,
  schemeCycleDue,
  schemeCycleDueCounts,
  schemes,
  webhookDeliveries,
} from '../../db/schema';
import { queueWebhookEvents } from '../../notify/webhooks';
import type { ServiceContext } from '../../services/context';
import { cycleDueStep } from '../../services/cycle-due';
import { auth, call, createTestContext, type TestContext } from '../../../test/helpers';
import { formBody } from '../../../test/forms';
import { applyImport, followImportJob, SCHEME_COLUMNS } from '../../../test/import-job';
import { IMPORT_TASK } from './import.job';

let ctx: TestContext;
let alfa: string;
let beta: string;
let creator: { id: string; token: string };
let editor: { id: string; token: string };
let outsider: { id: string; token: string };

const BASE = 'https://cek.sertifikasi.example.id';

beforeAll(async () => {
  // Chunks of two rows: every apply here runs in several transactions.
  ctx = await createTestContext({ PUBLIC_BASE_URL: BASE, IMPORT_CHUNK_ROWS: '2' });
  const make = ctx.make;
  alfa = await make.company('PT Alfa Impor');
  beta = await make.company('PT Beta Impor');
  await make.certificationType(alfa, 'ISO 9001');
  await make.certificationType(alfa, 'ISO 14001');
  await make.certificationType(beta, 'ISO 9001');
  await make.accreditationBody(alfa, 'KAN');
  const read = ['company-certificate', 'training-certificate'];
  const create = [...read, 'company-certificate:create', 'training-certificate:create'];
  const edit = ['company-certificate:edit', 'training-certificate:edit'];
  creator = await make.user({ username: 'impor.tambah', keys: create, company_ids: [alfa] });
  editor = await make.user({ username: 'impor.ubah', keys: [...create, ...edit], company_ids: [alfa] });
  outsider = await make.user({ username: 'impor.baca', keys: read, company_ids: 'ALL' });
});
afterAll(async () => ctx.close());

type Cell = ExcelJS.CellValue;

/** An xlsx with `header` and `rows` on its first sheet, written by exceljs. */
async function xlsx(header: string[], rows: Cell[][], dateColumns: number[] = []): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  for (const c of dateColumns) sheet.getColumn(c).numFmt = 'dd/mm/yyyy';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function send(
  kind: string,
  company: string,
  mode: string,
  file: Buffer | null,
  token = ctx.adminToken,
) {
  const { payload, headers } = await formBody(
    file
      ? {
          // Only the file part, as `curl -F file=@data.xlsx` sends it: its own name is what
          // 'Riwayat Impor' shows.
          file: {
            data: file,
            filename: 'data.xlsx',
            type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          },
        }
      : { other: 'x' },
  );
  return ctx.app.inject({
    method: 'POST',
    url: `/api/import/${kind}/${company}?mode=${mode}`,
    payload,
    headers: { ...headers, ...auth(token) },
  });
}

interface JobBody {
  id: string;
  state: string;
  done: number;
  total: number;
  result: Record<string, unknown> | null;
  error: { code: string; message: string; rows?: unknown[] } | null;
}

/** Follows a job until it ends (done or failed), as the dialog does. */
const follow = (id: string, token = ctx.adminToken) =>
  followImportJob(ctx.app, token, id) as Promise<unknown> as Promise<JobBody>;

/** Applies a valid file: 202 with the job and its Location at once, then the job followed to its end. */
const applied = (kind: string, company: string, file: Buffer, token = ctx.adminToken) =>
  applyImport(ctx.app, token, kind, company, file) as Promise<unknown> as Promise<JobBody>;

const HEADER = [
  'Nomor Sertifikat Klien',
  'Nama Klien',
  'Region',
  'Email',
  'Jumlah Karyawan',
  ...SCHEME_COLUMNS,
  'Akreditasi',
];
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));

interface ClientBody {
  id: string;
  name: string;
  certificate_number: string;
  region: string;
  email: string | null;
  employees_number: number | null;
  address: string | null;
  schema: {
    id: string;
    cert_number: string;
    status: string;
    expired_date: string;
    issue_date: string;
    is_accredited: string;
    cert_name: string;
  }[];
}

async function clients(company: string) {
  const res = await call(
    ctx.app,
    ctx.adminToken,
    'GET',
    `/api/company-certificate?company_id=${company}&paginate=200`,
  );
  return res.json<{ data: ClientBody[]; total: number }>();
}
async function detail(company: string, number: string): Promise<ClientBody> {
  const found = (await clients(company)).data.find((c) => c.certificate_number === number)!;
  const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/company-certificate/${company}/${found.id}`);
  return res.json<ClientBody>();
}
const auditCount = async () => (await ctx.database.db.select().from(auditLog)).length;

describe('GET /api/import/{kind}/template', () => {
  it('answers the header row and a Petunjuk sheet explaining each column', async () => {
    const res = await call(ctx.app, creator.token, 'GET', '/api/import/company-certificate/template');
    const workbook = await workbookOf(res, 'template-impor-sertifikasi-perusahaan.xlsx');
    const data = workbook.worksheets[0]!;
    expect((data.getRow(1).values as string[]).slice(1, 4)).toEqual([
      'Nomor Sertifikat Klien',
      'Nama Klien',
      'Region',
    ]);
    expect(data.getRow(1).cellCount).toBe(36);
    const help = workbook.getWorksheet('Petunjuk')!;
    const rows = Array.from({ length: help.rowCount }, (_, i) => help.getRow(i + 1).values as string[]);
    expect(rows.find((r) => r[1] === 'Nama Klien')).toEqual([
      undefined,
      'Nama Klien',
      'Wajib',
      expect.stringContaining('maksimal 200 karakter'),
    ]);
    expect(rows.find((r) => r[1] === 'Status')?.[3]).toContain('NOT ACTIVE');
    expect(rows.find((r) => r[1] === 'Tanggal Terbit')?.[3]).toContain('dd/mm/yyyy');
  });

  it('names the training template; needs the create permission and a sign-in', async () => {
    const res = await call(ctx.app, creator.token, 'GET', '/api/import/training-certificate/template');
    expect(res.headers['content-disposition']).toContain('template-impor-sertifikasi-pelatihan.xlsx');
    expect(
      (await call(ctx.app, outsider.token, 'GET', '/api/import/training-certificate/template')).statusCode,
    ).toBe(403);
    expect((await call(ctx.app, null, 'GET', '/api/import/training-certificate/template')).statusCode).toBe(
      401,
    );
  });
});

describe('company-certificate import', () => {
  const valid = () =>
    xlsx(
      HEADER,
      [
        [
          'KL-001',
          'PT Satu',
          'Jakarta',
          'info@satu.co.id',
          120,
          'SK-001',
          'ISO 9001',
          'ACTIVE',
          utc(2024, 1, 31),
          1,
          'BULAN',
          'KAN',
        ],
        [
          'KL-001',
          'PT Satu',
          'Jakarta',
          'info@satu.co.id',
          120,
          'SK-002',
          'iso 14001',
          'not active',
          '15/02/2024',
          3,
          'TAHUN',
          '',
        ],
        ['KL-002', '=SUM(A1)', 'Bandung', null, '45', null, null, null, null, null, null, null],
        [
          'KL-003',
          'PT Tiga',
          'Surabaya',
          null,
          null,
          'SK-003',
          'ISO 9001',
          'DRAFT',
          '3 Maret 2025',
          30,
          'DAY',
          null,
        ],
      ],
      [9],
    );

  it('check answers the counts and writes nothing', async () => {
    const before = await auditCount();
    const res = await send('company-certificate', alfa, 'check', await valid());
    expect([res.statusCode, res.json()]).toEqual([
      200,
      {
        mode: 'check',
        rows: 4,
        created: { clients: 3, schemes: 3 },
        updated: { clients: 0, schemes: 0 },
        unchanged: { clients: 0, schemes: 0 },
      },
    ]);
    expect((await clients(alfa)).total).toBe(0);
    expect(await auditCount()).toBe(before);
  });

  it('apply creates clients and schemes through the services, audited with source import', async () => {
    const job = await applied('company-certificate', alfa, await valid(), editor.token);
    expect(job).toMatchObject({ state: 'done', done: 4, total: 4, error: null });
    expect(job.result).toMatchObject({ mode: 'apply', created: { clients: 3, schemes: 3 } });
    const one = await detail(alfa, 'KL-001');
    expect([one.name, one.email, one.employees_number]).toEqual(['PT Satu', 'info@satu.co.id', 120]);
    const byNumber = Object.fromEntries(one.schema.map((s) => [s.cert_number, s]));
    // Expiry computed as on the form: a month after 31 January is 29 February (2024).
    expect(byNumber['SK-001']).toMatchObject({
      issue_date: '2024-01-31',
      expired_date: '2024-02-29',
      status: 'ACTIVE',
      is_accredited: 'true',
    });
    expect(byNumber['SK-002']).toMatchObject({
      issue_date: '2024-02-15',
      expired_date: '2027-02-15',
      status: 'NOACTIVE',
      cert_name: 'ISO 14001',
      is_accredited: 'false',
    });
    // Text starting with '=' is stored as text.
    const two = await detail(alfa, 'KL-002');
    expect([two.name, two.employees_number, two.schema]).toEqual(['=SUM(A1)', 45, []]);
    expect((await detail(alfa, 'KL-003')).schema[0]).toMatchObject({
      issue_date: '2025-03-03',
      expired_date: '2025-04-02',
    });
    // Without the set-up's records (the company, its types and body): the import writes clients and schemes.
    const rows = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.company_id, alfa))).filter(
      (r) => !['company', 'certification', 'accredited'].includes(r.entity),
    );
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => `${r.source}/${r.actor_username}`))).toEqual(
      new Set(['import/impor.ubah']),
    );
  });

  it('the same file again changes nothing', async () => {
    const before = await auditCount();
    const job = await applied('company-certificate', alfa, await valid(), creator.token);
    expect(job.result).toEqual({
      mode: 'apply',
      rows: 4,
      created: { clients: 0, schemes: 0 },
      updated: { clients: 0, schemes: 0 },
      unchanged: { clients: 3, schemes: 3 },
    });
    expect(await auditCount()).toBe(before);
  });

  it('an update file touches only its columns; a status change enters the history; :edit needed', async () => {
    const file = await xlsx(
      ['nomor sertifikat klien', ' NAMA KLIEN ', 'Region', 'Nomor Sertifikat', 'Status'],
      [
        ['kl-001', 'PT Satu Baru', 'Jakarta', 'sk-001', 'SUSPENDED'],
        ['KL-002', '=SUM(A1)', 'Bandung', null, null],
      ],
    );
    const refused = await send('company-certificate', alfa, 'apply', file, creator.token);
    expect([refused.statusCode, refused.json().message]).toEqual([403, IMPORT_MESSAGES.needsEdit]);
    expect((await detail(alfa, 'KL-001')).name).toBe('PT Satu');

    const job = await applied('company-certificate', alfa, file, editor.token);
    expect(job.result).toMatchObject({
      updated: { clients: 1, schemes: 1 },
      unchanged: { clients: 1, schemes: 0 },
      created: { clients: 0, schemes: 0 },
    });
    const one = await detail(alfa, 'KL-001');
    expect([one.name, one.email, one.employees_number]).toEqual(['PT Satu Baru', 'info@satu.co.id', 120]);
    const scheme = one.schema.find((s) => s.cert_number.toLowerCase() === 'sk-001')!;
    expect([scheme.status, scheme.expired_date, scheme.is_accredited]).toEqual([
      'SUSPENDED',
      '2024-02-29',
      'true',
    ]);
    const history = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/company-certificate-scheme/${scheme.id}/history`,
    );
    expect(history.json<{ from: string | null; to: string; by: string }[]>()[0]).toMatchObject({
      from: 'ACTIVE',
      to: 'SUSPENDED',
      by: 'impor.ubah',
    });
  });

  it('reports every invalid cell with its row, column, value and message; writes nothing', async () => {
    await ctx.make.certificationType(beta, 'ISO 45001');
    /** The scheme columns of Beta's scheme: a number another company holds once it is applied. */
    const BETA_SCHEME: Cell[] = ['SK-BETA', 'ISO 9001', 'ACTIVE', '01/01/2024', 1, 'YEAR'];
    const other = await xlsx(HEADER, [['KB-1', 'PT Beta Klien', 'Medan', null, null, ...BETA_SCHEME, null]]);
    // Shown whole when it fails: the answer names what was refused.
    expect((await applied('company-certificate', beta, other)).result).toMatchObject({
      mode: 'apply',
      created: { clients: 1, schemes: 1 },
    });
    const before = await auditCount();
    const file = await xlsx(HEADER, [
      [
        'KL-100',
        'x'.repeat(201),
        'Jakarta',
        'bukan-email',
        'dua',
        'SK-100',
        'ISO 27001',
        'AKTIF',
        '02/30/2024',
        0,
        'MINGGU',
        'KAN',
      ],
      ['KL-101', 'PT\tKontrol', 'Bogor', null, null, ...BETA_SCHEME, 'Tidak Ada'],
      [
        'KL-101',
        'PT Lain',
        'Bogor',
        null,
        null,
        'SK-100',
        'ISO 9001',
        'ACTIVE',
        { formula: 'TODAY()' },
        1,
        'YEAR',
        null,
      ],
      [
        'KL-003',
        'PT Tiga',
        'Surabaya',
        null,
        null,
        'SK-001',
        'ISO 9001',
        'ACTIVE',
        '01/01/2024',
        1,
        'YEAR',
        null,
      ],
      ['', 'PT Tanpa Nomor', '', null, null, null, null, null, null, null, null, null],
    ]);
    for (const mode of ['check', 'apply']) {
      const res = await send('company-certificate', alfa, mode, file);
      expect(res.statusCode).toBe(422);
      const body = res.json<{
        code: string;
        rows: { row: number; column: string; value: string; message: string }[];
      }>();
      expect(body.code).toBe('validation');
      expect(body.rows).toEqual([
        { row: 2, column: 'Nama Klien', value: 'x'.repeat(201), message: 'Nama Klien maksimal 200 karakter' },
        {
          row: 2,
          column: 'Email',
          value: 'bukan-email',
          message: 'Email harus berupa alamat email yang valid',
        },
        { row: 2, column: 'Jumlah Karyawan', value: 'dua', message: 'Jumlah Karyawan harus berupa angka' },
        { row: 2, column: 'Sertifikat', value: 'ISO 27001', message: IMPORT_MESSAGES.typeNotFound },
        { row: 2, column: 'Status', value: 'AKTIF', message: 'Status tidak valid' },
        {
          row: 2,
          column: 'Tanggal Terbit',
          value: '02/30/2024',
          message: IMPORT_MESSAGES.date('Tanggal Terbit'),
        },
        { row: 2, column: 'Masa Berlaku', value: '0', message: 'Masa Berlaku minimal 1' },
        {
          row: 2,
          column: 'Satuan Masa Berlaku',
          value: 'MINGGU',
          message: 'Satuan Masa Berlaku tidak valid',
        },
        {
          row: 3,
          column: 'Nama Klien',
          value: 'PT\tKontrol',
          message: 'Nama Klien tidak boleh berisi karakter kontrol',
        },
        { row: 3, column: 'Nomor Sertifikat', value: 'SK-BETA', message: IMPORT_MESSAGES.otherCompany },
        { row: 3, column: 'Akreditasi', value: 'Tidak Ada', message: IMPORT_MESSAGES.bodyNotFound },
        { row: 4, column: 'Nama Klien', value: 'PT Lain', message: IMPORT_MESSAGES.disagrees(3) },
        { row: 4, column: 'Nomor Sertifikat', value: 'SK-100', message: IMPORT_MESSAGES.repeated(2) },
        { row: 4, column: 'Tanggal Terbit', value: '=TODAY()', message: IMPORT_MESSAGES.formulaNoResult },
        { row: 5, column: 'Nomor Sertifikat', value: 'SK-001', message: IMPORT_MESSAGES.otherClient },
        { row: 6, column: 'Nomor Sertifikat Klien', value: '', message: 'Nomor Sertifikat wajib diisi' },
        { row: 6, column: 'Region', value: '', message: 'Region wajib diisi' },
      ]);
    }
    expect(await auditCount()).toBe(before);
    expect((await clients(alfa)).total).toBe(3);
  });

  it('a company outside the scope, or ALL, is 404; without :create 403', async () => {
    const file = await valid();
    expect((await send('company-certificate', beta, 'check', file, editor.token)).statusCode).toBe(404);
    expect((await send('company-certificate', 'ALL', 'check', file)).statusCode).toBe(404);
    expect(
      (await send('company-certificate', '6f0c8a4e-0000-4000-8000-000000000001', 'check', file)).statusCode,
    ).toBe(404);
    expect((await send('company-certificate', alfa, 'check', file, outsider.token)).statusCode).toBe(403);
  });
});

describe('training-certificate import', () => {
  const header = [
    'Nomor Sertifikat',
    'Nama Personel',
    'Nama Pelatihan',
    'Lokasi',
    'Tanggal Sertifikasi',
    'Sertifikat',
  ];

  it('creates certificates with their QR, then the same file changes nothing', async () => {
    const file = await xlsx(
      header,
      [
        ['PLT-001', 'Siti', 'Lead Auditor', 'Bandung', utc(2025, 3, 10), 'ISO 9001'],
        ['PLT-002', 'Budi', 'Auditor Internal', 'Jakarta', '2025-04-01', null],
      ],
      [5],
    );
    const job = await applied('training-certificate', alfa, file, creator.token);
    expect(job.result).toEqual({ mode: 'apply', rows: 2, created: 2, updated: 0, unchanged: 0 });
    const list = await call(ctx.app, ctx.adminToken, 'GET', `/api/training-certificate?company_id=${alfa}`);
    const rows = list.json<{
      data: {
        certificate_number: string;
        date: string;
        qrcode: string | null;
        certification_id: string | null;
      }[];
    }>().data;
    expect(rows.map((r) => [r.certificate_number, r.date, !!r.qrcode])).toEqual([
      ['PLT-002', '2025-04-01', true],
      ['PLT-001', '2025-03-10', true],
    ]);
    expect(rows[1]!.certification_id).not.toBeNull();
    const again = await applied('training-certificate', alfa, file, creator.token);
    expect(again.result).toEqual({ mode: 'apply', rows: 2, created: 0, updated: 0, unchanged: 2 });
  });

  it('a formula counts as its stored result; a number cell is text in a text column', async () => {
    const file = await xlsx(
      header,
      [
        [
          { formula: 'CONCAT("PLT-","F1")', result: 'PLT-F1' },
          'Siti',
          'Lead Auditor',
          12345,
          { formula: 'DATE(2025,5,2)', result: utc(2025, 5, 2) },
          null,
        ],
      ],
      [5],
    );
    const job = await applied('training-certificate', alfa, file);
    expect(job.result).toMatchObject({ created: 1 });
    const list = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/training-certificate?company_id=${alfa}&search=PLT-F1`,
    );
    expect(list.json<{ data: { location: string; date: string }[] }>().data).toEqual([
      expect.objectContaining({ location: '12345', date: '2025-05-02' }),
    ]);
  });

  it('refuses a number of another company and a number repeated in the file', async () => {
    await ctx.make.training(beta, { certificate_number: 'PLT-BETA' });
    const file = await xlsx(header, [
      ['PLT-BETA', 'Siti', 'Lead Auditor', 'Bandung', '10/03/2025', null],
      ['PLT-003', 'Siti', 'Lead Auditor', 'Bandung', '10/03/2025', null],
      [' plt-003 ', 'Siti', 'Lead Auditor', 'Bandung', '10/03/2025', null],
    ]);
    const res = await send('training-certificate', alfa, 'apply', file);
    expect(res.json().rows).toEqual([
      { row: 2, column: 'Nomor Sertifikat', value: 'PLT-BETA', message: IMPORT_MESSAGES.otherCompany },
      { row: 4, column: 'Nomor Sertifikat', value: ' plt-003 ', message: IMPORT_MESSAGES.repeated(3) },
    ]);
  });
});

/** A zip of one deflated entry of `size` zero bytes (never held whole in memory). */
async function zipBomb(size: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => deflate.on('end', r));
  const zeros = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let i = 0; i < size / zeros.length; i++) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  const data = Buffer.concat(chunks);
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size >>> 0, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size >>> 0, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = 30 + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

describe('import jobs', () => {
  const trainingHeader = [
    'Nomor Sertifikat',
    'Nama Personel',
    'Nama Pelatihan',
    'Lokasi',
    'Tanggal Sertifikasi',
  ];
  const rows = (numbers: string[]) => numbers.map((n) => [n, 'Rina', 'Auditor', 'Solo', '01/02/2025']);

  it('a job stopped by a row (a number taken meanwhile) says which; the corrected file finishes it', async () => {
    const file = await xlsx(trainingHeader, rows(['JOB-1', 'JOB-2', 'JOB-3', 'JOB-4', 'JOB-5', 'JOB-6']));
    // Hold inserts of training certificates until the job is waiting on them, then take JOB-4 in
    // another company in the same moment: the job meets it in its second chunk, while its third
    // chunk (JOB-5, JOB-6) is being written beside it and must keep nothing.
    const client = await ctx.database.pool.connect();
    let jobId = '';
    try {
      await client.query('begin');
      await client.query('lock table training_certificates in share mode');
      const res = await send('training-certificate', alfa, 'apply', file, creator.token);
      expect(res.statusCode).toBe(202);
      jobId = res.json<{ job: JobBody }>().job.id;
      for (;;) {
        const waiting = await ctx.database.pool.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        if ((waiting.rows[0] as { n: number }).n > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await client.query(
        `insert into training_certificates (id, company_id, certificate_number, name, training, location, date, created_at, updated_at)
         values (gen_random_uuid(), $1, 'JOB-4', 'Lain', 'Lain', 'Lain', '2025-01-01', now(), now())`,
        [beta],
      );
      await client.query('commit');
    } finally {
      client.release();
    }
    const failed = await follow(jobId, creator.token);
    expect(failed).toMatchObject({ state: 'failed', done: 3, total: 6, result: null });
    expect(failed.error).toMatchObject({
      code: 'validation',
      message: IMPORT_MESSAGES.stoppedAt(5, 3),
      rows: [
        { row: 5, column: 'Nomor Sertifikat', value: 'JOB-4', message: 'Nomor sertifikat sudah digunakan' },
      ],
    });
    const numbers = async () =>
      (
        await call(
          ctx.app,
          ctx.adminToken,
          'GET',
          `/api/training-certificate?company_id=${alfa}&search=JOB-&paginate=200`,
        )
      )
        .json<{ data: { certificate_number: string }[] }>()
        .data.map((t) => t.certificate_number)
        .sort();
    expect(await numbers()).toEqual(['JOB-1', 'JOB-2', 'JOB-3']);

    const corrected = await xlsx(
      trainingHeader,
      rows(['JOB-1', 'JOB-2', 'JOB-3', 'JOB-4B', 'JOB-5', 'JOB-6']),
    );
    const job = await applied('training-certificate', alfa, corrected, creator.token);
    expect(job).toMatchObject({ state: 'done', done: 6, total: 6 });
    expect(job.result).toEqual({ mode: 'apply', rows: 6, created: 3, updated: 0, unchanged: 3 });
    expect(await numbers()).toEqual(['JOB-1', 'JOB-2', 'JOB-3', 'JOB-4B', 'JOB-5', 'JOB-6']);
  });

  it('a job planned again asks for :edit again when its file now changes a stored record', async () => {
    // Checked when EDT-1 did not exist (a create, :create enough); stored meanwhile by someone else.
    // The job, planned again from its file, would now change it: without :edit it fails, writing nothing.
    const file = await xlsx(trainingHeader, rows(['EDT-1', 'EDT-2']));
    await ctx.database.pool.query(
      `insert into training_certificates (id, company_id, certificate_number, name, training, location, date, created_at, updated_at)
       values (gen_random_uuid(), $1, 'EDT-1', 'Lain', 'Lain', 'Lain', '2025-01-01', now(), now())`,
      [alfa],
    );
    const queued = async (permissions: string[]) => {
      const id = randomUUID();
      await ctx.database.db.insert(importJobs).values({
        id,
        company_id: alfa,
        kind: 'training-certificate',
        file_name: 'ubah.xlsx',
        file,
        state: 'queued',
        total: 2,
        actor: {
          user: { id: creator.id, username: 'impor.tambah' },
          permissions,
          scope: [alfa],
          requestId: null,
        },
        created_by: creator.id,
        created_by_username: 'impor.tambah',
        created_at: new Date(),
      });
      await ctx.app.jobs.send(IMPORT_TASK, { id });
      return follow(id);
    };
    const create = ['training-certificate', 'training-certificate:create'];
    const refused = await queued(create);
    expect(refused).toMatchObject({ state: 'failed', done: 0, result: null });
    expect(refused.error).toEqual({ code: 'forbidden', message: IMPORT_MESSAGES.needsEdit });
    const stored = await ctx.database.pool.query<{ certificate_number: string; name: string }>(
      "select certificate_number, name from training_certificates where certificate_number like 'EDT-%' order by 1",
    );
    expect(stored.rows).toEqual([{ certificate_number: 'EDT-1', name: 'Lain' }]);

    const done = await queued([...create, 'training-certificate:edit']);
    expect(done).toMatchObject({ state: 'done', done: 2 });
    expect(done.result).toEqual({ mode: 'apply', rows: 2, created: 1, updated: 1, unchanged: 0 });
  });

  it('progress moves with each chunk: done rows are the rows committed', async () => {
    const file = await xlsx(trainingHeader, rows(['PRG-1', 'PRG-2', 'PRG-3', 'PRG-4', 'PRG-5']));
    const job = await applied('training-certificate', alfa, file, creator.token);
    const [row] = await ctx.database.db.select().from(importJobs).where(eq(importJobs.id, job.id));
    // Three chunks (2 + 2 + 1 rows); the file is not kept once the job has ended.
    expect([row!.applied, row!.done, row!.file]).toEqual([5, 5, null]);
    expect(job.result).toEqual({ mode: 'apply', rows: 5, created: 5, updated: 0, unchanged: 0 });
  });

  it('a job is seen with the import permission within the scope (404 otherwise); the list is newest first', async () => {
    const inBeta = await applied('training-certificate', beta, await xlsx(trainingHeader, rows(['SCP-1'])));
    // creator and editor see alfa only; the read-only user may not import at all.
    expect((await call(ctx.app, creator.token, 'GET', `/api/import/jobs/${inBeta.id}`)).statusCode).toBe(404);
    expect((await call(ctx.app, outsider.token, 'GET', `/api/import/jobs/${inBeta.id}`)).statusCode).toBe(
      403,
    );
    expect((await call(ctx.app, ctx.adminToken, 'GET', `/api/import/jobs/${inBeta.id}`)).statusCode).toBe(
      200,
    );
    expect(
      (await call(ctx.app, creator.token, 'GET', '/api/import/jobs/00000000-0000-4000-8000-000000000001'))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(ctx.app, creator.token, 'GET', `/api/import/jobs?company_id=${beta}`)).statusCode,
    ).toBe(404);
    expect(
      (await call(ctx.app, outsider.token, 'GET', `/api/import/jobs?company_id=${alfa}`)).statusCode,
    ).toBe(403);

    const list = await call(ctx.app, creator.token, 'GET', `/api/import/jobs?company_id=${alfa}&paginate=3`);
    expect(list.statusCode).toBe(200);
    const page = list.json<{
      total: number;
      data: (JobBody & { created_at: string; created_by: string; file_name: string; kind: string })[];
    }>();
    expect(page.data).toHaveLength(3);
    expect(page.total).toBeGreaterThan(3);
    const times = page.data.map((j) => j.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.data[0]).toMatchObject({
      kind: 'training-certificate',
      file_name: 'data.xlsx',
      state: 'done',
    });
    expect(page.data.every((j) => typeof j.created_by === 'string')).toBe(true);
  });

  it('a job whose every attempt died ends failed, saying so, once the engine gives up on it', async () => {
    // The import queue hands a job that ran out of retries (a process that died on each attempt,
    // after which no handler of it runs) to the queue of given-up jobs.
    const queue = await ctx.database.pool.query<{ dead_letter: string | null }>(
      'select dead_letter from pgboss.queue where name = $1',
      [IMPORT_TASK],
    );
    expect(queue.rows[0]?.dead_letter).toBe(`${IMPORT_TASK}-exhausted`);
    // A job as a dead process leaves it: running, two of four rows in; the engine gives up on it.
    const id = randomUUID();
    await ctx.database.db.insert(importJobs).values({
      id,
      company_id: alfa,
      kind: 'training-certificate',
      file_name: 'mati.xlsx',
      file: await xlsx(trainingHeader, rows(['DIE-1', 'DIE-2', 'DIE-3', 'DIE-4'])),
      state: 'running',
      done: 2,
      applied: 2,
      total: 4,
      actor: { user: null, permissions: [], scope: 'ALL', requestId: null },
      created_by: null,
      created_by_username: 'admin',
      created_at: new Date(),
      started_at: new Date(),
    });
    await ctx.app.jobs.send(`${IMPORT_TASK}-exhausted`, { id });
    const failed = await follow(id, creator.token);
    expect(failed).toMatchObject({ state: 'failed', done: 2, total: 4, result: null });
    expect(failed.error).toEqual({ code: 'internal', message: IMPORT_MESSAGES.retriesExhausted(6, 2) });
    // 'Riwayat Impor' shows it failed; the stored file is let go.
    const list = await call(ctx.app, creator.token, 'GET', `/api/import/jobs?company_id=${alfa}&paginate=50`);
    expect(list.json<{ data: JobBody[] }>().data.find((j) => j.id === id)).toMatchObject({
      state: 'failed',
      error: { message: IMPORT_MESSAGES.retriesExhausted(6, 2) },
    });
    const [row] = await ctx.database.db.select().from(importJobs).where(eq(importJobs.id, id));
    expect(row!.file).toBeNull();
  });
});

describe('the after-write steps of an import', () => {
  it('leave the same items due and webhook deliveries as each write by itself would', async () => {
    const company = await ctx.make.company('PT Gamma Impor');
    await ctx.make.certificationType(company, 'ISO 9001');
    await ctx.make.accreditationBody(company, 'KAN');
    await ctx.make.webhook(company, 'https://hooks.example.com/sertifikasi');
    const row = (client: string, scheme: string, status: string, year: number) => [
      client,
      `PT ${client}`,
      'Jakarta',
      null,
      null,
      scheme,
      'ISO 9001',
      status,
      `01/03/${year}`,
      3,
      'YEAR',
      status === 'DRAFT' ? null : 'KAN',
    ];
    const file = await xlsx(HEADER, [
      row('KG-1', 'SG-1', 'ACTIVE', 2024),
      row('KG-1', 'SG-2', 'SUSPENDED', 2023),
      row('KG-2', 'SG-3', 'DRAFT', 2024),
      row('KG-2', 'SG-4', 'ACTIVE', 2022),
      row('KG-3', 'SG-5', 'ACTIVE', 2024),
    ]);
    // Chunks of two rows: the steps ran in their batch form, a chunk at a time.
    const job = await applied('company-certificate', company, file);
    expect(job.result).toMatchObject({ created: { clients: 3, schemes: 5 } });
    const { db } = ctx.database;
    const ids = (
      await db.select({ id: schemes.id }).from(schemes).where(eq(schemes.company_id, company))
    ).map((r) => r.id);
    expect(ids).toHaveLength(5);
    const due = () =>
      db
        .select()
        .from(schemeCycleDue)
        .where(eq(schemeCycleDue.company_id, company))
        .orderBy(schemeCycleDue.scheme_id);
    const dueCounts = () =>
      db
        .select()
        .from(schemeCycleDueCounts)
        .where(eq(schemeCycleDueCounts.company_id, company))
        .orderBy(schemeCycleDueCounts.due_date);
    const deliveries = async () =>
      (
        await db
          .select({ type: webhookDeliveries.event_type, payload: webhookDeliveries.payload })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.company_id, company))
      )
        .map((d) => ({ type: d.type, data: (JSON.parse(d.payload) as { data: { id: string } }).data }))
        .sort((a, b) => a.data.id.localeCompare(b.data.id));
    const imported = { due: await due(), counts: await dueCounts(), deliveries: await deliveries() };
    // Every scheme but the DRAFT has an item due and one delivery, its client and type named.
    expect(imported.due).toHaveLength(4);
    expect(imported.deliveries).toHaveLength(4);
    expect(imported.deliveries[0]!.data).toMatchObject({ standard: 'ISO 9001', accreditation: 'KAN' });
    expect(imported.counts.reduce((n, c) => n + c.n, 0)).toBe(4);

    // Each write by itself, through the single form of each step, from nothing: the same rows.
    await db
      .transaction(async (tx) => {
        await tx.delete(schemeCycleDue).where(eq(schemeCycleDue.company_id, company));
        await tx.delete(schemeCycleDueCounts).where(eq(schemeCycleDueCounts.company_id, company));
        await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.company_id, company));
        const stored = await tx.select().from(schemes).where(eq(schemes.company_id, company));
        const stepCtx = {
          tx,
          clock: ctx.clock,
          actor: null,
        } as unknown as ServiceContext;
        for (const after of stored) {
          const event = { entity: 'scheme', action: 'create', id: after.id, before: null, after } as const;
          await cycleDueStep(stepCtx, event);
          await queueWebhookEvents(stepCtx, event);
        }
        const one = {
          due: await tx
            .select()
            .from(schemeCycleDue)
            .where(eq(schemeCycleDue.company_id, company))
            .orderBy(schemeCycleDue.scheme_id),
          counts: await tx
            .select()
            .from(schemeCycleDueCounts)
            .where(eq(schemeCycleDueCounts.company_id, company))
            .orderBy(schemeCycleDueCounts.due_date),
          deliveries: (
            await tx
              .select({ type: webhookDeliveries.event_type, payload: webhookDeliveries.payload })
              .from(webhookDeliveries)
              .where(eq(webhookDeliveries.company_id, company))
          )
            .map((d) => ({ type: d.type, data: (JSON.parse(d.payload) as { data: { id: string } }).data }))
            .sort((a, b) => a.data.id.localeCompare(b.data.id)),
        };
        expect(one).toEqual(imported);
        throw new RolledBack();
      })
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) throw err;
      });
  });
});

class RolledBack extends Error {}

describe('bad files', () => {
  const message = (res: { json<T>(): T }) => res.json<{ message: string }>().message;

  it('not an xlsx, no file, no header, a missing required column: 422 with a message', async () => {
    let res = await send('company-certificate', alfa, 'check', Buffer.from('Nomor;Nama\n1;2\n'));
    expect([res.statusCode, message(res)]).toEqual([422, IMPORT_MESSAGES.notXlsx]);
    res = await send('company-certificate', alfa, 'check', null);
    expect(res.statusCode).toBe(422);
    res = await send('company-certificate', alfa, 'check', await xlsx([], []));
    expect([res.statusCode, message(res)]).toEqual([422, IMPORT_MESSAGES.noHeader]);
    res = await send(
      'company-certificate',
      alfa,
      'check',
      await xlsx(['Nomor Sertifikat Klien', 'Region'], [['A', 'B']]),
    );
    expect([res.statusCode, message(res)]).toEqual([422, IMPORT_MESSAGES.missingColumns(['Nama Klien'])]);
  });

  it('over 10 MiB is 413', async () => {
    const res = await send('company-certificate', alfa, 'check', Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    expect([res.statusCode, message(res)]).toEqual([413, IMPORT_MESSAGES.tooLarge(10)]);
  });

  it('an archive that unpacks to far more than its size is refused', async () => {
    const bomb = await zipBomb(300 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await send('company-certificate', alfa, 'check', bomb);
    expect([res.statusCode, message(res)]).toEqual([422, IMPORT_MESSAGES.unpacksTooLarge]);
  });

  it('over 50,000 data rows is refused', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out });
    const sheet = workbook.addWorksheet('Data');
    sheet
      .addRow(['Nomor Sertifikat', 'Nama Personel', 'Nama Pelatihan', 'Lokasi', 'Tanggal Sertifikasi'])
      .commit();
    for (let i = 0; i <= 50_000; i++) sheet.addRow([`N${i}`, 'A', 'B', 'C', '01/01/2025']).commit();
    sheet.commit();
    await workbook.commit();
    const res = await send('training-certificate', alfa, 'check', Buffer.concat(chunks));
    expect([res.statusCode, message(res)]).toEqual([422, IMPORT_MESSAGES.tooManyRows(50_000)]);
  });
});
