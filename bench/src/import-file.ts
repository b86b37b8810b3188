/**
 * The company-certificate import file the import and busy benchmarks send: `rows` data rows, five
 * schemes per client, every column of the template filled (dates as `dd/mm/yyyy` text), written
 * with exceljs's streaming writer; and the multipart POST that sends it.
 */
import http from 'node:http';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS } from '@sertifikasi/shared-contracts';

export const SCHEMES_PER_CLIENT = 5;

/** One data row: the client's columns (the same on its five rows) and a scheme's. */
export interface Line {
  client: number;
  scheme: number;
}
export const importLines = (rows: number): Line[] =>
  Array.from({ length: rows }, (_, i) => ({
    client: Math.floor(i / SCHEMES_PER_CLIENT) + 1,
    scheme: i + 1,
  }));

const STATUSES = ['ACTIVE', 'ACTIVE', 'ACTIVE', 'SUSPENDED', 'WITHDRAWN', 'NOT ACTIVE', 'DRAFT'];
const issueOf = (n: number) => {
  const d = new Date(Date.UTC(2015, 0, 1) + (n % 3650) * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/** Client `n`'s columns; `prefix` keeps the numbers of one file apart from another's. */
export function clientValues(n: number, prefix = '') {
  return {
    certificate_number: `KL-${prefix}${n}`,
    name: `PT Klien Impor Nomor ${prefix}${n}`,
    region: 'Jawa Barat',
    address: `Jl. Industri No. ${n}, Bekasi, Jawa Barat 17530`,
    scope: 'Manufaktur komponen logam dan perakitan mesin',
    ea_code: '17',
    nace_code: '25.62',
    president: 'Budi Santoso',
    management_representative: 'Siti Rahmawati',
    foundation_day: '1998-05-12',
    employees_number: 100 + (n % 900),
    employees_active: 90 + (n % 800),
    phone: `(021) 555 ${String(n).padStart(4, '0')}`,
    handphone: `0812-555-${String(n).padStart(4, '0')}`,
    fax: `(021) 556 ${String(n).padStart(4, '0')}`,
    email: `info${n}@klien.co.id`,
    website: `https://www.klien${n}.co.id`,
  };
}

/** Scheme `n`'s columns (its number `IMP-<prefix><n>`). */
export function schemeValues(n: number, prefix = '') {
  return {
    cert_number: `IMP-${prefix}${n}`,
    status: STATUSES[n % STATUSES.length]!,
    issue_date: issueOf(n),
    valid_for: 3,
    valid_for_type: 'YEAR' as const,
    surveillance_date: issueOf(n + 365),
    desc: `Sertifikat skema nomor ${n}`,
  };
}

export interface ImportFileOptions {
  rows: number;
  /** Prefix of the client and scheme numbers (default none). */
  prefix?: string;
  /** The certification type's name in the target company (default 'ISO 9001:2015'). */
  type?: string;
  /** The accreditation body's name, on every other scheme (default 'KAN'). */
  body?: string;
}

/** The import file: every column of the template, written with exceljs's streaming writer. */
export async function buildImportFile(opts: ImportFileOptions): Promise<Buffer> {
  const { rows, prefix = '', type = 'ISO 9001:2015', body = 'KAN' } = opts;
  const columns = IMPORT_COLUMNS['company-certificate'];
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(columns.map((c) => c.header)).commit();
  for (const line of importLines(rows)) {
    const c = clientValues(line.client, prefix);
    const s = schemeValues(line.scheme, prefix);
    const values: Record<string, unknown> = {
      ...c,
      ...s,
      status: s.status,
      valid_for_type: 'TAHUN',
      issue_date2: null,
      certification_id: type,
      accredited_id: line.scheme % 2 ? body : null,
    };
    sheet
      .addRow(
        columns.map((col) => {
          const v = values[col.field];
          if (v == null) return null;
          if (col.kind === 'date' && typeof v === 'string') {
            const [y, m, d] = v.split('-');
            return `${d}/${m}/${y}`;
          }
          return v as ExcelJS.CellValue;
        }),
      )
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/**
 * POSTs the file as multipart with node:http: no client timeout (fetch gives up after 300 s
 * without an answer, and a large apply can take longer on a busy machine).
 */
export async function postImportFile(
  url: string,
  token: string,
  file: Buffer,
): Promise<{ status: number; body: string; retryAfter: number }> {
  const form = new FormData();
  form.append('file_name', 'register.xlsx');
  form.append('file', new Blob([file]), 'register.xlsx');
  const encoded = new Response(form);
  const payload = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': encoded.headers.get('content-type')!,
          'content-length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            retryAfter: Number(res.headers['retry-after'] ?? 0),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** An import job as `GET /api/import/jobs/{id}` answers it (the fields the benches read). */
export interface ImportJobAnswer {
  id: string;
  state: string;
  done: number;
  total: number;
  result: unknown;
  error: unknown;
}

/**
 * Applies a file as a client does: `POST .../{company}?mode=apply` (asked again after Retry-After
 * on a 503), `202` with the job, then `GET /api/import/jobs/{id}` every 250 ms until it ends.
 * Answers the ended job and the seconds from the POST to the end; a refusal or a failed job throws.
 */
export async function applyImportJob(
  baseUrl: string,
  token: string,
  kind: string,
  company: string,
  file: Buffer,
): Promise<{ job: ImportJobAnswer; seconds: number; acceptedSeconds: number }> {
  const started = performance.now();
  const url = `${baseUrl}/api/import/${kind}/${company}?mode=apply`;
  let res = await postImportFile(url, token, file);
  for (let retry = 0; res.status === 503 && retry < 5; retry++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, res.retryAfter) * 1000));
    res = await postImportFile(url, token, file);
  }
  if (res.status !== 202) throw new Error(`apply answered ${res.status}: ${res.body.slice(0, 500)}`);
  const acceptedSeconds = (performance.now() - started) / 1000;
  let job = (JSON.parse(res.body) as { job: ImportJobAnswer }).job;
  while (job.state !== 'done' && job.state !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const answer = await fetch(`${baseUrl}/api/import/jobs/${job.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (answer.ok) job = (await answer.json()) as ImportJobAnswer;
  }
  if (job.state === 'failed')
    throw new Error(`import job failed: ${JSON.stringify(job.error).slice(0, 500)}`);
  return { job, seconds: (performance.now() - started) / 1000, acceptedSeconds };
}
