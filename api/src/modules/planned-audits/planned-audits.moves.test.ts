/**
 * An audit whose dates change moves: 'Kalender Auditor' shows it in its new month and no longer in
 * the old, the double-booking check finds it on its new days and not on its old ones, and its team
 * rows hold its dates whoever changes them (the team's foreign key to the audit's (id, dates), ON
 * UPDATE CASCADE, which also refuses a team row with other dates).
 */
import { eq } from 'drizzle-orm';
import type { Auditor, AuditorCalendar, PlannedAudit } from '@sertifikasi/shared-contracts';
import { plannedAudits, plannedAuditTeam } from '../../db/schema';
import { pgError } from '../../lib/errors';
import { call, useTestContext } from '../../../test/helpers';

/** 10:00 in Jakarta on 1 March 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
let alfa: string;
let editor: { token: string };
let scheme: string;
let lead: Auditor;

beforeAll(async () => {
  ({ alfa, editor } = await ctx.make.cast('pindah', 'Pindah', { editor: ['audit-plan'] }));
  const type = await ctx.make.certificationType(alfa, 'ISO 9001');
  const client = await ctx.make.client(alfa, 'PT Klien Pindah', { employees_number: 30 });
  scheme = await ctx.make.scheme({ company: alfa, type, client });
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', {
    company_id: alfa,
    name: 'Lina Lead',
    employment: 'INTERNAL',
    qualifications: [
      { certification_id: type, role: 'LEAD_AUDITOR', sector_codes: [], valid_from: '2024-01-01' },
    ],
  });
  expect(res.statusCode).toBe(201);
  lead = res.json<Auditor>();
});

const plan = (start_date: string, end_date: string) => ({
  scheme_id: scheme,
  kind: 'SURVEILLANCE',
  start_date,
  end_date,
  audit_days: 1.5,
  team: [{ auditor_id: lead.id, role: 'LEAD_AUDITOR' }],
});
/** The lead's audits in the calendar of month `m`, as id and dates, and the days marked. */
const calendar = async (m: string) => {
  const res = await call(ctx.app, editor.token, 'GET', `/api/auditor-calendar?company_id=${alfa}&month=${m}`);
  expect(res.statusCode).toBe(200);
  const row = res.json<AuditorCalendar>().data.find((a) => a.id === lead.id)!;
  return { audits: row.audits.map((a) => [a.id, a.start_date, a.end_date]), days: row.days };
};
const teamDates = async (id: string) =>
  ctx.database.db
    .select({ start: plannedAuditTeam.start_date, end: plannedAuditTeam.end_date })
    .from(plannedAuditTeam)
    .where(eq(plannedAuditTeam.planned_audit_id, id));

it('moves a re-dated audit in the calendar and in the double-booking check', async () => {
  const created = await call(
    ctx.app,
    ctx.adminToken,
    'POST',
    '/api/planned-audit',
    plan('2026-03-10', '2026-03-11'),
  );
  expect(created.statusCode).toBe(201);
  const audit = created.json<PlannedAudit>();
  expect(await calendar('2026-03')).toEqual({
    audits: [[audit.id, '2026-03-10', '2026-03-11']],
    days: ['2026-03-10', '2026-03-11'],
  });
  expect((await calendar('2026-04')).audits).toEqual([]);

  const moved = await call(
    ctx.app,
    ctx.adminToken,
    'PUT',
    `/api/planned-audit/${audit.id}`,
    plan('2026-04-20', '2026-04-21'),
  );
  expect(moved.statusCode).toBe(200);
  expect(await calendar('2026-03')).toEqual({ audits: [], days: [] });
  expect(await calendar('2026-04')).toEqual({
    audits: [[audit.id, '2026-04-20', '2026-04-21']],
    days: ['2026-04-20', '2026-04-21'],
  });
  // The old days are free for the lead; the new ones are taken.
  const onOld = await call(
    ctx.app,
    ctx.adminToken,
    'POST',
    '/api/planned-audit',
    plan('2026-03-10', '2026-03-11'),
  );
  expect(onOld.statusCode).toBe(201);
  const onNew = await call(
    ctx.app,
    ctx.adminToken,
    'POST',
    '/api/planned-audit',
    plan('2026-04-21', '2026-04-22'),
  );
  expect(onNew.statusCode).toBe(422);
  expect(onNew.json().errors['team[0].auditor_id']).toMatch(
    /Bentrok jadwal: Lina Lead .*20 April 2026 s\.d\. 21 April 2026/,
  );
  for (const id of [audit.id, onOld.json<PlannedAudit>().id])
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/planned-audit/${id}`)).statusCode).toBe(200);
});

it('keeps the team rows on their audit’s dates, whoever writes them', async () => {
  const audit = (
    await call(ctx.app, ctx.adminToken, 'POST', '/api/planned-audit', plan('2026-05-04', '2026-05-05'))
  ).json<PlannedAudit>();
  expect(await teamDates(audit.id)).toEqual([{ start: '2026-05-04', end: '2026-05-05' }]);
  // The audit's dates changed outside the service (an import, a repair by hand): its team follows.
  await ctx.database.db
    .update(plannedAudits)
    .set({ start_date: '2026-06-08', end_date: '2026-06-09' })
    .where(eq(plannedAudits.id, audit.id));
  expect(await teamDates(audit.id)).toEqual([{ start: '2026-06-08', end: '2026-06-09' }]);
  expect((await calendar('2026-05')).audits).toEqual([]);
  expect((await calendar('2026-06')).days).toEqual(['2026-06-08', '2026-06-09']);
  // A team row with other dates than its audit's is refused.
  await ctx.database.db.delete(plannedAuditTeam).where(eq(plannedAuditTeam.planned_audit_id, audit.id));
  const refused = await ctx.database.db
    .insert(plannedAuditTeam)
    .values({
      planned_audit_id: audit.id,
      auditor_id: lead.id,
      role: 'LEAD_AUDITOR',
      position: 0,
      start_date: '2026-05-04',
      end_date: '2026-05-05',
    })
    .then(
      () => undefined,
      (err: unknown) => pgError(err),
    );
  expect(refused).toMatchObject({ code: '23503', constraint: 'planned_audit_team_audit_dates_fk' });
  expect((await calendar('2026-05')).audits).toEqual([]);
  expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/planned-audit/${audit.id}`)).statusCode).toBe(
    200,
  );
});
