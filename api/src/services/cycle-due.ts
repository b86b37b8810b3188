/**
 * The stored due items of the certification cycle (docs/product.md, "The certification cycle"):
 * `scheme_cycle_due` holds one row per ACTIVE or SUSPENDED scheme with what is due next and when,
 * computed by the one rule of shared-contracts (`cycleDue`), and `scheme_cycle_due_counts` how many
 * per company and due date. The schedule, its counts and the
 * dashboard card read these rows by their indexes instead of working the rule out for every scheme
 * per request.
 *
 * Kept by the after-write step `cycleDueStep` (a scheme created, changed, its status changed or
 * deleted; an audit done added, changed or deleted), in the writer's transaction, and made again
 * from the records by `rebuildCycleDue` after a bulk load (services/derived.ts). Nothing stored
 * depends on today: the state (late, soon) and whether an ACTIVE scheme has expired are comparisons
 * with today when the rows are read, so a day passing rewrites nothing.
 */
import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import { cycleDue, type CycleAudit, type CycleHistoryEntry } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { auditLog, schemeAudits, schemeCycleDue, schemeCycleDueCounts, schemes } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { ServiceContext } from './context';
import {
  deriveStatusHistory,
  SCHEME_AUDIT_ENTITY,
  type SchemeAuditRow,
  schemeStatusHistory,
} from './scheme-history';
import type { WriteEvent } from './write-event';

type SchemeRow = typeof schemes.$inferSelect;
type DueRow = typeof schemeCycleDue.$inferInsert;

/** The statuses that have an item due. */
const CYCLE_STATUSES = ['ACTIVE', 'SUSPENDED'];

/** The last surveillance and recertification audit of each scheme (what the rule reads of them). */
async function auditsOf(exec: Executor, ids: string[]): Promise<Map<string, CycleAudit[]>> {
  const byScheme = new Map<string, CycleAudit[]>();
  if (!ids.length) return byScheme;
  const rows = await exec
    .select({
      scheme_id: schemeAudits.scheme_id,
      kind: schemeAudits.kind,
      date: sql<string>`max(${schemeAudits.date})::text`,
    })
    .from(schemeAudits)
    .where(
      and(
        inArray(schemeAudits.scheme_id, ids),
        inArray(schemeAudits.kind, ['SURVEILLANCE', 'RECERTIFICATION']),
      ),
    )
    .groupBy(schemeAudits.scheme_id, schemeAudits.kind);
  for (const row of rows) {
    const list = byScheme.get(row.scheme_id) ?? [];
    list.push({ kind: row.kind, date: row.date });
    byScheme.set(row.scheme_id, list);
  }
  return byScheme;
}

const dueRow = (
  row: Pick<
    SchemeRow,
    'id' | 'company_id' | 'certification_id' | 'status' | 'issue_date' | 'decision_date' | 'expired_date'
  >,
  audits: readonly CycleAudit[],
  history: readonly CycleHistoryEntry[],
): DueRow | null => {
  const due = cycleDue(row, audits, history);
  if (!due) return null;
  return {
    scheme_id: row.id,
    company_id: row.company_id,
    certification_id: row.certification_id,
    status: row.status,
    kind: due.kind,
    due_date: due.due_date,
    expired_date: row.expired_date,
  };
};

/**
 * Works out and stores the item due of one scheme as it is now in `exec` (or removes it when the
 * scheme is gone or has nothing due). `suspendedToday`: the write being made changes the status to
 * SUSPENDED today (its audit row, which the history is read from, is written after the steps).
 */
export async function refreshCycleDue(
  exec: Executor,
  schemeId: string,
  clock: Pick<Clock, 'today'>,
  opts: { suspendedToday?: boolean } = {},
): Promise<void> {
  const [row] = await exec.select().from(schemes).where(eq(schemes.id, schemeId)).limit(1);
  const next =
    row && CYCLE_STATUSES.includes(row.status)
      ? dueRow(
          row,
          (await auditsOf(exec, [row.id])).get(row.id) ?? [],
          row.status !== 'SUSPENDED'
            ? []
            : opts.suspendedToday
              ? [{ to: 'SUSPENDED', effective_from: clock.today() }]
              : await schemeStatusHistory(exec, row.id, clock),
        )
      : null;
  const [old] = await exec
    .select({ company_id: schemeCycleDue.company_id, due_date: schemeCycleDue.due_date })
    .from(schemeCycleDue)
    .where(eq(schemeCycleDue.scheme_id, schemeId))
    .for('update');
  if (!next) {
    if (!old) return;
    await exec.delete(schemeCycleDue).where(eq(schemeCycleDue.scheme_id, schemeId));
    await addCount(exec, old, -1);
    return;
  }
  const { scheme_id: _, ...set } = next;
  await exec
    .insert(schemeCycleDue)
    .values(next)
    .onConflictDoUpdate({ target: schemeCycleDue.scheme_id, set });
  if (old && old.company_id === next.company_id && old.due_date === next.due_date) return;
  if (old) await addCount(exec, old, -1);
  await addCount(exec, next, 1);
}

/** Moves the count of items due on a day in a company. */
async function addCount(
  exec: Executor,
  at: { company_id: string; due_date: string },
  delta: 1 | -1,
): Promise<void> {
  await exec
    .insert(schemeCycleDueCounts)
    .values({ company_id: at.company_id, due_date: at.due_date, n: delta })
    .onConflictDoUpdate({
      target: [schemeCycleDueCounts.company_id, schemeCycleDueCounts.due_date],
      set: { n: sql`${schemeCycleDueCounts.n} + ${delta}` },
    });
}

/**
 * The after-write step (AFTER_WRITE_STEPS): a scheme written or an audit done written moves that
 * scheme's item due. A plain `(ctx, event)` step.
 */
