/**
 * 'Tabel Hari Audit': a company's audit-days table read (IAF MD 5's until it has its own), written
 * whole, its band edges (the last employee of a band and the first of the next), refusals naming the
 * row (a gap, an overlap, a first band not from 1, an end before its start, days 0 or not in half
 * days), a type of another company, scope (403) and the permission.
 */
import type { AuditDays, AuditDayTable } from '@sertifikasi/shared-contracts';
import { call, useTestContext } from '../../../test/helpers';
import type { SignedIn } from '../../../test/fixtures';

const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
let alfa: string;
let beta: string;
let editor: SignedIn;
let type: string;
let otherType: string;

beforeAll(async () => {
  ({ alfa, beta, editor } = await ctx.make.cast('tabel', 'Tabel', { editor: ['audit-plan'] }));
  type = await ctx.make.certificationType(alfa, 'ISO 9001');
  otherType = await ctx.make.certificationType(beta, 'ISO 9001');
});

const get = (query: string, token: string | null = ctx.adminToken) =>
  call(ctx.app, token, 'GET', `/api/audit-day-table?${query}`);
const put = (payload: unknown, token = ctx.adminToken) =>
  call(ctx.app, token, 'PUT', '/api/audit-day-table', payload);
const bands = [
  { min_employees: 1, max_employees: 10, days: 1 },
  { min_employees: 11, max_employees: 50, days: 2.5 },
  { min_employees: 51, max_employees: 200, days: 4 },
];
const refusal = async (rows: unknown[]) => {
  const res = await put({ company_id: alfa, certification_id: type, bands: rows });
  expect(res.statusCode).toBe(422);
  return res.json<{ errors: Record<string, string> }>().errors;
};

describe('the audit-days table', () => {
  it('answers IAF MD 5’s table until the company has its own', async () => {
    const res = await get(`company_id=${alfa}`);
    expect(res.statusCode).toBe(200);
    const table = res.json<AuditDayTable>();
    expect(table).toMatchObject({ company_id: alfa, certification_id: null, source: 'md5' });
    expect(table.bands[0]).toEqual({ min_employees: 1, max_employees: 5, days: 1.5 });
    expect(table.bands[4]).toEqual({ min_employees: 26, max_employees: 45, days: 4 });
    expect(table.bands.at(-1)).toEqual({ min_employees: 8501, max_employees: 10700, days: 22 });
  });

  it('writes a type’s table whole; the suggestion reads it at the band edges; no bands: MD 5 again', async () => {
    const saved = await put({ company_id: alfa, certification_id: type, bands }, editor.token);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<AuditDayTable>()).toEqual({
      company_id: alfa,
      certification_id: type,
      source: 'company',
      bands,
    });
    expect((await get(`company_id=${alfa}&certification_id=${type}`)).json<AuditDayTable>().bands).toEqual(
      bands,
    );
    // Every type's table is another one: still MD 5's.
    expect((await get(`company_id=${alfa}`)).json<AuditDayTable>().source).toBe('md5');

    const days = async (employees: number) => {
      const client = await ctx.make.client(alfa, `PT Tepi ${employees}`, { employees_number: employees });
      const scheme = await ctx.make.scheme({ company: alfa, type, client });
      return (
        await call(ctx.app, ctx.adminToken, 'GET', `/api/audit-days?scheme_id=${scheme}&kind=STAGE2`)
      ).json<AuditDays>();
    };
    expect((await days(10)).days).toBe(1);
    expect((await days(11)).days).toBe(2.5);
    expect((await days(50)).days).toBe(2.5);
    expect((await days(51)).days).toBe(4);
    expect(await days(200)).toMatchObject({
      days: 4,
      basis: expect.stringMatching(/tabel hari audit perusahaan/),
    });
    expect((await days(201)).days).toBeNull(); // beyond the company's table

    const cleared = await put({ company_id: alfa, certification_id: type, bands: [] });
    expect(cleared.json<AuditDayTable>().source).toBe('md5');
    expect((await days(51)).days).toBe(5); // MD 5: 46-65 employees
  });

  it('refuses a gap, an overlap, a first band not from 1, an end before its start, naming the row', async () => {
    expect(await refusal([{ ...bands[0], min_employees: 2 }, ...bands.slice(1)])).toEqual({
      'bands[0].min_employees': 'Baris pertama harus dimulai dari 1 karyawan',
    });
    expect(await refusal([bands[0], { ...bands[1], min_employees: 12 }, bands[2]])).toEqual({
      'bands[1].min_employees': expect.stringMatching(/dimulai dari 11.*celah atau tumpang tindih/),
    });
    expect(await refusal([bands[0], { ...bands[1], min_employees: 10 }, bands[2]])).toMatchObject({
      'bands[1].min_employees': expect.stringMatching(/dimulai dari 11/),
    });
    // Out of order: the second starts after the first's end only if ascending.
    expect(await refusal([bands[0], bands[2], bands[1]])).toMatchObject({
      'bands[1].min_employees': expect.stringMatching(/dimulai dari 11/),
      'bands[2].min_employees': expect.stringMatching(/dimulai dari 201/),
    });
    expect(await refusal([{ min_employees: 1, max_employees: 0, days: 1 }])).toMatchObject({
      'bands[0].max_employees': expect.any(String),
    });
    expect(await refusal([bands[0], { min_employees: 11, max_employees: 10, days: 2 }])).toEqual({
      'bands[1].max_employees': 'Karyawan Sampai tidak boleh kurang dari Karyawan Dari',
    });
  });

  it('refuses days of 0 or not in half days', async () => {
    expect(await refusal([{ ...bands[0], days: 0 }])).toEqual({
      'bands[0].days': 'Hari Audit Awal harus lebih dari 0',
    });
    expect(await refusal([{ ...bands[0], days: 1.25 }])).toEqual({
      'bands[0].days': 'Hari Audit Awal harus kelipatan 0,5',
    });
  });

  it('keeps to the company: another company’s type 422, a company outside the scope 403, no permission 403', async () => {
    const theirs = await put({ company_id: alfa, certification_id: otherType, bands });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json()).toMatchObject({
      errors: { certification_id: 'Jenis sertifikasi tidak ditemukan' },
    });
    expect((await put({ company_id: beta, bands }, editor.token)).statusCode).toBe(403);
    expect((await get(`company_id=${beta}`, editor.token)).statusCode).toBe(403);
    const stranger = await ctx.make.user({ username: 'tabel.lain', keys: ['auditor'], company_ids: [alfa] });
    expect((await get(`company_id=${alfa}`, stranger.token)).statusCode).toBe(403);
    expect((await put({ company_id: alfa, bands }, stranger.token)).statusCode).toBe(403);
    expect((await get(`company_id=${alfa}`, null)).statusCode).toBe(401);
  });
});
