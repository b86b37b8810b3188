// Long file: the schedule's windows, scope, search, recording, export and the one-statement page are checked on one register of schemes at every stage of their cycle, built once.
import { workbookOf } from '../../../test/workbook';
import { and, asc, eq } from 'drizzle-orm';
import type { AuditScheduleRow, ListResponse, Scheme, SchemeAudit } from '@sertifikasi/shared-contracts';
import { auditLog, schemeCycleDue, schemeCycleDueCounts } from '../../db/schema';
import { rebuildCycleDue } from '../../services/cycle-due';
import { scheduleCount, schedulePage, schedulePageAndTotal } from './audit-schedule.repository';
import { call, login, useTestContext } from '../../../test/helpers';
import { schemeBody } from '../../../test/forms';

const TZ = 'Asia/Jakarta';
/** 10:00 in Jakarta on 15 January 2026: today is 2026-01-15. */
const NOW = new Date('2026-01-15T03:00:00Z');

const ctx = useTestContext({ TZ }, { now: NOW });
let companyA: string;
let companyB: string;
let typeA: string;
let typeA2: string;
let typeB: string;
let clientA: string;
let clientB: string;
/** audit-schedule + company-certificate with edit, scope company A. */
let staffA: string;
/** audit-schedule only (no edit), scope ALL. */
let reader: string;
/** company-certificate with edit but no audit-schedule, scope ALL. */
let noSchedule: string;

const schemes: Record<'soon' | 'late' | 'upcoming' | 'draft', Scheme> = {} as never;

async function createScheme(body: Record<string, unknown>): Promise<Scheme> {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company-certificate-scheme', body);
  expect(res.statusCode).toBe(201);
  return res.json<Scheme>();
}

/** The stored items due, by scheme id. */
async function stored(): Promise<Record<string, { kind: string; due_date: string; status: string }>> {
  const rows = await ctx.database.db.select().from(schemeCycleDue).orderBy(asc(schemeCycleDue.scheme_id));
  return Object.fromEntries(
    rows.map((r) => [r.scheme_id, { kind: r.kind, due_date: r.due_date, status: r.status }]),
  );
}

/** The counts per company and due date, without the zeros. */
async function storedCounts(): Promise<Record<string, number>> {
  const rows = await ctx.database.db.select().from(schemeCycleDueCounts);
  return Object.fromEntries(rows.filter((r) => r.n !== 0).map((r) => [`${r.company_id} ${r.due_date}`, r.n]));
}

/** The stored items and their counts equal what a rebuild from the records gives (the step keeps them right). */
async function expectStoredMatchesRebuild(): Promise<void> {
  const kept = await stored();
  const keptCounts = await storedCounts();
  await ctx.database.db
    .transaction(async (tx) => {
      await rebuildCycleDue(tx, ctx.clock);
      const rebuilt = await tx.select().from(schemeCycleDue).orderBy(asc(schemeCycleDue.scheme_id));
      expect(
        Object.fromEntries(
          rebuilt.map((r) => [r.scheme_id, { kind: r.kind, due_date: r.due_date, status: r.status }]),
        ),
      ).toEqual(kept);
      const counts = await tx.select().from(schemeCycleDueCounts);
      expect(Object.fromEntries(counts.map((r) => [`${r.company_id} ${r.due_date}`, r.n]))).toEqual(
        keptCounts,
      );
      tx.rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Error) || !/rollback/i.test(e.message)) throw e;
    });
}

/** A call as the administrator; `schemeUrl` is a scheme's address. */
const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  call(ctx.app, ctx.adminToken, method, url, payload);
const schemeUrl = (id: string) => `/api/company-certificate-scheme/${id}`;

async function list(token: string | null, query = '', company = 'ALL') {
  const res = await call(ctx.app, token, 'GET', `/api/audit-schedule/${company}${query ? `?${query}` : ''}`);
  return {
    status: res.statusCode,
    body: res.statusCode === 200 ? res.json<ListResponse<AuditScheduleRow>>() : null,
    res,
  };
}

