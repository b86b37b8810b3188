/**
 * The auditors' calendar of a month ('Kalender Auditor', docs/rules.md#auditors-and-planned-audits):
 * a page of a company's active auditors, each with the days of the month they are on a planned or
 * done audit and those audits.
 */
import { sql } from 'drizzle-orm';
import { type AuditorCalendar, type CalendarAuditor, type ListQuery } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { auditors, clientCertificates, plannedAudits, plannedAuditTeam, schemes } from '../../db/schema';
import { preparedShapes } from '../../db/prepared';
import { likePattern, listAnswer } from '../../lib/list';
import type { ListedEntity } from '../../services/list-versions';

/**
 * The kinds of record whose rows the calendar shows (the auditors, active or not, and their names;
 * their team rows and audits; the clients' names): an answer is kept until a write of one of them
 * (services/list-cache.ts `answer`).
 */
export const CALENDAR_SHOWS = [
  'auditor',
  'planned-audit',
  'client-certificate',
] as const satisfies readonly ListedEntity[];

/** One auditor's audit in the calendar's answer. */
type CalendarAudit = CalendarAuditor['audits'][number];

/**
 * The calendar's statement (prepared: parsed and planned once per connection, db/prepared.ts; with
 * a search or without), answering one JSON value `{ total, rows }`: the count and the page of the
 * active auditors of a company (their (company_id, lower(name)) index), then the page's auditors'
 * team rows that overlap the month (each team row holds its audit's dates: the team's (auditor_id,
 * dates) range index reads only those, however long the auditors' history), their audits by primary
 * key (CANCELLED left out), grouped by auditor.
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
            from ${plannedAuditTeam} t
            join ${plannedAudits} pa on pa.id = t.planned_audit_id
            join ${schemes} s on s.id = pa.scheme_id
            join ${clientCertificates} cc on cc.id = s.certificate_id
            where t.auditor_id = any(array(select id from people))
              and daterange(t.start_date, t.end_date, '[]') && daterange(${p.first}, ${p.last}, '[]')
              and pa.company_id = ${p.company} and pa.state <> 'CANCELLED'
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
    data: answer.data.map((person) => ({ ...person, days: daysOn(month, last, person.audits) })),
  };
}

/**
 * The days of `month` (its last day `last`) on which any of `audits` falls, in order: each audit's
 * dates clamped to the month, so only the day of the month varies (no date objects: the calendar
 * answers some hundred days a page).
 */
function daysOn(month: string, last: string, audits: readonly CalendarAudit[]): string[] {
  const prefix = `${month}-`;
  const lastDay = Number(last.slice(8));
  const on = new Array<boolean>(lastDay + 1).fill(false);
  for (const a of audits) {
    const from = a.start_date < prefix ? 1 : Number(a.start_date.slice(8));
    const to = a.end_date > last ? lastDay : Number(a.end_date.slice(8));
    for (let day = from; day <= to; day++) on[day] = true;
  }
  const days: string[] = [];
  for (let day = 1; day <= lastDay; day++) if (on[day]) days.push(prefix + String(day).padStart(2, '0'));
  return days;
}

/** The last day of a month `YYYY-MM`. */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}
