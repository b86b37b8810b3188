/**
 * 'Auditor' routes: the register with its qualifications and conflicts, the email unique per company
 * ignoring case, references inside the company, scope (403 / 404), and an auditor on a planned
 * audit kept (409) while it may still be deactivated.
 */
import { and, eq } from 'drizzle-orm';
import type { Auditor, ListResponse } from '@sertifikasi/shared-contracts';
import { auditLog } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';
import type { SignedIn } from '../../../test/fixtures';

const ctx = useTestContext({}, { now: new Date('2026-03-01T03:00:00Z') });
let alfa: string;
let beta: string;
let editor: SignedIn;
let typeAlfa: string;
let typeBeta: string;
let clientAlfa: string;

beforeAll(async () => {
  ({ alfa, beta, editor } = await ctx.make.cast('auditor', 'Auditor', { editor: ['auditor'] }));
  typeAlfa = await ctx.make.certificationType(alfa, 'ISO 9001');
  typeBeta = await ctx.make.certificationType(beta, 'ISO 9001');
  clientAlfa = await ctx.make.client(alfa, 'PT Klien Alfa');
});

const body = (over: Record<string, unknown> = {}) => ({
  company_id: alfa,
  name: 'Budi Auditor',
  email: 'budi@auditor.co.id',
  phone: '0812',
  employment: 'EXTERNAL',
  qualifications: [
    {
      certification_id: typeAlfa,
      role: 'LEAD_AUDITOR',
      sector_codes: [33, 28, 28],
      valid_from: '2024-01-01',
    },
  ],
  conflicts: [{ client_id: clientAlfa, reason: 'Konsultan 2025', until: '2027-01-01' }],
  ...over,
});

const post = (token: string, payload: unknown) => call(ctx.app, token, 'POST', '/api/auditor', payload);