beforeAll(async () => {
  const make = ctx.make;
  companyA = await make.company('PT Sertifikasi Alpha');
  companyB = await make.company('PT Sertifikasi Beta');
  typeA = await make.certificationType(companyA, 'ISO 9001:2015');
  typeA2 = await make.certificationType(companyA, 'ISO 45001:2018');
  typeB = await make.certificationType(companyB, 'ISO 14001:2015');
  clientA = await make.client(companyA, 'PT Maju Bersama', { certificate_number: 'CL-A-001' });
  clientB = await make.client(companyB, 'PT Sinar Terang', { certificate_number: 'CL-B-001' });
  const edit = ['company-certificate', 'company-certificate:edit'];
  const read = await make.role('Pembaca Jadwal', ['audit-schedule']);
  staffA = (
    await make.user({ username: 'jadwal.a', keys: ['audit-schedule', ...edit], company_ids: [companyA] })
  ).token;
  await make.user({ username: 'pelancong', roles_id: read, company_ids: 'ALL' });
  reader = (await make.user({ username: 'baca.jadwal', roles_id: read, company_ids: 'ALL' })).token;
  noSchedule = (await make.user({ username: 'tanpa.jadwal', keys: edit, company_ids: 'ALL' })).token;

  // Due 2026-01-20 (12 months after the decision): Segera.
  schemes.soon = await createScheme(
    schemeBody(clientA, typeA, {
      cert_number: 'QMS/A/001',
      issue_date: '2025-01-10',
      decision_date: '2025-01-20',
    }),
  );
  // Due 2025-06-01 (12 months after the issue date, no decision date): Terlambat.
  schemes.late = await createScheme(
    schemeBody(clientA, typeA2, { cert_number: 'OHS/A/002', issue_date: '2024-06-01', valid_for: 2 }),
  );
  // Company B, due 2026-03-01: Mendatang.
  schemes.upcoming = await createScheme(
    schemeBody(clientB, typeB, { cert_number: 'EMS/B/001', issue_date: '2025-03-01' }),
  );
  schemes.draft = await createScheme(
    schemeBody(clientA, typeA, { cert_number: 'QMS/A/DRAFT', issue_date: '2025-05-01', status: 'DRAFT' }),
  );
});
afterEach(() => ctx.clock.set(NOW));

/**
 * Moves the app's clock to `instant` and signs in there (sessions age with the clock) as a reader
 * of the schedule with scope ALL, kept for these jumps so the other users' sessions stay as they are.
 */
async function at(instant: string): Promise<string> {
  ctx.clock.set(new Date(instant));
  return login(ctx.app, 'pelancong', 'password-123');
}

