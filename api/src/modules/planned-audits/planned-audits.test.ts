/**
 * 'Rencana Audit' routes: the audit days suggested, every refusal of the team rules at its edges
 * (422 naming the field), the list's filters, 'Kalender Auditor', and 401 / 403 / 404.
 *
 * Long file: every subject here plans audits for the one cast of auditors (a lead, a second, a
 * qualification ending, an expert, a conflict, an inactive one) and the scheme set up once.
 */
import type { Auditor, AuditorCalendar, ListResponse, PlannedAudit } from '@sertifikasi/shared-contracts';
import { call, useTestContext } from '../../../test/helpers';
import type { SignedIn } from '../../../test/fixtures';

/** 10:00 in Jakarta on 1 March 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
let alfa: string;
let beta: string;
let editor: SignedIn;
let type: string;
let client: string;
let scheme: string;
let lead: Auditor;
let second: Auditor;
let shortLived: Auditor;
let expert: Auditor;
let conflicted: Auditor;
let sleeper: Auditor;

const auditor = async (name: string, over: Record<string, unknown>) => {
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', {
    company_id: alfa,
    name,
    employment: 'INTERNAL',
    qualifications: [
      { certification_id: type, role: 'LEAD_AUDITOR', sector_codes: [28, 33], valid_from: '2024-01-01' },
    ],
    ...over,
  });
  expect(res.statusCode).toBe(201);
  return res.json<Auditor>();
};

beforeAll(async () => {
  ({ alfa, beta, editor } = await ctx.make.cast('rencana', 'Rencana', { editor: ['audit-plan'] }));
  type = await ctx.make.certificationType(alfa, 'ISO 9001');
  // 30 employees: 4 initial audit days (26-45); the scheme's own sectors 28 and 33.
  client = await ctx.make.client(alfa, 'PT Klien Rencana', { employees_number: 30 });
  scheme = await ctx.make.scheme({ company: alfa, type, client, more: { sector_codes: [28, 33] } });
  lead = await auditor('Lina Lead', { email: 'lina@auditor.co.id' });
  second = await auditor('Sari Kedua', {});
  const only28 = [{ certification_id: type, role: 'AUDITOR', sector_codes: [28], valid_from: '2024-01-01' }];
  shortLived = await auditor('Andi Singkat', {
    qualifications: [{ ...only28[0], valid_until: '2026-03-11' }],
  });
  expert = await auditor('Eko Ahli', {
    qualifications: [
      { certification_id: type, role: 'TECHNICAL_EXPERT', sector_codes: [33], valid_from: '2024-01-01' },
    ],
  });
  conflicted = await auditor('Cici Konflik', {
    conflicts: [{ client_id: client, reason: 'Konsultan klien', until: '2026-03-09' }],
  });
  sleeper = await auditor('Tono Nonaktif', { active: 'false' });
});

const plan = (over: Record<string, unknown> = {}) => ({
  scheme_id: scheme,
  kind: 'SURVEILLANCE',
  start_date: '2026-03-10',
  end_date: '2026-03-12',
  audit_days: 1.5,
  team: [{ auditor_id: lead.id, role: 'LEAD_AUDITOR' }],
  ...over,
});
const post = (payload: unknown, token = ctx.adminToken) =>
  call(ctx.app, token, 'POST', '/api/planned-audit', payload);
const refusal = async (payload: unknown) => {
  const res = await post(payload);
  expect(res.statusCode).toBe(422);
  return res.json<{ code: string; message: string; errors: Record<string, string> }>();
};
const remove = async (id: string) =>
  expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/planned-audit/${id}`)).statusCode).toBe(200);

describe('audit days', () => {
  const days = (kind: string, id = scheme) =>
    call(ctx.app, ctx.adminToken, 'GET', `/api/audit-days?scheme_id=${id}&kind=${kind}`);

  it('suggests from the client’s employees by IAF MD 5’s table: a third, two thirds, to the nearest half day', async () => {
    const surveillance = (await days('SURVEILLANCE')).json();
    expect(surveillance).toEqual({
      days: 1.5,
      basis: expect.stringMatching(/30 karyawan.*4 hari.*IAF MD 5/),
    });
    expect((await days('RECERTIFICATION')).json()).toEqual({
      days: 2.5, // 4 x 2/3 = 2.67: the nearest half day
      basis: expect.stringMatching(/dua pertiganya, dibulatkan ke setengah hari terdekat$/),
    });
    expect((await days('STAGE2')).json().days).toBe(4);
    expect((await days('STAGE1')).json().days).toBeNull();
  });

  it('has no suggestion for a client without an employee count; 422 for a scheme outside the scope or a bad kind', async () => {
    const bare = await ctx.make.scheme({ company: alfa, type });
    expect((await days('SURVEILLANCE', bare)).json()).toEqual({
      days: null,
      basis: expect.stringMatching(/belum diisi/),
    });
    expect((await days('LATER')).statusCode).toBe(422);
    const theirs = await ctx.make.scheme({ company: beta, type: await ctx.make.certificationType(beta) });
    const scoped = await call(
      ctx.app,
      editor.token,
      'GET',
      `/api/audit-days?scheme_id=${theirs}&kind=SURVEILLANCE`,
    );
    expect(scoped.json()).toMatchObject({ errors: { scheme_id: 'Skema tidak ditemukan' } });
  });
});

describe('the team rules on save', () => {
  it('plans an audit: PLANNED, sequence 0, the team named', async () => {
    const res = await post(
      plan({
        team: [
          { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
          { auditor_id: expert.id, role: 'TECHNICAL_EXPERT' },
        ],
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json<PlannedAudit>()).toMatchObject({
      state: 'PLANNED',
      sequence: 0,
      scheme: { id: scheme, client: 'PT Klien Rencana', certification: 'ISO 9001' },
      team: [
        { auditor_id: lead.id, name: 'Lina Lead', role: 'LEAD_AUDITOR' },
        { auditor_id: expert.id, name: 'Eko Ahli', role: 'TECHNICAL_EXPERT' },
      ],
    });
    await remove(res.json<PlannedAudit>().id);
  });

  it('wants exactly one lead auditor', async () => {
    const none = await refusal(plan({ team: [{ auditor_id: lead.id, role: 'AUDITOR' }] }));
    expect(none.errors.team).toMatch(/tepat satu Lead Auditor/);
    const two = await refusal(
      plan({
        team: [
          { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
          { auditor_id: second.id, role: 'LEAD_AUDITOR' },
        ],
      }),
    );
    expect(two.errors.team).toMatch(/tepat satu Lead Auditor/);
  });

  it('refuses a qualification ending the day before the audit’s last day, takes it ending on the last day', async () => {
    const team = [
      { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
      { auditor_id: shortLived.id, role: 'AUDITOR' },
    ];
    const refused = await refusal(plan({ team }));
    expect(refused.errors['team[1].auditor_id']).toMatch(/Andi Singkat tidak memiliki kualifikasi Auditor/);
    const ok = await post(plan({ team, end_date: '2026-03-11' }));
    expect(ok.statusCode).toBe(201);
    await remove(ok.json<PlannedAudit>().id);
  });

  it('wants every sector code of the scheme covered', async () => {
    const team = [
      { auditor_id: shortLived.id, role: 'AUDITOR' },
      { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
    ];
    const res = await post(plan({ team, end_date: '2026-03-11' }));
    expect(res.statusCode).toBe(201);
    await remove(res.json<PlannedAudit>().id);
    const onlyTrainee = await refusal(
      plan({ team: [{ auditor_id: shortLived.id, role: 'LEAD_AUDITOR' }], end_date: '2026-03-11' }),
    );
    expect(onlyTrainee.errors.team).toMatch(/Kode sektor 33/);
  });

  it('takes a conflict that ended the day before the start, refuses one current on the start', async () => {
    const team = [{ auditor_id: conflicted.id, role: 'LEAD_AUDITOR' }];
    const ok = await post(plan({ team }));
    expect(ok.statusCode).toBe(201);
    await remove(ok.json<PlannedAudit>().id);
    const refused = await refusal(plan({ team, start_date: '2026-03-09' }));
    expect(refused.errors['team[0].auditor_id']).toMatch(/konflik kepentingan.*Konsultan klien/);
  });

  it('refuses an inactive member, an end before the start and days below the suggestion without a reason', async () => {
    const inactive = await refusal(plan({ team: [{ auditor_id: sleeper.id, role: 'LEAD_AUDITOR' }] }));
    expect(inactive.errors['team[0].auditor_id']).toMatch(/tidak aktif/);
    const backwards = await refusal(plan({ end_date: '2026-03-09' }));
    expect(backwards.errors.end_date).toMatch(/sebelum tanggal mulai/);
    const short = await refusal(plan({ audit_days: 1 }));
    expect(short.errors.audit_days).toMatch(/di bawah saran \(1,5 hari\)|di bawah saran \(1.5 hari\)/);
    const reasoned = await post(plan({ audit_days: 1, days_reason: 'Lingkup satu lokasi' }));
    expect(reasoned.statusCode).toBe(201);
    await remove(reasoned.json<PlannedAudit>().id);
    expect((await post(plan({ audit_days: 1.25 }))).statusCode).toBe(422);
  });

  it('refuses an overlapping planned audit, naming it; back-to-back audits and cancelled ones are fine', async () => {
    const first = (await post(plan())).json<PlannedAudit>();
    const clash = await refusal(plan({ start_date: '2026-03-12', end_date: '2026-03-13' }));
    expect(clash.errors['team[0].auditor_id']).toMatch(
      /Bentrok jadwal: Lina Lead sudah bertugas pada Surveilan PT Klien Rencana, 10 Maret 2026 s.d. 12 Maret 2026/,
    );
    expect(clash.message).toMatch(/Bentrok jadwal/);
    const next = await post(plan({ start_date: '2026-03-13', end_date: '2026-03-14' }));
    expect(next.statusCode).toBe(201);
    const before = await post(plan({ start_date: '2026-03-08', end_date: '2026-03-09' }));
    expect(before.statusCode).toBe(201);
    // Changing an audit does not clash with itself.
    const same = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/planned-audit/${first.id}`,
      plan({ notes: 'Ubah' }),
    );
    expect(same.statusCode).toBe(200);
    expect(
      (await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${first.id}/cancel`)).statusCode,
    ).toBe(200);
    const freed = await post(plan({ start_date: '2026-03-11', end_date: '2026-03-12' }));
    expect(freed.statusCode).toBe(201);
    await remove(first.id);
    for (const res of [next, before, freed]) await remove(res.json<PlannedAudit>().id);
  });
});

describe('reading planned audits', () => {
  it('lists by dates, auditor and state; the calendar shows each active auditor’s days of the month', async () => {
    const march = (await post(plan())).json<PlannedAudit>();
    const april = (
      await post(
        plan({
          start_date: '2026-03-31',
          end_date: '2026-04-02',
          team: [{ auditor_id: second.id, role: 'LEAD_AUDITOR' }],
        }),
      )
    ).json<PlannedAudit>();
    const ids = async (query: string) =>
      (await call(ctx.app, ctx.adminToken, 'GET', `/api/planned-audit?company_id=${alfa}&${query}`))
        .json<ListResponse<PlannedAudit>>()
        .data.map((a) => a.id);
    expect(await ids('from=2026-04-01')).toEqual([april.id]);
    expect(await ids('to=2026-03-10&state=PLANNED')).toEqual([march.id]);
    expect(await ids(`auditor_id=${second.id}`)).toEqual([april.id]);
    expect(await ids('state=DONE')).toEqual([]);
    expect(await ids('search=Rencana')).toEqual([march.id, april.id]);

    const cal = await call(
      ctx.app,
      editor.token,
      'GET',
      `/api/auditor-calendar?company_id=${alfa}&month=2026-03`,
    );
    expect(cal.statusCode).toBe(200);
    const byName = Object.fromEntries(cal.json<AuditorCalendar>().data.map((a) => [a.name, a]));
    expect(byName['Lina Lead']).toMatchObject({
      days: ['2026-03-10', '2026-03-11', '2026-03-12'],
      audits: [{ id: march.id, kind: 'SURVEILLANCE', role: 'LEAD_AUDITOR', client: 'PT Klien Rencana' }],
    });
    expect(byName['Sari Kedua']!.days).toEqual(['2026-03-31']);
    expect(byName['Tono Nonaktif']).toBeUndefined();
    expect(byName['Eko Ahli']).toMatchObject({ days: [], audits: [] });
    const bad = await call(
      ctx.app,
      editor.token,
      'GET',
      `/api/auditor-calendar?company_id=${alfa}&month=2026-13`,
    );
    expect(bad.statusCode).toBe(422);
    // No month: this month by the app's clock in its time zone (01:00 on 1 March in Jakarta is
    // still February in UTC).
    ctx.clock.set(new Date('2026-02-28T18:00:00Z'));
    const now = await call(ctx.app, editor.token, 'GET', `/api/auditor-calendar?company_id=${alfa}`);
    expect(now.json<AuditorCalendar>()).toMatchObject({ month: '2026-03' });
    expect(now.json<AuditorCalendar>().data).toEqual(cal.json<AuditorCalendar>().data);
    ctx.clock.set(new Date('2026-03-01T03:00:00Z'));
    await remove(march.id);
    await remove(april.id);
  });

  it('keeps the list total between reads and moves it with every write, a deleted scheme’s audits too', async () => {
    const list = async (query = '') =>
      (
        await call(
          ctx.app,
          ctx.adminToken,
          'GET',
          `/api/planned-audit?company_id=${alfa}&paginate=20${query}`,
        )
      ).json<ListResponse<PlannedAudit>>();
    const before = await list();
    expect(await list()).toEqual(before);
    const a = (await post(plan())).json<PlannedAudit>();
    const other = await ctx.make.scheme({ company: alfa, type, client, more: { sector_codes: [28, 33] } });
    const b = (
      await post(
        plan({
          scheme_id: other,
          start_date: '2026-04-06',
          end_date: '2026-04-08',
          team: [{ auditor_id: lead.id, role: 'LEAD_AUDITOR' }],
        }),
      )
    ).json<PlannedAudit>();
    expect((await list()).total).toBe(before.total + 2);
    expect((await list('&state=PLANNED')).data.map((x) => x.id)).toEqual([a.id, b.id]);
    // A change shows on the kept page at once (its rows are read again), and a cancel moves the filters' totals.
    const moved = await call(ctx.app, ctx.adminToken, 'PUT', `/api/planned-audit/${a.id}`, {
      ...plan({ start_date: '2026-04-13', end_date: '2026-04-15' }),
      team: [
        { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
        { auditor_id: second.id, role: 'AUDITOR' },
      ],
    });
    expect(moved.statusCode).toBe(200);
    const page = await list('&state=PLANNED');
    expect(page.data.map((x) => [x.id, x.start_date, x.team.map((m) => m.name)])).toEqual([
      [b.id, '2026-04-06', ['Lina Lead']],
      [a.id, '2026-04-13', ['Lina Lead', 'Sari Kedua']],
    ]);
    expect((await list(`&auditor_id=${second.id}`)).data.map((x) => x.id)).toEqual([a.id]);
    expect(
      (await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${a.id}/cancel`)).statusCode,
    ).toBe(200);
    expect((await list('&state=PLANNED')).total).toBe(1);
    expect((await list('&state=CANCELLED')).data.map((x) => x.id)).toEqual([a.id]);
    // Deleting the scheme deletes its audit with it (no planned-audit write): the total moves all the same.
    expect(
      (await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company-certificate-scheme/${other}`)).statusCode,
    ).toBe(200);
    expect((await list('&state=PLANNED')).total).toBe(0);
    expect((await list()).total).toBe(before.total + 1);
    await remove(a.id);
    expect(await list()).toEqual(before);
  });

  it('draws the calendar of several auditors with audits across the month’s edges; a cancelled one is left out', async () => {
    const team = (...members: [Auditor, string][]) =>
      members.map(([m, role]) => ({ auditor_id: m.id, role }));
    const across = (
      await post(
        plan({
          start_date: '2026-02-27',
          end_date: '2026-03-02',
          team: team([lead, 'LEAD_AUDITOR'], [second, 'AUDITOR']),
        }),
      )
    ).json<PlannedAudit>();
    const out = (
      await post(
        plan({ start_date: '2026-03-30', end_date: '2026-04-02', team: team([lead, 'LEAD_AUDITOR']) }),
      )
    ).json<PlannedAudit>();
    const dropped = (
      await post(
        plan({ start_date: '2026-03-16', end_date: '2026-03-17', team: team([second, 'LEAD_AUDITOR']) }),
      )
    ).json<PlannedAudit>();
    expect(
      (await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${dropped.id}/cancel`)).statusCode,
    ).toBe(200);
    // 'Selesai' on the one begun: a done audit stays on the calendar.
    expect(
      (await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${across.id}/done`)).statusCode,
    ).toBe(200);
    const month = async (m: string) =>
      (
        await call(ctx.app, editor.token, 'GET', `/api/auditor-calendar?company_id=${alfa}&month=${m}`)
      ).json<AuditorCalendar>();
    const march = await month('2026-03');
    expect(march.data.map((a) => a.name)).toEqual([
      'Andi Singkat',
      'Cici Konflik',
      'Eko Ahli',
      'Lina Lead',
      'Sari Kedua',
    ]);
    // A page of the auditors, by name, with the list answer's count; the search is on the name.
    expect(march).toMatchObject({
      month: '2026-03',
      total: 5,
      per_page: 20,
      current_page: 1,
      last_page: 1,
      from: 1,
      to: 5,
    });
    const found = await month('2026-03&search=lina');
    expect(found).toMatchObject({ total: 1, from: 1, to: 1 });
    expect(found.data).toEqual([expect.objectContaining({ name: 'Lina Lead', days: march.data[3]!.days })]);
    expect(await month('2026-03&page=2')).toMatchObject({
      total: 5,
      current_page: 2,
      from: null,
      to: null,
      data: [],
    });
    expect(await month('2026-03&search=%25')).toMatchObject({ total: 0, data: [] });
    const byName = Object.fromEntries(march.data.map((a) => [a.name, a]));
    expect(byName['Lina Lead']).toEqual({
      id: lead.id,
      name: 'Lina Lead',
      days: ['2026-03-01', '2026-03-02', '2026-03-30', '2026-03-31'],
      audits: [
        {
          id: across.id,
          kind: 'SURVEILLANCE',
          role: 'LEAD_AUDITOR',
          state: 'DONE',
          start_date: '2026-02-27',
          end_date: '2026-03-02',
          client: 'PT Klien Rencana',
        },
        {
          id: out.id,
          kind: 'SURVEILLANCE',
          role: 'LEAD_AUDITOR',
          state: 'PLANNED',
          start_date: '2026-03-30',
          end_date: '2026-04-02',
          client: 'PT Klien Rencana',
        },
      ],
    });
    expect(byName['Sari Kedua']).toMatchObject({
      days: ['2026-03-01', '2026-03-02'],
      audits: [{ id: across.id, role: 'AUDITOR', state: 'DONE' }],
    });
    expect(byName['Eko Ahli']).toEqual({ id: expert.id, name: 'Eko Ahli', days: [], audits: [] });
    const feb = Object.fromEntries((await month('2026-02')).data.map((a) => [a.name, a]));
    expect(feb['Lina Lead']!.days).toEqual(['2026-02-27', '2026-02-28']);
    const april = Object.fromEntries((await month('2026-04')).data.map((a) => [a.name, a]));
    expect(april['Lina Lead']!.days).toEqual(['2026-04-01', '2026-04-02']);
    expect(april['Sari Kedua']!.audits).toEqual([]);
    for (const id of [across.id, out.id, dropped.id]) await remove(id);
  });

  it('answers 401 without a token, 403 without the permission or outside the scope, 404 for a record outside it', async () => {
    expect((await call(ctx.app, null, 'GET', '/api/planned-audit')).statusCode).toBe(401);
    const other = await ctx.make.user({ username: 'tanpa.rencana', keys: ['auditor'], company_ids: 'ALL' });
    expect((await call(ctx.app, other.token, 'GET', '/api/planned-audit')).statusCode).toBe(403);
    expect(
      (await call(ctx.app, other.token, 'GET', `/api/auditor-calendar?company_id=${alfa}&month=2026-03`))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(ctx.app, editor.token, 'GET', `/api/auditor-calendar?company_id=${beta}&month=2026-03`))
        .statusCode,
    ).toBe(403);
    const mine = (await post(plan())).json<PlannedAudit>();
    expect((await call(ctx.app, editor.token, 'GET', `/api/planned-audit/${mine.id}`)).statusCode).toBe(200);
    const betaType = await ctx.make.certificationType(beta, 'ISO 14001');
    const betaScheme = await ctx.make.scheme({ company: beta, type: betaType });
    const betaLead = await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', {
      company_id: beta,
      name: 'Beta Lead',
      employment: 'INTERNAL',
      qualifications: [
        { certification_id: betaType, role: 'LEAD_AUDITOR', sector_codes: [1], valid_from: '2024-01-01' },
      ],
    });
    const theirs = await post(
      plan({
        scheme_id: betaScheme,
        audit_days: 1,
        team: [{ auditor_id: betaLead.json().id, role: 'LEAD_AUDITOR' }],
      }),
    );
    expect(theirs.statusCode).toBe(201);
    const id = theirs.json<PlannedAudit>().id;
    for (const [method, url] of [
      ['GET', `/api/planned-audit/${id}`],
      ['PUT', `/api/planned-audit/${id}`],
      ['DELETE', `/api/planned-audit/${id}`],
      ['POST', `/api/planned-audit/${id}/done`],
      ['POST', `/api/planned-audit/${id}/cancel`],
    ] as const) {
      const res = await call(ctx.app, editor.token, method, url, method === 'PUT' ? plan() : undefined);
      expect([url, method, res.statusCode]).toEqual([url, method, 404]);
    }
    // A scheme outside the scope is unknown to the caller.
    const elsewhere = await post(plan({ company_id: beta }));
    expect(elsewhere.json()).toMatchObject({
      errors: { scheme_id: expect.stringMatching(/perusahaan yang sama/) },
    });
    const foreign = await post(plan({ scheme_id: betaScheme }), editor.token);
    expect(foreign.json()).toMatchObject({ errors: { scheme_id: 'Skema tidak ditemukan' } });
    await remove(mine.id);
  });
});