describe('the auditor register', () => {
  it('adds, reads, lists, changes and audits an auditor with its qualifications and conflicts', async () => {
    const res = await post(editor.token, body());
    expect(res.statusCode).toBe(201);
    const created = res.json<Auditor>();
    expect(created).toMatchObject({
      company: { id: alfa, name: 'PT Alfa Auditor' },
      name: 'Budi Auditor',
      employment: 'EXTERNAL',
      active: 'true',
      qualifications: [
        {
          certification_id: typeAlfa,
          certification: 'ISO 9001',
          role: 'LEAD_AUDITOR',
          sector_codes: [28, 33],
          valid_until: null,
        },
      ],
      conflicts: [
        { client_id: clientAlfa, client: 'PT Klien Alfa', reason: 'Konsultan 2025', until: '2027-01-01' },
      ],
    });
    const got = await call(ctx.app, editor.token, 'GET', `/api/auditor/${created.id}`);
    expect(got.json()).toEqual(created);

    const put = await call(
      ctx.app,
      editor.token,
      'PUT',
      `/api/auditor/${created.id}`,
      body({ active: 'false', conflicts: [] }),
    );
    expect(put.statusCode).toBe(200);
    expect(put.json<Auditor>()).toMatchObject({
      active: 'false',
      conflicts: [],
      qualifications: [{ role: 'LEAD_AUDITOR' }],
    });

    const list = await call(ctx.app, editor.token, 'GET', `/api/auditor?company_id=${alfa}&active=false`);
    expect(list.json<ListResponse<Auditor>>().data.map((a) => a.id)).toEqual([created.id]);
    const active = await call(ctx.app, editor.token, 'GET', `/api/auditor?company_id=${alfa}&active=true`);
    expect(active.json<ListResponse<Auditor>>().data.map((a) => a.id)).not.toContain(created.id);

    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'auditor'), eq(auditLog.entity_id, created.id)));
    expect(audits.map((a) => a.action).sort()).toEqual(['create', 'update']);
  });

  it('refuses an email another auditor of the company has, in any case; another company may use it', async () => {
    const first = await post(ctx.adminToken, body({ email: 'sama@auditor.co.id', name: 'Satu' }));
    expect(first.statusCode).toBe(201);
    const again = await post(ctx.adminToken, body({ email: 'SAMA@Auditor.co.id', name: 'Dua' }));
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({
      code: 'validation',
      errors: { email: 'Email auditor sudah digunakan' },
    });
    const elsewhere = await post(
      ctx.adminToken,
      body({ company_id: beta, email: 'sama@auditor.co.id', qualifications: [], conflicts: [] }),
    );
    expect(elsewhere.statusCode).toBe(201);
    const noEmail = [
      await post(ctx.adminToken, body({ email: '' })),
      await post(ctx.adminToken, body({ email: null })),
    ];
    expect(noEmail.map((r) => r.statusCode)).toEqual([201, 201]);
  });

  it('refuses a certification type or client of another company, naming the row', async () => {
    const res = await post(
      ctx.adminToken,
      body({
        email: null,
        qualifications: [
          { certification_id: typeBeta, role: 'AUDITOR', sector_codes: [1], valid_from: '2024-01-01' },
        ],
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'qualifications[0].certification_id': 'Jenis sertifikasi tidak ditemukan',
    });
    const client = await post(
      ctx.adminToken,
      body({ email: null, conflicts: [{ client_id: typeAlfa, reason: 'X' }] }),
    );
    expect(client.json().errors).toEqual({ 'conflicts[0].client_id': 'Klien tidak ditemukan' });
  });

  it('refuses bad input: a sector code beyond 39, a validity ending before it starts, an unknown field', async () => {
    const q = { certification_id: typeAlfa, role: 'AUDITOR', valid_from: '2024-01-01' };
    const cases = [
      body({ email: null, qualifications: [{ ...q, sector_codes: [40] }] }),
      body({ email: null, qualifications: [{ ...q, sector_codes: [1], valid_until: '2023-12-31' }] }),
      body({ email: null, employment: 'FREELANCE' }),
      body({ email: null, extra: 1 }),
    ];
    for (const payload of cases) {
      const res = await post(ctx.adminToken, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('validation');
    }
  });

  it('answers 401 without a token, 403 without the permission or for a company outside the scope, 404 outside it', async () => {
    expect((await call(ctx.app, null, 'GET', '/api/auditor')).statusCode).toBe(401);
    const other = await ctx.make.user({ username: 'tanpa.auditor', keys: ['statistik'], company_ids: 'ALL' });
    expect((await call(ctx.app, other.token, 'GET', '/api/auditor')).statusCode).toBe(403);
    expect(
      (await post(editor.token, body({ company_id: beta, email: null, qualifications: [], conflicts: [] })))
        .statusCode,
    ).toBe(403);
    const theirs = (
      await post(ctx.adminToken, body({ company_id: beta, email: null, qualifications: [], conflicts: [] }))
    ).json<Auditor>();
    expect((await call(ctx.app, editor.token, 'GET', `/api/auditor/${theirs.id}`)).statusCode).toBe(404);
    expect((await call(ctx.app, editor.token, 'DELETE', `/api/auditor/${theirs.id}`)).statusCode).toBe(404);
    const list = await call(ctx.app, editor.token, 'GET', '/api/auditor');
    expect(list.json<ListResponse<Auditor>>().data.every((a) => a.company_id === alfa)).toBe(true);
  });

  it('deletes an auditor on no planned audit; one on a planned audit is kept (409), may be deactivated, is not moved to another company (422)', async () => {
    const free = (await post(ctx.adminToken, body({ email: null, conflicts: [] }))).json<Auditor>();
    const del = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/auditor/${free.id}`);
    expect(del.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect((await call(ctx.app, ctx.adminToken, 'GET', `/api/auditor/${free.id}`)).statusCode).toBe(404);

    const lead = (await post(ctx.adminToken, body({ email: null, conflicts: [] }))).json<Auditor>();
    const scheme = await ctx.make.scheme({ company: alfa, type: typeAlfa });
    const plan = await call(ctx.app, ctx.adminToken, 'POST', '/api/planned-audit', {
      scheme_id: scheme,
      kind: 'SPECIAL',
      start_date: '2026-04-01',
      end_date: '2026-04-01',
      audit_days: 1,
      team: [{ auditor_id: lead.id, role: 'LEAD_AUDITOR' }],
    });
    expect(plan.statusCode).toBe(201);
    const kept = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/auditor/${lead.id}`);
    expect(kept.statusCode).toBe(409);
    expect(kept.json()).toMatchObject({ code: 'conflict', message: expect.stringMatching(/nonaktifkan/) });
    const off = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/auditor/${lead.id}`,
      body({ email: null, conflicts: [], active: 'false' }),
    );
    expect(off.json<Auditor>().active).toBe('false');

    // Moved to another company: refused on company_id while on a planned audit of this one.
    const moveTo = body({
      company_id: beta,
      email: null,
      conflicts: [],
      qualifications: [
        { certification_id: typeBeta, role: 'AUDITOR', sector_codes: [], valid_from: '2024-01-01' },
      ],
    });
    const moved = await call(ctx.app, ctx.adminToken, 'PUT', `/api/auditor/${lead.id}`, moveTo);
    expect(moved.statusCode).toBe(422);
    expect(moved.json()).toMatchObject({
      errors: { company_id: expect.stringMatching(/rencana audit perusahaan ini.*tidak dapat diganti/) },
    });
    expect(
      (await call(ctx.app, ctx.adminToken, 'GET', `/api/auditor/${lead.id}`)).json<Auditor>().company_id,
    ).toBe(alfa);
    // One on no planned audit moves.
    const other = (await post(ctx.adminToken, body({ email: null, conflicts: [] }))).json<Auditor>();
    const free2 = await call(ctx.app, ctx.adminToken, 'PUT', `/api/auditor/${other.id}`, moveTo);
    expect(free2.statusCode).toBe(200);
    expect(free2.json<Auditor>().company_id).toBe(beta);
  });
});

describe('the form’s choices', () => {
  it('answers the company’s certification types and clients to a holder of `auditor`', async () => {
    const res = await call(ctx.app, editor.token, 'GET', `/api/select/audit-plan/${alfa}`);
    expect(res.statusCode).toBe(200);
    const { certification, company_certificate } = res.json<{
      certification: { id: string }[];
      company_certificate: { id: string; name: string }[];
    }>();
    expect(certification.map((c) => c.id)).toEqual([typeAlfa]);
    expect(company_certificate.map((c) => c.name)).toContain('PT Klien Alfa');
    const { schemes, auditors } = res.json<{ schemes: { name: string }[]; auditors: { name: string }[] }>();
    expect(schemes.map((c) => c.name)).toEqual([
      expect.stringMatching(/^PT Klien \d+ - ISO 9001 \(SC-\d+\)$/),
    ]);
    expect(auditors.length).toBeGreaterThan(0);
    expect((await call(ctx.app, editor.token, 'GET', `/api/select/audit-plan/${beta}`)).statusCode).toBe(403);
  });
});