describe('the stored items due follow every write (after-write step)', () => {
  it('a scheme created has its item; a DRAFT one none', async () => {
    const kept = await stored();
    expect(kept[schemes.soon.id]).toEqual({ kind: 'SURVEILLANCE', due_date: '2026-01-20', status: 'ACTIVE' });
    expect(kept[schemes.late.id]).toEqual({ kind: 'SURVEILLANCE', due_date: '2025-06-01', status: 'ACTIVE' });
    expect(kept[schemes.upcoming.id]).toEqual({
      kind: 'SURVEILLANCE',
      due_date: '2026-03-01',
      status: 'ACTIVE',
    });
    expect(kept[schemes.draft.id]).toBeUndefined();
    expect(schemes.soon.decision_date).toBe('2025-01-20');
    await expectStoredMatchesRebuild();
  });

  it('an audit added, changed and deleted moves the item; a scheme suspended, withdrawn, deleted too', async () => {
    const body = schemeBody(clientA, typeA, { cert_number: 'QMS/A/CYCLE', issue_date: '2024-02-01' });
    const scheme = await createScheme(body);
    expect((await stored())[scheme.id]?.due_date).toBe('2025-02-01');

    const added = await asAdmin('POST', `${schemeUrl(scheme.id)}/audits`, {
      kind: 'SURVEILLANCE',
      date: '2025-02-03',
      notes: 'Surveilan pertama',
    });
    expect(added.statusCode).toBe(201);
    const audit = added.json<SchemeAudit>();
    expect(audit).toMatchObject({ scheme_id: scheme.id, kind: 'SURVEILLANCE', date: '2025-02-03' });
    expect((await stored())[scheme.id]).toMatchObject({ kind: 'SURVEILLANCE', due_date: '2026-02-03' });
    await expectStoredMatchesRebuild();

    // The last surveillance moved within 90 days of the expiry (2027-02-01): the recertification is due.
    const edited = await call(ctx.app, ctx.adminToken, 'PUT', `/api/scheme-audits/${audit.id}`, {
      kind: 'SURVEILLANCE',
      date: '2026-01-10',
    });
    expect(edited.statusCode).toBe(200);
    expect((await stored())[scheme.id]).toMatchObject({ kind: 'RECERTIFICATION', due_date: '2027-02-01' });
    await expectStoredMatchesRebuild();

    const removed = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/scheme-audits/${audit.id}`);
    expect(removed.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect((await stored())[scheme.id]).toMatchObject({ kind: 'SURVEILLANCE', due_date: '2025-02-01' });

    // Each write of an audit is in the audit log.
    const logged = await ctx.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'scheme-audit'), eq(auditLog.entity_id, audit.id)))
      .orderBy(asc(auditLog.at));
    expect(logged.map((r) => r.action)).toEqual(['create', 'update', 'delete']);

    // Suspended today (2026-01-15): the limit is six months on.
    const suspended = await asAdmin('PUT', schemeUrl(scheme.id), { ...body, status: 'SUSPENDED' });
    expect(suspended.statusCode).toBe(200);
    expect((await stored())[scheme.id]).toEqual({
      kind: 'SUSPENSION_LIMIT',
      due_date: '2026-07-15',
      status: 'SUSPENDED',
    });
    // The rebuild reads the same day from the status history.
    await expectStoredMatchesRebuild();

    const withdrawn = await asAdmin('PUT', schemeUrl(scheme.id), { ...body, status: 'WITHDRAWN' });
    expect(withdrawn.statusCode).toBe(200);
    expect((await stored())[scheme.id]).toBeUndefined();

    await asAdmin('PUT', schemeUrl(scheme.id), body);
    expect((await stored())[scheme.id]).toBeDefined();
    const gone = await asAdmin('DELETE', schemeUrl(scheme.id));
    expect(gone.json()).toMatchObject({ success: true });
    expect((await stored())[scheme.id]).toBeUndefined();
  });
});

describe('audits done: permissions and scope', () => {
  const url = () => `/api/company-certificate-scheme/${schemes.upcoming.id}/audits`;
  const audit = { kind: 'SPECIAL', date: '2025-09-09', notes: 'Audit khusus' };

  it('401 without a token, 403 without company-certificate:edit, 404 outside the scope', async () => {
    expect((await call(ctx.app, null, 'POST', url(), audit)).statusCode).toBe(401);
    expect((await call(ctx.app, reader, 'POST', url(), audit)).statusCode).toBe(403);
    // staffA's scope is company A; this scheme is company B's.
    expect((await call(ctx.app, staffA, 'POST', url(), audit)).statusCode).toBe(404);
    expect((await call(ctx.app, staffA, 'GET', url())).statusCode).toBe(404);
    const unknown = '/api/company-certificate-scheme/4a0c5a9e-1b7d-4c7e-9a55-0f5b1f1b9a01/audits';
    expect((await call(ctx.app, ctx.adminToken, 'POST', unknown, audit)).statusCode).toBe(404);
  });

  it('422 for an unknown kind, an impossible date or an unknown field', async () => {
    for (const body of [
      { ...audit, kind: 'OTHER' },
      { ...audit, date: '2025-02-30' },
      { ...audit, extra: 'x' },
    ]) {
      const res = await call(ctx.app, ctx.adminToken, 'POST', url(), body);
      expect(res.statusCode).toBe(422);
    }
  });

  it('an audit of another company cannot be changed or deleted from a narrower scope (404)', async () => {
    const created = await call(ctx.app, ctx.adminToken, 'POST', url(), audit);
    expect(created.statusCode).toBe(201);
    const id = created.json<SchemeAudit>().id;
    expect((await call(ctx.app, staffA, 'PUT', `/api/scheme-audits/${id}`, audit)).statusCode).toBe(404);
    expect((await call(ctx.app, staffA, 'DELETE', `/api/scheme-audits/${id}`)).statusCode).toBe(404);
    expect((await call(ctx.app, reader, 'DELETE', `/api/scheme-audits/${id}`)).statusCode).toBe(403);
    const listed = await call(ctx.app, ctx.adminToken, 'GET', url());
    expect(listed.json<SchemeAudit[]>().map((a) => a.id)).toContain(id);
    // A special audit does not move the surveillance.
    expect((await stored())[schemes.upcoming.id]?.due_date).toBe('2026-03-01');
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/scheme-audits/${id}`)).statusCode).toBe(200);
  });
});

