/**
 * The demo's register data and audit plan, through their services: sites of a few clients
 * (modules/client-sites), auditors with their qualifications and a conflict of interest
 * (modules/auditors), and planned audits in every state (modules/planned-audits): planned, done
 * (through its 'Selesai' step, which records the audit done on the scheme) and cancelled. Few
 * records of each, whatever the size: single writes, as the staff make them.
 */
import { and, asc, eq, notInArray } from 'drizzle-orm';
import { addDays } from '@sertifikasi/shared-contracts';
import { schemes } from '../db/schema';
import { createAuditor } from '../modules/auditors/auditors.service';
import { createSite } from '../modules/client-sites/client-sites.service';
import {
  cancelPlannedAudit,
  completePlannedAudit,
  createPlannedAudit,
} from '../modules/planned-audits/planned-audits.service';
import { PLACES } from './data';
import { type Body, type Client, type DemoWriter, digits, personName } from './writer';

/** Clients of each body given a second site ('Lokasi'). */
const SITES_PER_BODY = 3;
/** The planned audits of each body: their state and how many days from today they start. */
const PLANS = [
  { state: 'DONE', start: -40 },
  { state: 'DONE', start: -12 },
  { state: 'CANCELLED', start: 9 },
  { state: 'PLANNED', start: 16 },
  { state: 'PLANNED', start: 30 },
] as const;

export interface AuditPlanCounts {
  sites: number;
  auditors: number;
  plannedAudits: number;
}

/** Sites, auditors and planned audits of every body; answers how many of each were written. */
export async function writeAuditPlan(
  w: DemoWriter,
  bodies: Body[],
  clients: Client[],
): Promise<AuditPlanCounts> {
  const { rnd, today } = w;
  const counts: AuditPlanCounts = { sites: 0, auditors: 0, plannedAudits: 0 };
  for (const [b, body] of bodies.entries()) {
    const own = clients.filter((c) => c.body === b);
    for (const client of own.slice(0, SITES_PER_BODY)) {
      const place = rnd.pick(PLACES);
      await createSite(body.ctx, {
        client_id: client.id,
        name: `Pabrik ${place.city}`,
        address: `Kawasan Industri ${place.city} Kav. ${rnd.between(1, 90)}`,
        city: place.city,
        province: place.province,
        postcode: place.postal,
        country: 'ID',
      });
      counts.sites++;
    }
    // Every sector code the body's clients are in: its auditors cover them all.
    const sectors = [...new Set(own.flatMap((c) => c.sectorCodes))].sort((x, y) => x - y);
    const qualified = (role: 'LEAD_AUDITOR' | 'AUDITOR', until: string | null) =>
      body.types.map((t) => ({
        certification_id: t.id,
        role,
        sector_codes: sectors,
        valid_from: addDays(today, -rnd.between(400, 1500)),
        valid_until: until,
      }));
    // The last client is the one an auditor once advised: a conflict of interest.
    const conflicted = own[own.length - 1]!;
    const team = [
      { role: 'LEAD_AUDITOR', until: addDays(today, 700), conflict: false },
      { role: 'LEAD_AUDITOR', until: null, conflict: false },
      { role: 'AUDITOR', until: addDays(today, 400), conflict: true },
      { role: 'AUDITOR', until: addDays(today, -30), conflict: false },
    ] as const;
    const auditorIds: string[] = [];
    for (const [i, member] of team.entries()) {
      const auditor = await createAuditor(body.ctx, {
        company_id: body.id,
        name: personName(rnd, true),
        email: null,
        phone: `08${rnd.between(11, 99)}-${digits(rnd, 4)}-${digits(rnd, 4)}`,
        employment: i % 2 ? 'EXTERNAL' : 'INTERNAL',
        active: 'true',
        qualifications: qualified(member.role, member.until),
        conflicts: member.conflict
          ? [
              {
                client_id: conflicted.id,
                reason: 'Pernah menjadi konsultan sistem manajemen klien',
                until: null,
              },
            ]
          : [],
      });
      auditorIds.push(auditor.id);
      counts.auditors++;
    }
    // Active schemes of clients without the conflict, oldest numbers first.
    const planned = await w.exec
      .select({ id: schemes.id })
      .from(schemes)
      .where(
        and(
          eq(schemes.company_id, body.id),
          eq(schemes.status, 'ACTIVE'),
          notInArray(schemes.certificate_id, [conflicted.id]),
        ),
      )
      .orderBy(asc(schemes.cert_number))
      .limit(PLANS.length);
    for (const [k, scheme] of planned.entries()) {
      const plan = PLANS[k]!;
      const start = addDays(today, plan.start);
      const created = await createPlannedAudit(body.ctx, {
        company_id: body.id,
        scheme_id: scheme.id,
        kind: 'SURVEILLANCE',
        start_date: start,
        end_date: addDays(start, 1),
        audit_days: 2,
        days_reason: 'Sesuai tinjauan permohonan dan ruang lingkup klien',
        // The auditor whose qualification has lapsed is never on a team.
        team: [
          { auditor_id: auditorIds[k % 2]!, role: 'LEAD_AUDITOR' },
          { auditor_id: auditorIds[2]!, role: 'AUDITOR' },
        ],
        notes: plan.state === 'DONE' ? 'Tidak ada ketidaksesuaian mayor' : null,
      });
      if (plan.state === 'DONE') await completePlannedAudit(body.ctx, created.id);
      if (plan.state === 'CANCELLED') await cancelPlannedAudit(body.ctx, created.id);
      counts.plannedAudits++;
    }
  }
  w.phase(
    `${counts.sites} client sites, ${counts.auditors} auditors, ${counts.plannedAudits} planned audits`,
  );
  return counts;
}
