/**
 * What follows a planned audit's writes: the team's messages in the outbox with their iCalendar
 * (read back with ical.js: one UID, SEQUENCE rising, METHOD:CANCEL at the end), the webhook events,
 * 'Selesai' recording the audit done so that the scheme's next item due moves on, and the audit log.
 */
import { and, asc, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import type { Auditor, PlannedAudit, SchemeAudit } from '@sertifikasi/shared-contracts';
import { auditLog, mailOutbox, schemeCycleDue, webhookDeliveries } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';

/** 10:00 in Jakarta on 1 March 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
let alfa: string;
let type: string;
let scheme: string;
let lead: Auditor;
let member: Auditor;
let quiet: Auditor;

const auditor = async (name: string, email: string | null) =>
  (
    await call(ctx.app, ctx.adminToken, 'POST', '/api/auditor', {
      company_id: alfa,
      name,
      email,
      employment: 'EXTERNAL',
      qualifications: [
        { certification_id: type, role: 'LEAD_AUDITOR', sector_codes: [], valid_from: '2024-01-01' },
      ],
    })
  ).json<Auditor>();

beforeAll(async () => {
  alfa = await ctx.make.company('PT Alfa Undangan');
  type = await ctx.make.certificationType(alfa, 'ISO 9001');
  const client = await ctx.make.client(alfa, 'PT Klien Undangan', { employees_number: 10 });
  scheme = await ctx.make.scheme({ company: alfa, type, client, issue_date: '2025-03-01' });
  lead = await auditor('Lina Lead', 'lina@auditor.co.id');
  member = await auditor('Maya Anggota', 'maya@auditor.co.id');
  quiet = await auditor('Tanpa Email', null);
  await ctx.make.webhook(alfa, undefined, [
    'audit.planned',
    'audit.updated',
    'audit.done',
    'audit.cancelled',
  ]);
});

const body = (over: Record<string, unknown> = {}) => ({
  scheme_id: scheme,
  kind: 'SURVEILLANCE',
  start_date: '2026-03-10',
  end_date: '2026-03-11',
  audit_days: 1,
  team: [
    { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
    { auditor_id: quiet.id, role: 'TRAINEE' },
  ],
  ...over,
});

/** The outbox's messages to `recipient`, oldest first, each with its calendar read back. */
async function mailsTo(recipient: string) {
  const rows = await ctx.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, recipient))
    .orderBy(asc(mailOutbox.created_at), asc(mailOutbox.id));
  const read = rows.map((row) => {
    const calendar = new ICAL.Component(ICAL.parse(row.ical!));
    const event = calendar.getFirstSubcomponent('vevent')!;
    return {
      subject: row.subject,
      kind: row.kind,
      method: calendar.getFirstPropertyValue('method'),
      uid: event.getFirstPropertyValue('uid'),
      sequence: event.getFirstPropertyValue('sequence'),
      status: event.getFirstPropertyValue('status'),
      start: String(event.getFirstPropertyValue('dtstart')),
      end: String(event.getFirstPropertyValue('dtend')),
      attendee: String(event.getFirstPropertyValue('attendee')),
    };
  });
  // The clock stands still in these tests: order by audit, then by change.
  const firstSeen = new Map<unknown, number>();
  read.forEach((m, i) => firstSeen.has(m.uid) || firstSeen.set(m.uid, i));
  return read.sort(
    (a, b) => firstSeen.get(a.uid)! - firstSeen.get(b.uid)! || Number(a.sequence) - Number(b.sequence),
  );
}

/** The webhook deliveries' event types and record ids (the clock stands still: compare them sorted). */
const events = async () =>
  (
    await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .orderBy(asc(webhookDeliveries.created_at), asc(webhookDeliveries.id))
  ).map((d) => [d.event_type, JSON.parse(d.payload).data.id as string]);

