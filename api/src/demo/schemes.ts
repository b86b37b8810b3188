/**
 * The demo's schemes, in every status and case: what each went through (its story), written as it
 * happened through the scheme service (created, its status changed, audits done, its QR made), so
 * its audit rows, status history, items due and QR are what the services make.
 */
import {
  addDays,
  addMonths,
  addValidity,
  CYCLE_RULES,
  daysBetween,
  type SchemeAuditInput,
  type SchemeInput,
  type SchemeStatus,
  type ValidForType,
} from '@sertifikasi/shared-contracts';
import { schemeService } from '../modules/schemes/schemes.service';
import { AUDIT_NOTES, STATUS_NOTES } from './data';
import { type Body, type Client, type DemoWriter, dayOf, maxDate, minDate, yearOf } from './writer';

/** Scheme kinds written first, whatever the size, so every status and case is present. */
export const FORCED_KINDS = [
  'overdue',
  'expiring-past',
  'overdue',
  'expiring-future',
  'SUSPENDED',
  'WITHDRAWN',
  'DRAFT',
  'NOACTIVE',
  'expired',
  'reactivated',
  'draft-activated',
  'expiring-past',
  'expiring-future',
  'active',
] as const;

type Kind = (typeof FORCED_KINDS)[number] | 'SUSPENDED' | 'WITHDRAWN' | 'DRAFT' | 'NOACTIVE';

const KIND_WEIGHTS: [Kind, number][] = [
  ['active', 51],
  ['overdue', 7],
  ['expiring-past', 2],
  ['expiring-future', 2],
  ['expired', 3],
  ['reactivated', 3],
  ['draft-activated', 5],
  ['SUSPENDED', 7],
  ['WITHDRAWN', 5],
  ['DRAFT', 6],
  ['NOACTIVE', 9],
];

const VALIDITY_VARIANTS: [number, ValidForType][] = [
  [1, 'YEAR'],
  [36, 'MONTH'],
  [18, 'MONTH'],
  [730, 'DAY'],
];

/** What a scheme of a kind went through: its issue date and its statuses, oldest first. */
interface SchemeStory {
  issue: string;
  history: { status: SchemeStatus; desc: string | null }[];
  /** A surveillance was missed. */
  overdue: boolean;
}

/**
 * The story of a scheme of `kind` around today: `validity` is its validity, `vDays` that in days,
 * `survMonths` the months between surveillances.
 */
function schemeStory(
  w: DemoWriter,
  kind: Kind,
  validity: { validFor: number; validForType: ValidForType; vDays: number; survMonths: number },
): SchemeStory {
  const { rnd, today } = w;
  const { validFor, validForType, vDays, survMonths } = validity;
  const day = dayOf(today);
  const monthEnd = dayOf(addDays(addMonths(`${today.slice(0, 7)}-01`, 1), -1));
  const inMonth = (d: number) => `${today.slice(0, 7)}-${String(d).padStart(2, '0')}`;
  const beforeToday = (lo: number, hi: number) => addDays(today, -rnd.between(lo, Math.max(lo, hi)));
  let issue: string;
  let history: SchemeStory['history'];
  let overdue = false;
  switch (kind) {
    case 'overdue':
      if (vDays - 40 > survMonths * 31 + 5) {
        issue = beforeToday(survMonths * 31 + 5, vDays - 40);
        overdue = true;
      } else issue = beforeToday(7, vDays - 40);
      history = [{ status: 'ACTIVE', desc: null }];
      break;
    case 'expiring-past':
    case 'expiring-future': {
      const d = kind === 'expiring-past' ? rnd.between(1, day - 1) : rnd.between(day, monthEnd);
      issue = addValidity(inMonth(d), -validFor, validForType);
      history = [{ status: 'ACTIVE', desc: null }];
      break;
    }
    case 'expired':
      issue = addValidity(beforeToday(35, 400), -validFor, validForType);
      history = [{ status: 'ACTIVE', desc: null }];
      break;
    case 'reactivated':
      issue = beforeToday(150, vDays - 40);
      history = [
        { status: 'ACTIVE', desc: null },
        { status: 'SUSPENDED', desc: rnd.pick(STATUS_NOTES.SUSPENDED) },
        { status: 'ACTIVE', desc: null },
      ];
      break;
    case 'draft-activated':
      issue = beforeToday(7, vDays - 40);
      history = [
        { status: 'DRAFT', desc: rnd.pick(STATUS_NOTES.DRAFT) },
        { status: 'ACTIVE', desc: null },
      ];
      break;
    case 'SUSPENDED':
      issue = beforeToday(90, vDays - 10);
      history = [
        { status: 'ACTIVE', desc: null },
        { status: 'SUSPENDED', desc: rnd.pick(STATUS_NOTES.SUSPENDED) },
      ];
      break;
    case 'WITHDRAWN':
      issue = beforeToday(180, vDays + 200);
      history = [
        { status: 'ACTIVE', desc: null },
        ...(rnd.chance(0.5)
          ? [{ status: 'SUSPENDED' as const, desc: rnd.pick(STATUS_NOTES.SUSPENDED) }]
          : []),
        { status: 'WITHDRAWN', desc: rnd.pick(STATUS_NOTES.WITHDRAWN) },
      ];
      break;
    case 'NOACTIVE':
      issue = beforeToday(Math.max(60, vDays - 200), vDays + 500);
      history = [
        { status: 'ACTIVE', desc: null },
        { status: 'NOACTIVE', desc: rnd.pick(STATUS_NOTES.NOACTIVE) },
      ];
      break;
    case 'DRAFT':
      issue = beforeToday(0, 30);
      history = [{ status: 'DRAFT', desc: rnd.pick(STATUS_NOTES.DRAFT) }];
      break;
    default:
      issue = beforeToday(7, vDays - 40);
      history = [{ status: 'ACTIVE', desc: null }];
  }
  return { issue, history, overdue };
}

