/**
 * 'Rencana Audit' as other lists see it: a 'Jadwal Audit' item with its scheme's PLANNED audit (dates
 * and lead auditor; a cancelled or done one is not shown), and the list's workbook (`type=export`)
 * read back with exceljs, in scope.
 */
import type { AuditScheduleRow, Auditor, ListResponse, PlannedAudit } from '@sertifikasi/shared-contracts';
import { call, useTestContext } from '../../../test/helpers';
import { workbookOf } from '../../../test/workbook';

/** 10:00 in Jakarta on 1 March 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
let alfa: string;
let beta: string;
let editor: { token: string };
let type: string;
let planned: string;
let bare: string;
let lead: Auditor;
let member: Auditor;

const auditor = async (name: string, role: string) => {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', {
    company_id: alfa,
    name,
    employment: 'INTERNAL',
    qualifications: [{ certification_id: type, role, sector_codes: [], valid_from: '2024-01-01' }],
  });
  expect(res.statusCode).toBe(201);
  return res.json<Auditor>();
};
const post = async (scheme: string, over: Record<string, unknown> = {}) => {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/planned-audit', {
    scheme_id: scheme,
    kind: 'SURVEILLANCE',
    start_date: '2026-03-10',
    end_date: '2026-03-11',
    audit_days: 2,
    team: [
      { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
      { auditor_id: member.id, role: 'AUDITOR' },
    ],
    notes: 'Gudang juga',
    ...over,
  });
  expect(res.statusCode).toBe(201);
  return res.json<PlannedAudit>();
};

beforeAll(async () => {
  ({ alfa, beta, editor } = await ctx.make.cast('daftar', 'Daftar', { editor: ['audit-plan'] }));
  type = await ctx.make.certificationType(alfa, 'ISO 9001');
  lead = await auditor('Lina Lead', 'LEAD_AUDITOR');
  member = await auditor('Sari Anggota', 'AUDITOR');
  const client = await ctx.make.client(alfa, 'PT Direncanakan', { employees_number: 20 });
  planned = await ctx.make.scheme({ company: alfa, type, client, cert_number: 'QMS/PL/1' });
  bare = await ctx.make.scheme({ company: alfa, type, cert_number: 'QMS/PL/2' });
});

const schedule = async () => {
  const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/audit-schedule/${alfa}?window=all`);
  expect(res.statusCode).toBe(200);
  const rows = res.json<ListResponse<AuditScheduleRow>>().data;
  return (scheme: string) => rows.find((r) => r.scheme_id === scheme)!.planned_audit;
};

describe("'Jadwal Audit' with the planned audits", () => {
  it('shows the earliest PLANNED audit of an item’s scheme with its lead auditor; none for the others', async () => {
    const later = await post(planned, {
      start_date: '2026-04-06',
      end_date: '2026-04-07',
      team: [
        { auditor_id: member.id, role: 'AUDITOR' },
        { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
      ],
    });
    const first = await post(planned);
    let of = await schedule();
    expect(of(planned)).toEqual({
      id: first.id,
      start_date: '2026-03-10',
      end_date: '2026-03-11',
      lead: 'Lina Lead',
    });
    expect(of(bare)).toBeNull();
    // Cancelled: the next PLANNED one shows; both gone (one deleted): none.
    expect(
      (await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${first.id}/cancel`)).statusCode,
    ).toBe(200);
    of = await schedule();
    expect(of(planned)).toMatchObject({ id: later.id, start_date: '2026-04-06', lead: 'Lina Lead' });
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/planned-audit/${later.id}`)).statusCode).toBe(
      200,
    );
    expect((await schedule())(planned)).toBeNull();
  });
});

describe("'Rencana Audit' exported", () => {
  it('writes every matching audit with the screen’s words, the team in one cell, and the filters', async () => {
    const audit = await post(bare, { start_date: '2026-05-04', end_date: '2026-05-06', audit_days: 2.5 });
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/planned-audit?type=export&company_id=${alfa}&state=PLANNED`,
    );
    const workbook = await workbookOf(res, 'export-rencana-audit.xlsx');
    const rows = workbook.getWorksheet('Rencana Audit')!.getSheetValues().filter(Boolean) as unknown[][];
    const header = rows.findIndex((r) => r.includes('Nama Klien'));
    expect(rows[header]!.slice(1)).toEqual([
      'Nama Klien',
      'Sertifikat',
      'Nomor Sertifikat',
      'Jenis Audit',
      'Tanggal Mulai',
      'Tanggal Selesai',
      'Hari Audit',
      'Lead Auditor',
      'Tim Audit',
      'Status',
      'Catatan',
    ]);
    const body = rows.slice(header + 1);
    expect(body).toHaveLength(1);
    const [client, certification, number, kind, start, end, days, leadName, team, state, notes] =
      body[0]!.slice(1);
    expect([client, certification, number, kind, days, leadName, team, state, notes]).toEqual([
      expect.stringMatching(/^PT Klien/),
      'ISO 9001',
      'QMS/PL/2',
      'Surveilan',
      2.5,
      'Lina Lead',
      'Lina Lead (Lead Auditor), Sari Anggota (Auditor)',
      'Direncanakan',
      'Gudang juga',
    ]);
    expect((start as Date).toISOString().slice(0, 10)).toBe('2026-05-04');
    expect((end as Date).toISOString().slice(0, 10)).toBe('2026-05-06');
    expect(JSON.stringify(workbook.getWorksheet('Filter')!.getSheetValues())).toContain('Direncanakan');
    // Every company: the Perusahaan column; another company's staff: 403; without the permission: 403.
    const all = await workbookOf(
      await call(ctx.app, ctx.adminToken, 'GET', '/api/planned-audit?type=export'),
      'export-rencana-audit.xlsx',
    );
    expect(JSON.stringify(all.getWorksheet('Rencana Audit')!.getSheetValues())).toContain('Perusahaan');
    expect(
      (await call(ctx.app, editor.token, 'GET', `/api/planned-audit?type=export&company_id=${beta}`))
        .statusCode,
    ).toBe(403);
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/planned-audit/${audit.id}`);
  });
});
