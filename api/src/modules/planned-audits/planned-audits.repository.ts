/**
 * Reads of the planned audits (docs/rules.md#auditors-and-planned-audits): a planned audit as the API
 * answers it (its scheme named, its team in order), the list and its filters, what the team rules
 * read (the scheme's facts, the other PLANNED audits of the team's members), the audit-days table
 * of a company and the auditors' calendar of a month.
 */
import { and, asc, count, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import {
  ALL,
  type AuditDayBand,
  type AuditorCalendar,
  type CalendarAuditor,
  type ListQuery,
  auditDates,
  type CompanyScope,
  type ListResponse,
  longDate,
  PLANNED_AUDIT_KIND_LABELS,
  type PlannedAudit,
  type PlannedAuditKind,
  type PlannedAuditListQuery,
  type RuleAuditor,
  type RuleOtherAudit,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  auditDayBands,
  auditorConflicts,
  auditorQualifications,
  auditors,
  certificationTypes,
  clientCertificates,
  plannedAudits,
  plannedAuditTeam,
  schemes,
} from '../../db/schema';
import { prepared, preparedShapes } from '../../db/prepared';
import { inCompanies, isAnyOf, likePattern, listAnswer, listPage, searchAny } from '../../lib/list';
import type { ListCache } from '../../services/list-versions';
import type { Invitee } from '../../notify/audit-invitations';

/** What a planned audit reads of its scheme, and what the team rules and the audit days need. */
export interface SchemeFacts {
  id: string;
  company_id: string;
  certification_id: string;
  client_id: string;
  cert_number: string | null;
  client: string;
  certification: string;
  employees: number | null;
  /** The scheme's own IAF sector codes ('Kode Sektor IAF'). */
  sector_codes: number[];
  /**
   * The company's own audit-days table for the scheme's type (its rows for the type, else its rows
   * for every type); null when it has none (IAF MD 5's table applies).
   */
  day_bands: AuditDayBand[] | null;
}

const schemeSelection = {
  id: schemes.id,
  company_id: schemes.company_id,
  certification_id: schemes.certification_id,
  client_id: schemes.certificate_id,
  cert_number: schemes.cert_number,
  client: clientCertificates.name,
  certification: certificationTypes.name,
  employees: clientCertificates.employees_number,
  sector_codes: schemes.sector_codes,
  // Read with the scheme (one statement): a save's checks and the suggested days need both.
  day_bands: sql<AuditDayBand[] | null>`(
    select json_agg(json_build_object('max_employees', b.max_employees, 'days', b.days) order by b.max_employees)
    from ${auditDayBands} b
    where b.company_id = ${schemes.company_id}
      and (b.certification_id = ${schemes.certification_id}
        or (b.certification_id is null and not exists (
          select 1 from ${auditDayBands} o
          where o.company_id = ${schemes.company_id} and o.certification_id = ${schemes.certification_id})))
  )`,
};

/** A scheme in `scope` with its client, type and the company's audit-days table, or undefined. */
export async function schemeFacts(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<SchemeFacts | undefined> {
  const [row] = await db
    .select(schemeSelection)
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .where(and(eq(schemes.id, id), inCompanies(schemes.company_id, scope)));
  return row;
}

export type AuditRow = typeof plannedAudits.$inferSelect;
/** What a planned audit as answered reads besides its row. */
export const auditSelection = {
  p: plannedAudits,
  cert_number: schemes.cert_number,
  client_id: schemes.certificate_id,
  client: clientCertificates.name,
  certification: certificationTypes.name,
};

/** A member of a planned audit's team as the API answers it. */
interface TeamMember {
  auditor_id: string;
  name: string;
  role: string;
}

/** The team of the planned audit of the row, in the order written, as one JSON array (read with the row). */
const teamJson = sql<TeamMember[]>`coalesce((
  select json_agg(json_build_object('auditor_id', t.auditor_id, 'name', a.name, 'role', t.role) order by t.position)
  from ${plannedAuditTeam} t join ${auditors} a on a.id = t.auditor_id
  where t.planned_audit_id = ${plannedAudits.id}
), '[]'::json)`;

/** The list's statement before its conditions: each audit with its scheme, client, type and team. */
const auditsFrom = (db: Executor) =>
  db
    .select({ ...auditSelection, team: teamJson })
    .from(plannedAudits)
    .innerJoin(schemes, eq(schemes.id, plannedAudits.scheme_id))
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id));