/** A scheme to write: its input, when it was created, its later status changes, audits done and QR. */
interface PendingScheme {
  input: SchemeInput;
  at: Date;
  changes: { status: SchemeStatus; at: Date }[];
  audits: { input: SchemeAuditInput; at: Date }[];
  /** When its QR was made ('Generate QR'), when it was. */
  qrAt: Date | null;
}

/**
 * Writes a body's pending schemes through the scheme service's batch forms, by the body's staff
 * user: the creations, then the status changes (each effective when it happened, so the status
 * history reads as the story), the audits done, and the QRs made.
 */
async function writeBatch(body: Body, batch: PendingScheme[]): Promise<void> {
  if (!batch.length) return;
  const { ctx } = body;
  const created = await schemeService.createMany(
    ctx,
    batch.map((p) => p.input),
    batch.map((p) => p.at),
  );
  const ids = created.map((c) => c.id);
  await schemeService.changeStatusMany(
    ctx,
    batch.flatMap((p, i) => p.changes.map((c) => ({ id: ids[i]!, status: c.status, at: c.at }))),
  );
  await schemeService.addAudits(
    ctx,
    batch.flatMap((p, i) => p.audits.map((a) => ({ schemeId: ids[i]!, input: a.input, at: a.at }))),
  );
  await schemeService.refreshQrMany(
    ctx,
    batch.flatMap((p, i) => (p.qrAt ? [{ id: ids[i]!, at: p.qrAt }] : [])),
  );
}

/**
 * The schemes, in every status and case, with the status changes their history is read from and
 * the surveillance audits done, each written through the scheme service. Some active schemes carry
 * their signed QR; the others show 'Generate QR', as schemes do before the staff make one.
 */
