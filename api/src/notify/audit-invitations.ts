/**
 * Who is told of a planned audit (docs/rules.md#auditors-and-planned-audits): every team member with
 * an email gets a message through the outbox (notify/mail.ts), in the writer's transaction, with an
 * iCalendar (RFC 5545) of the audit: one UID per audit, kept across its changes; SEQUENCE its
 * change count; METHOD:REQUEST for an invitation or a change, METHOD:CANCEL with STATUS:CANCELLED
 * when it is cancelled (or the member is taken off the team).
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import {
  addDays,
  longDate,
  PLANNED_AUDIT_KIND_LABELS,
  type PlannedAudit,
  type PlannedAuditKind,
  TEAM_ROLE_LABELS,
  type TeamRole,
} from '@sertifikasi/shared-contracts';
import type { ServiceContext } from '../services/context';
import { queueMails } from './mail';

/** A member to tell: the auditor, their email and role on the audit. */
export interface Invitee {
  auditor_id: string;
  name: string;
  email: string | null;
  role: string;
}

export type InvitationMethod = 'REQUEST' | 'CANCEL';

/** The UID of an audit's calendar event: the same for every message about it. */
export const auditUid = (auditId: string): string => `planned-audit-${auditId}@sistem-sertifikasi`;

/** The bare address of `Name <address>` (MAIL_FROM) or of a bare address. */
const addressOf = (from: string): string => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
const nameOf = (from: string): string => /^\s*"?([^"<]+?)"?\s*</.exec(from)?.[1] ?? 'Sistem Sertifikasi';

const dateAt = (date: string): Date => new Date(`${date}T00:00:00Z`);

/** The iCalendar of one audit for one member: an all-day event from the start to the end date. */
export function auditCalendar(
  audit: PlannedAudit,
  member: Invitee,
  method: InvitationMethod,
  organizer: string,
  now: Date,
): string {
  const calendar = ical({
    prodId: { company: 'Sistem Sertifikasi', product: 'Rencana Audit', language: 'ID' },
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    id: auditUid(audit.id),
    sequence: audit.sequence,
    stamp: now,
    allDay: true,
    start: dateAt(audit.start_date),
    // DTEND of an all-day event is the day after its last day (RFC 5545 3.6.1).
    end: dateAt(addDays(audit.end_date, 1)),
    summary: `${PLANNED_AUDIT_KIND_LABELS[audit.kind as PlannedAuditKind]} ${audit.scheme.client}`,
    description: [
      `${audit.scheme.certification}${audit.scheme.cert_number ? ` (${audit.scheme.cert_number})` : ''}`,
      `Hari audit: ${String(audit.audit_days).replace('.', ',')}`,
      `Peran anda: ${TEAM_ROLE_LABELS[member.role as TeamRole] ?? member.role}`,
    ].join('\n'),
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: nameOf(organizer), email: addressOf(organizer) },
    attendees: member.email ? [{ name: member.name, email: member.email, rsvp: method === 'REQUEST' }] : [],
  });
  return calendar.toString();
}

/** The subject and text of a message to a member. */
function invitationText(audit: PlannedAudit, member: Invitee, method: InvitationMethod, changed: boolean) {
  const kind = PLANNED_AUDIT_KIND_LABELS[audit.kind as PlannedAuditKind];
  const dates =
    audit.start_date === audit.end_date
      ? longDate(audit.start_date, 'id')
      : `${longDate(audit.start_date, 'id')} s.d. ${longDate(audit.end_date, 'id')}`;
  const head =
    method === 'CANCEL'
      ? `Audit ${kind} ${audit.scheme.client} pada ${dates} dibatalkan untuk anda.`
      : changed
        ? `Jadwal audit ${kind} ${audit.scheme.client} berubah: kini ${dates}.`
        : `Anda ditugaskan sebagai ${TEAM_ROLE_LABELS[member.role as TeamRole] ?? member.role} pada audit ${kind} ${audit.scheme.client}, ${dates}.`;
  const subject =
    method === 'CANCEL'
      ? `Audit dibatalkan: ${kind} ${audit.scheme.client}`
      : changed
        ? `Perubahan jadwal audit: ${kind} ${audit.scheme.client}`
        : `Penugasan audit: ${kind} ${audit.scheme.client}`;
  const text = [
    `Yth. ${member.name},`,
    '',
    head,
    `Standar: ${audit.scheme.certification}${audit.scheme.cert_number ? `, sertifikat ${audit.scheme.cert_number}` : ''}.`,
    '',
    'Undangan kalender terlampir.',
  ].join('\n');
  return { subject, text };
}

/**
 * Queues one message per member with an email, each with its calendar, in the writer's
 * transaction. `changed`: an invitation that tells of new dates rather than a new assignment.
 */
export async function queueInvitations(
  ctx: ServiceContext,
  audit: PlannedAudit,
  members: readonly Invitee[],
  method: InvitationMethod,
  changed = false,
): Promise<void> {
  const now = ctx.clock.now();
  const mails = members
    .filter((m): m is Invitee & { email: string } => !!m.email)
    .map((member) => ({
      companyId: audit.company_id,
      recipient: member.email,
      ...invitationText(audit, member, method, changed),
      ical: auditCalendar(audit, member, method, ctx.config.mailFrom, now),
      dedupe: {
        record: audit.id,
        kind: 'audit-plan' as const,
        due: audit.start_date,
        step: `${member.auditor_id}:${audit.sequence}:${method}`,
      },
    }));
  await queueMails(ctx.tx, ctx.clock, mails);
}