/** Planned audits matching `where`, as the API answers them (each with its team, one statement), soonest first. */
async function selectAudits(
  db: Executor,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<PlannedAudit[]> {
  const base = auditsFrom(db).where(where).orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id));
  const rows = page ? await base.limit(page.limit).offset(page.offset) : await base;
  return rows.map((r) => toPlannedAudit(r, r.team));
}

/*
 * The list of one company with no filter and no search ('Rencana Audit' as it opens): prepared
 * statements, parsed and planned once per connection (db/prepared.ts), for its count, its page and
 * the page's ids kept by the list cache.
 */
const plainCount = prepared('planned-audit.plain-count', ['company'], (db, p, name) =>
  db.select({ n: count() }).from(plannedAudits).where(eq(plannedAudits.company_id, p.company)).prepare(name),
);
const plainPage = prepared('planned-audit.plain-page', ['company', 'limit', 'offset'], (db, p, name) =>
  auditsFrom(db)
    .where(eq(plannedAudits.company_id, p.company))
    .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id))
    .limit(p.limit)
    .offset(p.offset)
    .prepare(name),
);
const plainByIds = prepared('planned-audit.plain-by-ids', ['company', 'ids'], (db, p, name) =>
  auditsFrom(db)
    .where(and(eq(plannedAudits.company_id, p.company), isAnyOf(plannedAudits.id, p.ids)))
    .orderBy(asc(plannedAudits.start_date), asc(plannedAudits.id))
    .prepare(name),
);