describe('GET /api/audit-schedule/{company_id}', () => {
  it('lists the items due in scope, soonest first, with kind, plan, days left and state', async () => {
    const { status, body } = await list(ctx.adminToken);
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, per_page: 20, current_page: 1, last_page: 1, from: 1, to: 3 });
    expect(body!.data.map((r) => [r.cert_number, r.kind, r.due_date, r.days_left, r.state])).toEqual([
      ['OHS/A/002', 'SURVEILLANCE', '2025-06-01', -228, 'LATE'],
      ['QMS/A/001', 'SURVEILLANCE', '2026-01-20', 5, 'SOON'],
      ['EMS/B/001', 'SURVEILLANCE', '2026-03-01', 45, 'UPCOMING'],
    ]);
    expect(body!.data[1]).toMatchObject({
      client_name: 'PT Maju Bersama',
      company_name: 'PT Sertifikasi Alpha',
      cert_name: 'ISO 9001:2015',
      surveillance_date: null,
    });
  });

  it('filters by window, certification type and search', async () => {
    const numbers = async (query: string) =>
      (await list(ctx.adminToken, query)).body!.data.map((r) => r.cert_number);
    expect(await numbers('window=late')).toEqual(['OHS/A/002']);
    expect(await numbers('window=30')).toEqual(['OHS/A/002', 'QMS/A/001']);
    expect(await numbers('window=90')).toEqual(['OHS/A/002', 'QMS/A/001', 'EMS/B/001']);
    expect(await numbers(`certification=${typeA2}`)).toEqual(['OHS/A/002']);
    expect(await numbers('search=sinar')).toEqual(['EMS/B/001']);
    expect(await numbers('search=qms/a')).toEqual(['QMS/A/001']);
    expect((await list(ctx.adminToken, 'search=sinar')).body!.total).toBe(1);
  });

  it('a day passing changes the state, and an expired scheme leaves the schedule, with nothing rewritten', async () => {
    let token = await at('2026-01-20T16:59:00Z'); // 23:59 on the 20th in Jakarta: due today
    let row = (await list(token, 'window=30')).body!.data.find((r) => r.cert_number === 'QMS/A/001');
    expect(row).toMatchObject({ days_left: 0, state: 'SOON' });
    token = await at('2026-01-20T17:01:00Z'); // 00:01 on the 21st: late overnight
    row = (await list(token, 'window=late')).body!.data.find((r) => r.cert_number === 'QMS/A/001');
    expect(row).toMatchObject({ days_left: -1, state: 'LATE' });
    // OHS/A/002 expires 2026-06-01; the day after, it is KADALUARSA and out of the cycle.
    token = await at('2026-06-02T03:00:00Z');
    const after = (await list(token)).body!;
    expect(after.data.map((r) => r.cert_number)).not.toContain('OHS/A/002');
    // The totals (from the counts per due date) and the card leave the expired scheme out too.
    expect(after.total).toBe(after.data.length);
    const late = (await list(token, 'window=late')).body!;
    expect(late.total).toBe(late.data.length);
    const summary = await call(ctx.app, token, 'GET', '/api/audit-schedule/ALL/summary');
    expect(summary.json<{ late: number }>().late).toBe(late.data.length);
  });

  it('the opening filter (window and scope) answers its page and total in one statement: the same rows, order and totals', async () => {
    const db = ctx.database.db;
    // Today, and the day after OHS/A/002 expires (its item stays stored, out of the list and the totals).
    for (const today of ['2026-01-15', '2026-06-02']) {
      for (const window of ['late', '30', '90', 'all'] as const) {
        for (const scope of ['ALL', [companyA], [companyA, companyB], []] as const) {
          const f = { query: { window, certification: [], search: '' }, scope: scope as never, today };
          const apart = await scheduleCount(db, f);
          const pages: AuditScheduleRow[] = [];
          for (let offset = 0; offset < 4; offset++) {
            const one = await schedulePageAndTotal(db, f, 1, offset);
            expect(one.total).toBe(apart);
            expect(one.rows).toEqual(await schedulePage(db, f, 1, offset));
            pages.push(...one.rows);
          }
          expect(pages).toEqual(await schedulePage(db, f, 20, 0));
          expect(pages.length).toBe(apart);
        }
      }
    }
    expect((await list(ctx.adminToken)).body!.data.map((r) => r.planned_audit)).toEqual(
      (
        await schedulePage(
          db,
          { query: { window: 'all', certification: [], search: '' }, scope: 'ALL', today: '2026-01-15' },
          20,
          0,
        )
      ).map((r) => r.planned_audit),
    );
  });

  it('keeps to the scope: a company outside it is 403; ALL means the caller’s companies', async () => {
    const mine = await list(staffA);
    expect(mine.body!.data.map((r) => r.company_id)).toEqual([companyA, companyA]);
    expect((await list(staffA, '', companyA)).body!.total).toBe(2);
    expect((await list(staffA, '', companyB)).status).toBe(403);
    expect((await list(reader, '', companyB)).body!.data.map((r) => r.cert_number)).toEqual(['EMS/B/001']);
  });

  it('401 without a token, 403 without the audit-schedule permission, 422 for bad parameters', async () => {
    expect((await list(null)).status).toBe(401);
    expect((await list(noSchedule)).status).toBe(403);
    expect((await list(ctx.adminToken, 'window=7')).status).toBe(422);
    expect((await list(ctx.adminToken, 'status=ACTIVE')).status).toBe(422);
    expect((await list(ctx.adminToken, 'certification=bukan-id')).status).toBe(422);
  });

  it('recording an audit from a row moves that row on to the next item', async () => {
    const before = (await list(staffA, 'window=late')).body!.data;
    expect(before.map((r) => r.cert_number)).toEqual(['OHS/A/002']);
    const res = await call(
      ctx.app,
      staffA,
      'POST',
      `/api/company-certificate-scheme/${before[0]!.scheme_id}/audits`,
      { kind: 'SURVEILLANCE', date: '2026-01-14' },
    );
    expect(res.statusCode).toBe(201);
    expect((await list(staffA, 'window=late')).body!.data).toEqual([]);
    // 12 months after the audit is 2027-01-14, past the expiry (2026-06-01): the recertification.
    const moved = (await list(staffA)).body!.data.find((r) => r.scheme_id === before[0]!.scheme_id);
    expect(moved).toMatchObject({ kind: 'RECERTIFICATION', due_date: '2026-06-01', state: 'LATER' });
  });

  it('exports the filtered rows as a workbook with the screen’s columns', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/audit-schedule/ALL?type=export&window=90');
    const workbook = await workbookOf(res, 'export-jadwal-audit.xlsx');
    const sheet = workbook.getWorksheet('Jadwal Audit')!;
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]!.slice(1)).toEqual([
      'Nama Klien',
      'Perusahaan',
      'Sertifikat',
      'Nomor Sertifikat',
      'Jenis',
      'Jatuh Tempo',
      'Rencana',
      'Sisa Hari',
      'Keadaan',
    ]);
    expect(rows.slice(1).map((r) => [r[4], r[5], r[8], r[9]])).toEqual([
      ['QMS/A/001', 'Surveilan', 5, 'Segera'],
      ['EMS/B/001', 'Surveilan', 45, 'Mendatang'],
    ]);
    const filters = workbook.getWorksheet('Filter')!;
    expect(JSON.stringify(filters.getSheetValues())).toContain('90 hari');
  });
});

describe('GET /api/audit-schedule/{company_id}/summary', () => {
  it('counts the late items and those due within 30 days, in scope', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/audit-schedule/ALL/summary');
    expect(res.json()).toEqual({ late: 0, soon: 1 });
    const token = await at('2026-01-21T03:00:00Z');
    expect((await call(ctx.app, token, 'GET', '/api/audit-schedule/ALL/summary')).json()).toEqual({
      late: 1,
      soon: 0,
    });
    ctx.clock.set(NOW);
    expect((await call(ctx.app, staffA, 'GET', `/api/audit-schedule/${companyB}/summary`)).statusCode).toBe(
      403,
    );
    expect((await call(ctx.app, noSchedule, 'GET', '/api/audit-schedule/ALL/summary')).statusCode).toBe(403);
    expect((await call(ctx.app, null, 'GET', '/api/audit-schedule/ALL/summary')).statusCode).toBe(401);
  });
});
