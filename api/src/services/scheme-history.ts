import { and, asc, eq, sql } from 'drizzle-orm';
import {
  isCalendarDate,
  SCHEME_STATUSES,
  type SchemeHistoryEntry,
  type SchemeStatus,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import type { Clock } from '../lib/clock';
import { auditLog, schemes } from '../db/schema';
import { prepared } from '../db/prepared';

/** The audit entity of schemes (COMMON decisions): its rows hold the scheme as the API answers it. */
export const SCHEME_AUDIT_ENTITY = 'company-certificate-scheme';

/** What the derivation reads of one audit row of a scheme. */
export interface SchemeAuditRow {
  action: string;
  at: Date;
  by: string | null;
  /** `before.status` / `after.status` / `after.issue_date` of the row, when present. */
  beforeStatus: string | null;
  afterStatus: string | null;
  afterIssueDate: string | null;
}

/** The scheme as stored now: the fallback for schemes written without an audit trail (imports). */
export interface SchemeNow {
  status: string;
  issue_date: string;
  created_at: Date;
}

const isStatus = (value: unknown): value is SchemeStatus =>
  typeof value === 'string' && (SCHEME_STATUSES as readonly string[]).includes(value);

/**
 * The status changes of a scheme (docs/rules.md#status), oldest first, from its audit rows in
 * the order they were written. The creation is the first entry (from null), effective from the
 * scheme's `issue_date` at creation; every later change of `status` is an entry effective from the
 * calendar day it was made (`clock.today(at)`: in the deployment's time zone); an update that leaves the status alone adds nothing,
 * and the deletion adds nothing.
 *
 * A scheme written without an audit row for its creation (imported data) is taken to have held the
 * status its first recorded change started from (or, with no rows at all, its current status) since
 * its `issue_date`; `now` supplies those values. Pure: no database, and of the clock only its time
 * zone (the date of an instant), never the current time.
 */
export function deriveStatusHistory(
  rows: readonly SchemeAuditRow[],
  clock: Pick<Clock, 'today'>,
  now?: SchemeNow | null,
): SchemeHistoryEntry[] {
  const entries: SchemeHistoryEntry[] = [];
  let last: SchemeStatus | null = null;
  for (const row of rows) {
    if (row.action === 'create') {
      if (!isStatus(row.afterStatus)) continue;
      const issue = row.afterIssueDate ?? now?.issue_date;
      entries.push({
        from: null,
        to: row.afterStatus,
        at: row.at.toISOString(),
        effective_from: issue && isCalendarDate(issue) ? issue : clock.today(row.at),
        by: row.by,
      });
      last = row.afterStatus;
      continue;
    }
    if (row.action !== 'update' || !isStatus(row.afterStatus)) continue;
    const before: SchemeStatus | null = isStatus(row.beforeStatus) ? row.beforeStatus : last;
    if (last === null && before !== null && now) {
      // No creation row: the status before the first recorded change held from the issue date.
      entries.push({
        from: null,
        to: before,
        at: now.created_at.toISOString(),
        effective_from: now.issue_date,
        by: null,
      });
    }
    last = before ?? last;
    if (row.afterStatus === last) continue;
    entries.push({
      from: last,
      to: row.afterStatus,
      at: row.at.toISOString(),
      effective_from: clock.today(row.at),
      by: row.by,
    });
    last = row.afterStatus;
  }
  if (!entries.length && now && isStatus(now.status)) {
    entries.push({
      from: null,
      to: now.status,
      at: now.created_at.toISOString(),
      effective_from: now.issue_date,
      by: null,
    });
  }
  return entries;
}

/** What a status history reads of an audit row (SchemeAuditRow), for one scheme or many. */
export const historyColumns = {
  action: auditLog.action,
  at: auditLog.at,
  by: auditLog.actor_username,
  beforeStatus: sql<string | null>`${auditLog.before} ->> 'status'`,
  afterStatus: sql<string | null>`${auditLog.after} ->> 'status'`,
  afterIssueDate: sql<string | null>`${auditLog.after} ->> 'issue_date'`,
};

/** A history's order: oldest first; rows of one instant (never in practice) create < update < delete. */
export const historyOrder = [
  asc(auditLog.at),
  asc(sql`case ${auditLog.action} when 'create' then 0 when 'update' then 1 else 2 end`),
] as const;

const auditRowsOf = prepared('scheme-history.audit', ['entity', 'id'], (db, p, name) =>
  db
    .select(historyColumns)
    .from(auditLog)
    .where(and(eq(auditLog.entity, p.entity), eq(auditLog.entity_id, p.id)))
    .orderBy(...historyOrder)
    .prepare(name),
);

const schemeNowOf = prepared('scheme-history.scheme', ['id'], (db, p, name) =>
  db
    .select({ status: schemes.status, issue_date: schemes.issue_date, created_at: schemes.created_at })
    .from(schemes)
    .where(eq(schemes.id, p.id))
    .limit(1)
    .prepare(name),
);

/**
 * A scheme's status history, oldest first: `{from, to, at, effective_from, by}` per change of
 * status, the creation included (see deriveStatusHistory), dated with the app's clock
 * (`app.clock`, or a service context's `clock`). Does not check scope: callers find the scheme within the caller's scope
 * first. A scheme with neither audit rows nor a row of its own (unknown id) has no history ([]).
 */
export async function schemeStatusHistory(
  db: Executor,
  schemeId: string,
  clock: Pick<Clock, 'today'>,
): Promise<SchemeHistoryEntry[]> {
  const rows = (await auditRowsOf(db, { entity: SCHEME_AUDIT_ENTITY, id: schemeId })) as SchemeAuditRow[];
  const hasCreation = rows.some((r) => r.action === 'create');
  const now = hasCreation ? null : ((await schemeNowOf(db, { id: schemeId }))[0] ?? null);
  return deriveStatusHistory(rows, clock, now);
}

/**
 * The status a scheme had on `date` (`YYYY-MM-DD`) by its history (oldest first): the latest-made
 * change in effect on that day (effective_from on or before it), or null before the first one.
 * Validity on a date also needs issue_date <= date <= expired_date (docs/rules.md#status).
 */
export function statusOn(history: readonly SchemeHistoryEntry[], date: string): SchemeStatus | null {
  let status: SchemeStatus | null = null;
  for (const entry of history) {
    if (entry.effective_from <= date) status = entry.to;
  }
  return status;
}
