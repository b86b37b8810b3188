/**
 * The demo's schemes, in every status and case: what each went through (its story), the audit rows
 * its status history is read from, the surveillance audits done, and some signed QR codes.
 */
import {
  addDays,
  addMonths,
  addValidity,
  CYCLE_RULES,
  daysBetween,
  type SchemeStatus,
  type ValidForType,
} from '@sertifikasi/shared-contracts';
import { type SignedFields, schemeSignedFields } from '@sertifikasi/shared-contracts/credential';
import { SCHEME_AUDIT_ENTITY } from '../services/scheme-history';
import { AUDIT_NOTES, STATUS_NOTES } from './data';
import {
  type Body,
  type Client,
  DEMO_SOURCE,
  type DemoWriter,
  dayOf,
  maxDate,
  minDate,
  signQrs,
  yearOf,
} from './writer';

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

/**
 * The schemes, in every status and case, with the audit rows their status history is read from and
 * the surveillance audits done. Some active schemes carry their signed QR; the others show
 * 'Generate QR', as schemes do before the staff make one.
 */
export async function writeSchemes(
  w: DemoWriter,
  bodies: Body[],
  clients: Client[],
): Promise<{ auditRows: number; qrs: number; statuses: Record<SchemeStatus, number> }> {
  const { rnd, today, yesterday, volume, batchRows } = w;
  const statuses: Record<SchemeStatus, number> = {
    ACTIVE: 0,
    SUSPENDED: 0,
    WITHDRAWN: 0,
    DRAFT: 0,
    NOACTIVE: 0,
  };
  let auditRows = 0;
  let auditsDone = 0;
  let schemeBatch: { qrcode: string | null }[] = [];
  /** The signed fields of the batch's schemes that get a QR (by position), null for the others. */
  let schemeQrFields: (SignedFields | null)[] = [];
  let auditBatch: object[] = [];
  let auditDoneBatch: object[] = [];
  let qrs = 0;
  const flushSchemes = async () => {
    qrs += await signQrs(w, 'company', schemeBatch, (_, i) => schemeQrFields[i] ?? null);
    await w.insertRows('schemes', schemeBatch);
    await w.insertRows('audit_log', auditBatch);
    await w.insertRows('scheme_audits', auditDoneBatch);
    schemeBatch = [];
    schemeQrFields = [];
    auditBatch = [];
    auditDoneBatch = [];
  };
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
    const id = rnd.uuid();
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
        auditDoneBatch.push({
          id: rnd.uuid(),
          scheme_id: id,
          company_id: body.id,
          kind: 'SURVEILLANCE',
          date,
          notes: rnd.chance(0.3) ? rnd.pick(AUDIT_NOTES) : null,
          created_at: w.at(date),
          updated_at: w.at(date),
        });
        auditsDone++;
      }
    }
    const seq = ++body.counters.scheme;
    const certNumber = body.seed.schemeNumber(type.code, yearOf(issue), seq);
    const scheme = {
      id,
      company_id: body.id,
      certificate_id: client.id,
      certification_id: type.id,
      accredited_id: accredited ? rnd.pick(body.accreditationBodies) : null,
      cert_number: certNumber,
      status: current.status,
      issue_date: issue,
      issue_date2: null,
      valid_for: validFor,
      valid_for_type: validForType,
      valid_date: null,
      expired_date: expired,
      surveillance_date: surveillance,
      decision_date: decision,
      is_accredited: accredited,
      description: current.desc,
      // The register data: the client's sector codes; no own scope, original date or sites.
      original_issue_date: null,
      scope: null,
      sector_codes: client.sectorCodes,
      sites: [],
      revision: 0,
      qrcode: null as string | null,
      created_at: eventTimes[0]!,
      updated_at: eventTimes[eventTimes.length - 1]!,
    };
    statuses[current.status]++;
    schemeBatch.push(scheme);
    // Every third scheme out of draft has had its QR made ('Generate QR'); the others still offer it.
    schemeQrFields.push(
      current.status !== 'DRAFT' && seq % 3 === 0
        ? schemeSignedFields({
            cert_number: certNumber,
            name: client.name,
            standard: type.name,
            issue_date: issue,
            expired_date: expired,
          })
        : null,
    );

    // The scheme as the API answers it (wire names: desc, flags as strings), at each change.
    const answer = (h: number) => ({
      ...scheme,
      qrcode: null,
      description: undefined,
      is_accredited: accredited ? 'true' : 'false',
      status: history[h]!.status,
      desc: history[h]!.desc,
      updated_at: eventTimes[h],
    });
    for (let h = 0; h < history.length; h++) {
      auditBatch.push({
        id: rnd.uuid(),
        at: eventTimes[h],
        actor_id: body.staff.id,
        actor_username: body.staff.username,
        action: h === 0 ? 'create' : 'update',
        entity: SCHEME_AUDIT_ENTITY,
        entity_id: id,
        company_id: body.id,
        before: h === 0 ? null : answer(h - 1),
        after: answer(h),
        request_id: null,
        source: DEMO_SOURCE,
      });
      auditRows++;
    }
    if (schemeBatch.length >= batchRows) await flushSchemes();
  }
  await flushSchemes();
  w.phase(
    `${volume.schemes} schemes (${qrs} with a QR), ${auditRows} audit rows and ${auditsDone} audits done`,
  );
  return { auditRows, qrs, statuses };
}