describe('who is told', () => {
  it('invites, tells of new dates and cancels with one UID, a rising SEQUENCE and METHOD:CANCEL at the end', async () => {
    const created = (
      await call(ctx.app, ctx.adminToken, 'POST', '/api/planned-audit', body())
    ).json<PlannedAudit>();
    const moved = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/planned-audit/${created.id}`,
      body({ start_date: '2026-03-16', end_date: '2026-03-17' }),
    );
    expect(moved.json<PlannedAudit>().sequence).toBe(1);
    const cancelled = await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${created.id}/cancel`);
    expect(cancelled.json<PlannedAudit>()).toMatchObject({ state: 'CANCELLED', sequence: 2 });

    const mails = await mailsTo('lina@auditor.co.id');
    expect(mails.map((m) => [m.method, m.sequence, m.status])).toEqual([
      ['REQUEST', 0, 'CONFIRMED'],
      ['REQUEST', 1, 'CONFIRMED'],
      ['CANCEL', 2, 'CANCELLED'],
    ]);
    expect(new Set(mails.map((m) => m.uid))).toEqual(
      new Set([`planned-audit-${created.id}@sistem-sertifikasi`]),
    );
    // All-day events; DTEND is the day after the last day.
    expect([mails[0]!.start, mails[0]!.end]).toEqual(['2026-03-10', '2026-03-12']);
    expect([mails[1]!.start, mails[1]!.end]).toEqual(['2026-03-16', '2026-03-18']);
    expect(mails[0]!.attendee.toLowerCase()).toBe('mailto:lina@auditor.co.id');
    expect(mails.map((m) => m.kind)).toEqual(['audit-plan', 'audit-plan', 'audit-plan']);
    expect(mails.map((m) => m.subject)).toEqual([
      'Penugasan audit: Surveilan PT Klien Undangan',
      'Perubahan jadwal audit: Surveilan PT Klien Undangan',
      'Audit dibatalkan: Surveilan PT Klien Undangan',
    ]);
    // A member without an email is told nothing; nothing is queued twice.
    expect(
      await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.company_id, alfa)),
    ).toHaveLength(3);
    // Changing or cancelling what is no longer PLANNED is refused.
    const again = await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${created.id}/cancel`);
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toHaveProperty('state');

    expect(
      (await events())
        .filter(([, id]) => id === created.id)
        .map(([t]) => t)
        .sort(),
    ).toEqual(['audit.cancelled', 'audit.planned', 'audit.updated']);
  });

  it('invites a member put on the team, cancels for one taken off, and tells no one of a change of notes', async () => {
    const created = (
      await call(
        ctx.app,
        ctx.adminToken,
        'POST',
        '/api/planned-audit',
        body({ start_date: '2026-04-06', end_date: '2026-04-06' }),
      )
    ).json<PlannedAudit>();
    const withMaya = body({
      start_date: '2026-04-06',
      end_date: '2026-04-06',
      team: [
        { auditor_id: lead.id, role: 'LEAD_AUDITOR' },
        { auditor_id: member.id, role: 'AUDITOR' },
      ],
    });
    await call(ctx.app, ctx.adminToken, 'PUT', `/api/planned-audit/${created.id}`, withMaya);
    await call(ctx.app, ctx.adminToken, 'PUT', `/api/planned-audit/${created.id}`, {
      ...withMaya,
      notes: 'Bawa APD',
    });
    await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/planned-audit/${created.id}`,
      body({ start_date: '2026-04-06', end_date: '2026-04-06' }),
    );
    const maya = await mailsTo('maya@auditor.co.id');
    expect(maya.map((m) => [m.method, m.sequence])).toEqual([
      ['REQUEST', 1],
      ['CANCEL', 3],
    ]);
    const lina = (await mailsTo('lina@auditor.co.id')).filter(
      (m) => m.uid === `planned-audit-${created.id}@sistem-sertifikasi`,
    );
    expect(lina.map((m) => [m.method, m.sequence])).toEqual([['REQUEST', 0]]);
    // Deleting a PLANNED audit cancels it for its team.
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/planned-audit/${created.id}`);
    const last = (await mailsTo('lina@auditor.co.id'))
      .filter((m) => m.uid === `planned-audit-${created.id}@sistem-sertifikasi`)
      .at(-1)!;
    expect([last.uid, last.method, last.sequence]).toEqual([
      `planned-audit-${created.id}@sistem-sertifikasi`,
      'CANCEL',
      4,
    ]);
    expect(
      (await events())
        .filter(([, id]) => id === created.id)
        .map(([t]) => t)
        .sort(),
    ).toEqual(['audit.cancelled', 'audit.planned', 'audit.updated', 'audit.updated', 'audit.updated']);
  });
});

describe('Selesai', () => {
  it('records the audit done on the scheme so that its next item due moves on', async () => {
    const due = async () =>
      (await ctx.database.db.select().from(schemeCycleDue).where(eq(schemeCycleDue.scheme_id, scheme)))[0]
        ?.due_date;
    const before = await due();
    expect(before).toBe('2026-03-01');
    const later = (
      await call(
        ctx.app,
        ctx.adminToken,
        'POST',
        '/api/planned-audit',
        body({ start_date: '2026-03-02', end_date: '2026-03-02' }),
      )
    ).json<PlannedAudit>();
    const early = await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${later.id}/done`);
    expect(early.statusCode).toBe(422);
    expect(early.json().errors).toHaveProperty('start_date');

    // Today (1 March) is its first day: it may be marked done.
    const created = (
      await call(
        ctx.app,
        ctx.adminToken,
        'POST',
        '/api/planned-audit',
        body({ start_date: '2026-02-27', end_date: '2026-03-01', notes: 'Tanpa temuan' }),
      )
    ).json<PlannedAudit>();
    const done = await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${created.id}/done`);
    expect(done.statusCode).toBe(200);
    expect(done.json<PlannedAudit>().state).toBe('DONE');
    const audits = (
      await call(ctx.app, ctx.adminToken, 'GET', `/api/company-certificate-scheme/${scheme}/audits`)
    ).json<SchemeAudit[]>();
    expect(audits[0]).toMatchObject({ kind: 'SURVEILLANCE', date: '2026-03-01', notes: 'Tanpa temuan' });
    expect(await due()).toBe('2027-03-01');
    expect(
      (await call(ctx.app, ctx.adminToken, 'POST', `/api/planned-audit/${created.id}/done`)).statusCode,
    ).toBe(422);
    expect(
      (await events())
        .filter(([, id]) => id === created.id)
        .map(([t]) => t)
        .sort(),
    ).toEqual(['audit.done', 'audit.planned']);
    const logged = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'planned-audit'), eq(auditLog.entity_id, created.id)));
    expect(logged.map((r) => r.action).sort()).toEqual(['create', 'update']);
  });
});