export async function cycleDueStep(ctx: ServiceContext, event: WriteEvent): Promise<void> {
  if (event.entity === 'scheme') {
    const { before, after } = event;
    if (!after) {
      // The scheme is gone: refreshing finds none and removes its item and its count.
      await refreshCycleDue(ctx.tx, event.id, ctx.clock);
      return;
    }
    const moves =
      !before ||
      before.status !== after.status ||
      before.issue_date !== after.issue_date ||
      before.decision_date !== after.decision_date ||
      before.expired_date !== after.expired_date ||
      before.company_id !== after.company_id ||
      before.certification_id !== after.certification_id;
    if (!moves) return;
    const suspendedToday = !!before && before.status !== 'SUSPENDED' && after.status === 'SUSPENDED';
    await refreshCycleDue(ctx.tx, event.id, ctx.clock, { suspendedToday });
  } else if (event.entity === 'scheme-audit') {
    const ids = new Set([event.before?.scheme_id, event.after?.scheme_id].filter((id) => id !== undefined));
    for (const id of ids) await refreshCycleDue(ctx.tx, id, ctx.clock);
  }
}

// ---------------------------------------------------------------------------------------------
// Rebuild
// ---------------------------------------------------------------------------------------------

/** The audit rows of the status histories of a batch of schemes, grouped by scheme, oldest first. */
async function historyRowsOf(exec: Executor, ids: string[]): Promise<Map<string, SchemeAuditRow[]>> {
  const byScheme = new Map<string, SchemeAuditRow[]>();
  if (!ids.length) return byScheme;
  const rows = await exec
    .select({
      id: auditLog.entity_id,
      action: auditLog.action,
      at: auditLog.at,
      by: auditLog.actor_username,
      beforeStatus: sql<string | null>`${auditLog.before} ->> 'status'`,
      afterStatus: sql<string | null>`${auditLog.after} ->> 'status'`,
      afterIssueDate: sql<string | null>`${auditLog.after} ->> 'issue_date'`,
    })
    .from(auditLog)
    .where(and(eq(auditLog.entity, SCHEME_AUDIT_ENTITY), inArray(auditLog.entity_id, ids)))
    .orderBy(
      asc(auditLog.entity_id),
      asc(auditLog.at),
      asc(sql`case ${auditLog.action} when 'create' then 0 when 'update' then 1 else 2 end`),
    );
  for (const { id, ...row } of rows) {
    const list = byScheme.get(id) ?? [];
    list.push(row);
    byScheme.set(id, list);
  }
  return byScheme;
}

/** Schemes read per batch by the rebuild. */
const REBUILD_BATCH = 5000;

/**
 * Every item due again from the records, in `exec` (run it in the bulk load's transaction): the
 * ACTIVE and SUSPENDED schemes in id order, a batch at a time, each read with its last surveillance
 * or recertification audit in one query (and, for the SUSPENDED ones, their status histories in
 * another); then the counts, one pass over the items.
 */
export async function rebuildCycleDue(exec: Executor, clock: Pick<Clock, 'today'>): Promise<void> {
  await exec.delete(schemeCycleDue);
  await exec.delete(schemeCycleDueCounts);
  // Written out: inside a selected field drizzle would leave the outer column unqualified.
  const lastAudit = sql<string | null>`(select max(a.date)::text from scheme_audits a
    where a.scheme_id = "schemes"."id" and a.kind in ('SURVEILLANCE', 'RECERTIFICATION'))`;
  let last: string | null = null;
  for (;;) {
    const batch = await exec
      .select({
        id: schemes.id,
        company_id: schemes.company_id,
        certification_id: schemes.certification_id,
        status: schemes.status,
        issue_date: schemes.issue_date,
        decision_date: schemes.decision_date,
        expired_date: schemes.expired_date,
        created_at: schemes.created_at,
        last_audit: lastAudit,
      })
      .from(schemes)
      .where(and(inArray(schemes.status, CYCLE_STATUSES), last ? gt(schemes.id, last) : undefined))
      .orderBy(asc(schemes.id))
      .limit(REBUILD_BATCH);
    if (!batch.length) break;
    last = batch[batch.length - 1]!.id;
    const histories = await historyRowsOf(
      exec,
      batch.filter((s) => s.status === 'SUSPENDED').map((s) => s.id),
    );
    const rows = batch
      .map((s) =>
        dueRow(
          s,
          s.last_audit ? [{ kind: 'SURVEILLANCE', date: s.last_audit }] : [],
          s.status === 'SUSPENDED' ? deriveStatusHistory(histories.get(s.id) ?? [], clock, s) : [],
        ),
      )
      .filter((r) => r !== null);
    if (rows.length) await exec.insert(schemeCycleDue).values(rows).onConflictDoNothing();
  }
  await exec.execute(sql`
    insert into ${schemeCycleDueCounts} (company_id, due_date, n)
    select company_id, due_date, count(*) from ${schemeCycleDue} group by 1, 2`);
}

/**
 * At start: a database that has ACTIVE or SUSPENDED schemes but no item due (one migrated from
 * before the cycle existed) gets them, once. Cheap when there is nothing to do (two index probes).
 */
export async function fillCycleDueIfMissing(exec: Executor, clock: Pick<Clock, 'today'>): Promise<boolean> {
  const [due] = await exec.select({ n: count() }).from(
    exec
      .select({ one: sql`1` })
      .from(schemeCycleDue)
      .limit(1)
      .as('any_due'),
  );
  if ((due?.n ?? 0) > 0) return false;
  const [open] = await exec
    .select({ id: schemes.id })
    .from(schemes)
    .where(inArray(schemes.status, CYCLE_STATUSES))
    .limit(1);
  if (!open) return false;
  await rebuildCycleDue(exec, clock);
  return true;
}