function toPlannedAudit(
  r: { p: AuditRow; cert_number: string | null; client_id: string; client: string; certification: string },
  team: readonly TeamMember[],
): PlannedAudit {
  const { p } = r;
  return {
    id: p.id,
    company_id: p.company_id,
    scheme_id: p.scheme_id,
    scheme: {
      id: p.scheme_id,
      cert_number: r.cert_number,
      client_id: r.client_id,
      client: r.client,
      certification: r.certification,
    },
    kind: p.kind,
    start_date: p.start_date,
    end_date: p.end_date,
    audit_days: p.audit_days,
    days_reason: p.days_reason,
    team: team.map((m) => ({ auditor_id: m.auditor_id, name: m.name, role: m.role })),
    state: p.state,
    notes: p.notes,
    sequence: p.sequence,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

/** The teams of some audits (each member with name and email), by audit id, in the order written. */
export async function teamOf(db: Executor, ids: readonly string[]): Promise<Map<string, Invitee[]>> {
  const out = new Map<string, Invitee[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      audit: plannedAuditTeam.planned_audit_id,
      auditor_id: plannedAuditTeam.auditor_id,
      role: plannedAuditTeam.role,
      name: auditors.name,
      email: auditors.email,
    })
    .from(plannedAuditTeam)
    .innerJoin(auditors, eq(auditors.id, plannedAuditTeam.auditor_id))
    .where(inArray(plannedAuditTeam.planned_audit_id, [...ids]))
    .orderBy(asc(plannedAuditTeam.position));
  for (const { audit, ...member } of rows) out.set(audit, [...(out.get(audit) ?? []), member]);
  return out;
}

/** A planned audit in `scope`, or undefined. */
export async function findPlannedAudit(
  db: Executor,
  id: string,
  scope: CompanyScope,
): Promise<PlannedAudit | undefined> {
  return (
    await selectAudits(db, and(eq(plannedAudits.id, id), inCompanies(plannedAudits.company_id, scope)))
  )[0];
}

/** The stored row of a planned audit, for the after-write steps. */
export const plannedAuditRow = async (db: Executor, id: string): Promise<AuditRow | undefined> =>
  (await db.select().from(plannedAudits).where(eq(plannedAudits.id, id)))[0];

/** The list's conditions: the companies in `scope`, audits touching from..to, of an auditor, a scheme, a state. */
export function listWhere(query: PlannedAuditListQuery, scope: CompanyScope): SQL | undefined {
  const search = searchAny(query.search, [clientCertificates.name, schemes.cert_number]);
  return and(
    inCompanies(plannedAudits.company_id, scope),
    query.from ? gte(plannedAudits.end_date, query.from) : undefined,
    query.to ? lte(plannedAudits.start_date, query.to) : undefined,
    query.state ? eq(plannedAudits.state, query.state) : undefined,
    query.scheme_id ? eq(plannedAudits.scheme_id, query.scheme_id.toLowerCase()) : undefined,
    query.auditor_id
      ? sql`exists (select 1 from ${plannedAuditTeam} where ${plannedAuditTeam.planned_audit_id} = ${plannedAudits.id} and ${plannedAuditTeam.auditor_id} = ${query.auditor_id.toLowerCase()})`
      : undefined,
    search
      ? sql`${plannedAudits.scheme_id} in (select ${schemes.id} from ${schemes} join ${clientCertificates} on ${clientCertificates.id} = ${schemes.certificate_id} where ${search})`
      : undefined,
  );
}

/**
 * The planned audits of the companies in `scope`: touching from..to, of an auditor, a scheme, a
 * state (one company with none of these nor a search: prepared statements). With `cache` (the app's) and no search, the total and the page's ids are kept until a
 * planned-audit write in a company of the scope (services/list-versions.ts; its filters are the
 * audit's own columns and its team, written with it). A search reads clients' names: counted
 * every time.
 */
export async function listPlannedAudits(
  db: Executor,
  query: PlannedAuditListQuery,
  scope: CompanyScope,
  cache?: ListCache,
): Promise<ListResponse<PlannedAudit>> {
  const where = listWhere(query, scope);
  const plain =
    scope !== ALL &&
    scope.length === 1 &&
    !query.search &&
    !query.from &&
    !query.to &&
    !query.state &&
    !query.scheme_id &&
    !query.auditor_id;
  const company = plain ? scope[0] : undefined;
  const countRows = async () =>
    (company
      ? await plainCount(db, { company })
      : await db.select({ n: count() }).from(plannedAudits).where(where))[0]?.n ?? 0;
  const page = async (limit: number, offset: number) =>
    company
      ? (await plainPage(db, { company, limit, offset })).map((r) => toPlannedAudit(r, r.team))
      : selectAudits(db, where, { limit, offset });
  const byIds = async (ids: string[]) =>
    company
      ? (await plainByIds(db, { company, ids })).map((r) => toPlannedAudit(r, r.team))
      : selectAudits(db, and(where, inArray(plannedAudits.id, ids)));
  if (!cache || query.search) return listPage(query, countRows, page);
  const filters = [query.from, query.to, query.state, query.scheme_id, query.auditor_id]
    .map((v) => (v ?? '').toLowerCase())
    .join('\u0000');
  return listAnswer(query, (limit, offset) =>
    cache.read(
      db,
      { entity: 'planned-audit', scope, pattern: filters, order: 'start_date,id', limit, offset },
      {
        count: countRows,
        page,
        byIds,
        idOf: (audit) => audit.id,
      },
    ),
  );
}

/** What the team rules read of a save besides its scheme: the members and their other audits. */
export interface PlanReads {
  /** The members of the company, by id (others' ids are left out). */
  auditors: Map<string, RuleAuditor>;
  /**
   * The other PLANNED audits of the company whose dates touch the save's and whose team holds a
   * member, each named for a message ('Surveilan PT X, 10 Maret 2026 s.d. 12 Maret 2026'), soonest first.
   */
  others: RuleOtherAudit[];
}

interface ClashRow {
  id: string;
  kind: PlannedAuditKind;
  start_date: string;
  end_date: string;
  client: string;
}

/**
 * What the team rules read of the members `auditorIds` of a company's audit start..end (`selfId`:
 * the audit changed, not a clash with itself), in one statement: each member with its
 * qualifications, conflicts of interest and other PLANNED audits touching those days.
 */
export async function planReads(
  db: Executor,
  companyId: string,
  auditorIds: readonly string[],
  start: string,
  end: string,
  selfId: string | null,
): Promise<PlanReads> {
  if (!auditorIds.length) return { auditors: new Map(), others: [] };
  // The member's id in the subqueries, named with its table (a one-table select names its columns bare).
  const member = sql`${auditors}.${sql.identifier('id')}`;
  const clashes =
    end < start
      ? sql`'[]'::json`
      : sql`coalesce((
    select json_agg(json_build_object('id', p.id, 'kind', p.kind, 'start_date', p.start_date,
      'end_date', p.end_date, 'client', cc.name) order by p.start_date, p.id)
    from ${plannedAuditTeam} t
    join ${plannedAudits} p on p.id = t.planned_audit_id
    join ${schemes} s on s.id = p.scheme_id
    join ${clientCertificates} cc on cc.id = s.certificate_id
    where t.auditor_id = ${member} and p.company_id = ${companyId} and p.state = 'PLANNED'
      and p.start_date <= ${end} and p.end_date >= ${start}
      ${selfId ? sql`and p.id <> ${selfId}` : sql``}
  ), '[]'::json)`;
  const rows = await db
    .select({
      id: auditors.id,
      name: auditors.name,
      active: auditors.active,
      qualifications: sql<RuleAuditor['qualifications']>`coalesce((
        select json_agg(json_build_object('certification_id', q.certification_id, 'role', q.role,
          'sector_codes', q.sector_codes, 'valid_from', q.valid_from, 'valid_until', q.valid_until)
          order by q.position)
        from ${auditorQualifications} q where q.auditor_id = ${member}
      ), '[]'::json)`,
      conflicts: sql<RuleAuditor['conflicts']>`coalesce((
        select json_agg(json_build_object('client_id', c.client_id, 'reason', c.reason, 'until', c.until)
          order by c.position)
        from ${auditorConflicts} c where c.auditor_id = ${member}
      ), '[]'::json)`,
      clashes: sql<ClashRow[]>`${clashes}`,
    })
    .from(auditors)
    .where(and(eq(auditors.company_id, companyId), inArray(auditors.id, [...auditorIds])));
  const byAudit = new Map<string, RuleOtherAudit & { auditor_ids: string[]; key: string }>();
  for (const { clashes: theirs, ...auditor } of rows)
    for (const r of theirs) {
      const other = byAudit.get(r.id) ?? {
        label: `${PLANNED_AUDIT_KIND_LABELS[r.kind]} ${r.client}, ${longDate(r.start_date, 'id')} s.d. ${longDate(r.end_date, 'id')}`,
        start_date: r.start_date,
        end_date: r.end_date,
        auditor_ids: [],
        key: `${r.start_date} ${r.id}`,
      };
      other.auditor_ids.push(auditor.id);
      byAudit.set(r.id, other);
    }
  return {
    auditors: new Map(rows.map(({ clashes: _, ...a }) => [a.id, a])),
    others: [...byAudit.values()]
      .sort((x, y) => (x.key < y.key ? -1 : 1))
      .map(({ key: _, ...other }) => other),
  };
}

/** One auditor's audit in the calendar's answer. */
type CalendarAudit = CalendarAuditor['audits'][number];

/**
 * The calendar's statement (prepared: parsed and planned once per connection, db/prepared.ts; with
 * a search or without), answering one JSON value `{ total, rows }`: the count and the page of the
 * active auditors of a company (their (company_id, lower(name)) index), then the month's audits of
 * the company (the (company_id, dates) range index reads only the audits that overlap the month)
 * and, for each, only the page's team rows (the team's primary key: a lateral join, so that no
 * estimate of the month's audits turns it into a scan of the whole team table), grouped by auditor.
 */
const calendarPage = preparedShapes(
  'auditor-calendar.page',
  ['search'],
  ['company', 'first', 'last', 'pattern', 'limit', 'offset'],
  (db, p, on, name) => {
    const named = on.search ? sql`and a.name ilike ${p.pattern}` : sql``;
    return db
      .select({
        answer: sql<{ total: number; rows: { id: string; name: string; audits: CalendarAudit[] }[] }>`(
          with people as (
            select a.id, a.name from ${auditors} a
            where a.company_id = ${p.company} and a.active ${named}
            order by lower(a.name), a.id
            limit ${p.limit} offset ${p.offset}
          ), month_audits as (
            select t.auditor_id,
              json_agg(json_build_object('id', pa.id, 'kind', pa.kind, 'role', t.role, 'state', pa.state,
                'start_date', pa.start_date, 'end_date', pa.end_date, 'client', cc.name)
                order by pa.start_date, pa.id) as audits
            from ${plannedAudits} pa
            cross join lateral (
              select t.auditor_id, t.role from ${plannedAuditTeam} t
              where t.planned_audit_id = pa.id and t.auditor_id = any(array(select id from people))
            ) t
            join ${schemes} s on s.id = pa.scheme_id
            join ${clientCertificates} cc on cc.id = s.certificate_id
            where pa.company_id = ${p.company} and pa.state <> 'CANCELLED'
              and daterange(pa.start_date, pa.end_date, '[]') && daterange(${p.first}, ${p.last}, '[]')
            group by t.auditor_id
          )
          select json_build_object(
            'total', (select count(*) from ${auditors} a where a.company_id = ${p.company} and a.active ${named}),
            'rows', coalesce((
              select json_agg(json_build_object('id', pe.id, 'name', pe.name,
                'audits', coalesce(m.audits, '[]'::json)) order by lower(pe.name), pe.id)
              from people pe left join month_audits m on m.auditor_id = pe.id
            ), '[]'::json)))`,
      })
      .from(sql`(select 1) as one`)
      .prepare(name);
  },
);

/**
 * A page of the active auditors of a company (by name; `search` on the name) with the days of
 * `month` (`YYYY-MM`) they are on a planned or done audit, and those audits, and the total of
 * auditors: one prepared statement (calendarPage); the days are drawn from each auditor's own audits.
 */
export async function auditorCalendar(
  db: Executor,
  companyId: string,
  month: string,
  query: Pick<ListQuery, 'page' | 'paginate' | 'search'>,
): Promise<AuditorCalendar> {
  const first = `${month}-01`;
  const last = lastDayOf(month);
  const answer = await listAnswer(query, async (limit, offset) => {
    const [row] = await calendarPage(
      db,
      { search: !!query.search },
      { company: companyId, first, last, pattern: likePattern(query.search), limit, offset },
    );
    return { total: row?.answer.total ?? 0, rows: row?.answer.rows ?? [] };
  });
  return {
    month,
    ...answer,
    data: answer.data.map((person) => {
      const days = new Set<string>();
      for (const a of person.audits)
        for (const d of auditDates(
          a.start_date < first ? first : a.start_date,
          a.end_date > last ? last : a.end_date,
        ))
          days.add(d);
      return { ...person, days: [...days].sort() };
    }),
  };
}

/** The last day of a month `YYYY-MM`. */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The schemes and active auditors of the companies in `scope`, for the planned-audit form's selects. */
export async function planChoices(db: Executor, scope: CompanyScope) {
  const schemeRows = await db
    .select({
      id: schemes.id,
      company_id: schemes.company_id,
      cert_number: schemes.cert_number,
      client: clientCertificates.name,
      certification: certificationTypes.name,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .where(inCompanies(schemes.company_id, scope))
    .orderBy(sql`lower(${clientCertificates.name})`, schemes.id);
  const auditorRows = await db
    .select({ id: auditors.id, name: auditors.name, company_id: auditors.company_id })
    .from(auditors)
    .where(and(inCompanies(auditors.company_id, scope), eq(auditors.active, true)))
    .orderBy(sql`lower(${auditors.name})`, auditors.id);
  return {
    schemes: schemeRows.map((r) => ({
      id: r.id,
      company_id: r.company_id,
      name: `${r.client} - ${r.certification}${r.cert_number ? ` (${r.cert_number})` : ''}`,
    })),
    auditors: auditorRows,
  };
}