export async function writeSchemes(
  w: DemoWriter,
  bodies: Body[],
  clients: Client[],
): Promise<{ qrs: number; statuses: Record<SchemeStatus, number> }> {
  const { rnd, today, yesterday, volume, batchRows } = w;
  const statuses: Record<SchemeStatus, number> = {
    ACTIVE: 0,
    SUSPENDED: 0,
    WITHDRAWN: 0,
    DRAFT: 0,
    NOACTIVE: 0,
  };
  let changes = 0;
  let auditsDone = 0;
  let qrs = 0;
  const pending: PendingScheme[][] = bodies.map(() => []);
  const day = dayOf(today);

  for (let i = 0; i < volume.schemes; i++) {
    const client = i < volume.clients ? clients[i]! : clients[rnd.int(clients.length)]!;
    const body = bodies[client.body]!;
    const type = body.types[(client.typeStart + client.schemes++) % body.types.length]!;
    let kind: Kind = i < FORCED_KINDS.length ? FORCED_KINDS[i]! : rnd.weighted(KIND_WEIGHTS);
    if (kind === 'expiring-past' && day === 1) kind = 'expiring-future';
    const [validFor, validForType] = rnd.chance(0.1)
      ? rnd.pick(VALIDITY_VARIANTS)
      : ([type.valid_for, type.valid_for_type] as const);
    const vDays = daysBetween(addValidity(today, -validFor, validForType), today);
    /** Surveillance every 12 months (6 when the certificate is shorter than 15 months). */
    const survMonths = vDays >= 450 ? 12 : 6;
    const { issue, history, overdue } = schemeStory(w, kind, { validFor, validForType, vDays, survMonths });
    const expired = addValidity(issue, validFor, validForType);
    const current = history[history.length - 1]!;

    // Surveillance: the next one due (or, when overdue, the last one missed), before expiry.
    let surveillance: string | null = null;
    if (!body.seed.simple_dates && current.status !== 'DRAFT') {
      const due = (k: number) => addValidity(issue, k * survMonths, 'MONTH');
      let k = 1;
      if (overdue) {
        while (due(k + 1) < today) k++;
        surveillance = due(k) < today ? due(k) : null;
      } else {
        while (due(k) < today) k++;
        surveillance = due(k) < expired ? due(k) : null;
      }
    }
    const accredited = body.accreditationBodies.length > 0 && rnd.chance(0.65);

    // When each status took effect: created on (or shortly after) the issue date; a draft before it.
    const created =
      history[0]!.status === 'DRAFT' && history.length > 1
        ? addDays(issue, -rnd.between(1, 10))
        : issue >= yesterday
          ? issue
          : w.dateBetween(issue, minDate(addDays(issue, 14), yesterday));
    const eventDates = [created];
    for (let h = 1; h < history.length; h++) {
      const prev = eventDates[h - 1]!;
      const left = history.length - h;
      const latest = addDays(yesterday, -(left - 1));
      // A suspension of the last 200 days: its six-month limit is past for some, near for others.
      const earliest =
        h === 1 && kind === 'draft-activated'
          ? issue
          : kind === 'SUSPENDED'
            ? maxDate(addDays(prev, 1), addDays(today, -200))
            : addDays(prev, 1);
      const target =
        kind === 'draft-activated'
          ? minDate(addDays(issue, 5), latest)
          : kind === 'NOACTIVE'
            ? minDate(expired, latest)
            : latest;
      eventDates.push(earliest >= target ? earliest : w.dateBetween(earliest, target));
    }
    const eventTimes = eventDates.map(w.at);
    for (let h = 1; h < eventTimes.length; h++) {
      if (eventTimes[h]! <= eventTimes[h - 1]!)
        eventTimes[h] = new Date(Date.parse(eventTimes[h - 1]!) + 60_000).toISOString();
    }

    // The certification cycle (docs/product.md): the decision a few days before the issue date, and
    // a surveillance audit done near each twelve-month mark already past (until the recertification
    // takes over, 90 days before the expiry). An overdue scheme missed its last one (late); the
    // others are due at their next mark, some within 30 days.
    const audits: PendingScheme['audits'] = [];
    const decision = current.status === 'DRAFT' ? null : addDays(issue, -rnd.between(0, 7));
    if (decision && history.some((s) => s.status === 'ACTIVE')) {
      const recertFrom = addDays(expired, -CYCLE_RULES.recertificationDays);
      const marks: string[] = [];
      for (let k = 1; ; k++) {
        const mark = addMonths(decision, k * CYCLE_RULES.surveillanceMonths);
        if (mark >= today || mark >= recertFrom) break;
        marks.push(mark);
      }
      if (kind === 'overdue') marks.pop();
      for (const mark of marks) {
        const date = minDate(addDays(mark, -rnd.between(0, 20)), yesterday);
        audits.push({
          input: { kind: 'SURVEILLANCE', date, notes: rnd.chance(0.3) ? rnd.pick(AUDIT_NOTES) : null },
          at: new Date(w.at(date)),
        });
        auditsDone++;
      }
    }
    const seq = ++body.counters.scheme;
    const certNumber = body.seed.schemeNumber(type.code, yearOf(issue), seq);
    // The register data: the client's sector codes (the last forced scheme has none, as a record
    // IAF CertSearch cannot take yet), and for some a first issue years before this certificate.
    const input: SchemeInput = {
      certificate_id: client.id,
      certification_id: type.id,
      cert_number: certNumber,
      status: history[0]!.status,
      issue_date: issue,
      original_issue_date: rnd.chance(0.15)
        ? addValidity(issue, -validFor * rnd.between(1, 3), validForType)
        : null,
      valid_for: validFor,
      valid_for_type: validForType,
      surveillance_date: surveillance,
      decision_date: decision,
      is_accredited: accredited ? 'true' : 'false',
      accredited_id: accredited ? rnd.pick(body.accreditationBodies) : null,
      desc: current.desc,
      sector_codes: i === FORCED_KINDS.length - 1 ? [] : client.sectorCodes,
      sites: [],
    };
    statuses[current.status]++;
    changes += history.length - 1;
    const at = eventTimes.map((t) => new Date(t));
    // Every third scheme out of draft has had its QR made ('Generate QR'), half a minute after its
    // last change; the others still offer it.
    const qr = current.status !== 'DRAFT' && seq % 3 === 0;
    if (qr) qrs++;
    pending[client.body]!.push({
      input,
      at: at[0]!,
      changes: history.slice(1).map((h, n) => ({ status: h.status, at: at[n + 1]! })),
      audits,
      qrAt: qr ? new Date(at[at.length - 1]!.getTime() + 30_000) : null,
    });
    if (pending[client.body]!.length >= batchRows) await writeBatch(body, pending[client.body]!.splice(0));
  }
  for (const [b, body] of bodies.entries()) await writeBatch(body, pending[b]!.splice(0));
  w.phase(
    `${volume.schemes} schemes (${qrs} with a QR), ${changes} status changes and ${auditsDone} audits done`,
  );
  return { qrs, statuses };
}
