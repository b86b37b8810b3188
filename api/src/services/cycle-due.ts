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
import { and, asc, count, eq, gt, gte, inArray, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { cycleDue, type CycleAudit, type CycleHistoryEntry } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { recordSet } from '../db/insert-rows';
import { auditLog, schemeAudits, schemeCycleDue, schemeCycleDueCounts, schemes } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { ServiceContext } from './context';
import {
  deriveStatusHistory,
  historyColumns,
  historyOrder,
  SCHEME_AUDIT_ENTITY,
  type SchemeAuditRow,
} from './scheme-history';
import type { AfterWriteStep, WriteEvent } from './write-event';

type SchemeRow = typeof schemes.$inferSelect;
type DueRow = typeof schemeCycleDue.$inferInsert;

/** The statuses that have an item due. */
const CYCLE_STATUSES = ['ACTIVE', 'SUSPENDED'];

/**
 * The stored items listed on `today` (shared-contracts `isCycleListed` over the stored rows, whose
 * status is ACTIVE or SUSPENDED): SUSPENDED ones, and ACTIVE ones not yet expired. Decided in the
 * rows' indexes; what every reader of the items due (the schedule, the reminders, the digest)
 * filters by. `today`: a date, or a prepared statement's placeholder.
 */
export const cycleListedOn = (today: string | Placeholder): SQL =>
  or(eq(schemeCycleDue.status, 'SUSPENDED'), gte(schemeCycleDue.expired_date, today))!;

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
  await refreshCycleDueMany(exec, [schemeId], clock, opts.suspendedToday ? new Set([schemeId]) : new Set());
}

/**
 * `refreshCycleDue` for many schemes at once (a batch's writes), set-wise: the schemes, their last
 * audits and (for the SUSPENDED ones) their status histories read with one query each (`written`:
 * schemes as the batch just stored them, which need no reading; `created`: those of them the batch
 * created, which have no audit done, no history row and no item yet, so none is looked for), the
 * items written with one statement, the counts moved by their net change with one more. The same
 * rows and counts as refreshing each scheme in turn.
 */
export async function refreshCycleDueMany(
  exec: Executor,
  schemeIds: readonly string[],
  clock: Pick<Clock, 'today'>,
  suspendedToday: ReadonlySet<string> = new Set(),
  written: ReadonlyMap<string, SchemeRow> = new Map(),
  created: ReadonlySet<string> = new Set(),
): Promise<void> {
  const ids = [...new Set(schemeIds)];
  if (!ids.length) return;
  const unread = ids.filter((id) => !written.has(id));
  const rows = [
    ...ids.flatMap((id) => (written.has(id) ? [written.get(id)!] : [])),
    ...(unread.length ? await exec.select().from(schemes).where(inArray(schemes.id, unread)) : []),
  ];
  const open = rows.filter((r) => CYCLE_STATUSES.includes(r.status));
  const audits = await auditsOf(
    exec,
    open.filter((r) => !created.has(r.id)).map((r) => r.id),
  );
  const histories = await historyRowsOf(
    exec,
    open
      .filter((r) => r.status === 'SUSPENDED' && !suspendedToday.has(r.id) && !created.has(r.id))
      .map((r) => r.id),
  );
  const next = new Map<string, DueRow>();
  for (const row of open) {
    let history: CycleHistoryEntry[] = [];
    if (row.status === 'SUSPENDED') {
      // Effective the day of the write (its `updated_at`: today, or the day a write recorded after
      // the fact took effect, as its audit row will say).
      if (suspendedToday.has(row.id))
        history = [{ to: 'SUSPENDED', effective_from: clock.today(row.updated_at) }];
      else {
        // As schemeStatusHistory: the stored scheme stands in only when no row records its creation.
        const trail = histories.get(row.id) ?? [];
        history = deriveStatusHistory(trail, clock, trail.some((r) => r.action === 'create') ? null : row);
      }
    }
    const due = dueRow(row, audits.get(row.id) ?? [], history);
    if (due) next.set(row.id, due);
  }
  const stored = ids.filter((id) => !created.has(id));
  const old = new Map(
    (
      await exec
        .select({
          scheme_id: schemeCycleDue.scheme_id,
          company_id: schemeCycleDue.company_id,
          due_date: schemeCycleDue.due_date,
        })
        .from(schemeCycleDue)
        .where(inArray(schemeCycleDue.scheme_id, stored))
        .for('update')
    ).map((r) => [r.scheme_id, r]),
  );
  const gone = ids.filter((id) => !next.has(id) && old.has(id));
  if (gone.length) await exec.delete(schemeCycleDue).where(inArray(schemeCycleDue.scheme_id, gone));
  if (next.size)
    await exec
      .insert(schemeCycleDue)
      .select(recordSet(schemeCycleDue, [...next.values()]))
      .onConflictDoUpdate({
        target: schemeCycleDue.scheme_id,
        set: {
          company_id: sql`excluded.company_id`,
          certification_id: sql`excluded.certification_id`,
          status: sql`excluded.status`,
          kind: sql`excluded.kind`,
          due_date: sql`excluded.due_date`,
          expired_date: sql`excluded.expired_date`,
        },
      });
  // Every count a scheme in turn would touch, by its net change (a count touched is kept at 0).
  const deltas = new Map<string, { company_id: string; due_date: string; n: number }>();
  const move = (at: { company_id: string; due_date: string }, delta: number) => {
    const key = `${at.company_id} ${at.due_date}`;
    const entry = deltas.get(key) ?? { company_id: at.company_id, due_date: at.due_date, n: 0 };
    entry.n += delta;
    deltas.set(key, entry);
  };
  for (const id of ids) {
    const before = old.get(id);
    const after = next.get(id);
    if (before && after && before.company_id === after.company_id && before.due_date === after.due_date)
      continue;
    if (before) move(before, -1);
    if (after) move(after, 1);
  }
  if (deltas.size)
    await exec
      .insert(schemeCycleDueCounts)
      .select(recordSet(schemeCycleDueCounts, [...deltas.values()]))
      .onConflictDoUpdate({
        target: [schemeCycleDueCounts.company_id, schemeCycleDueCounts.due_date],
        set: { n: sql`${schemeCycleDueCounts.n} + excluded.n` },
      });
}

/**
 * The schemes a write moves the item due of, each with whether the write suspends it today: a
 * scheme written (created, deleted, or changed in a field the rule reads), or an audit done written.
 */
function cycleMoves(event: WriteEvent): { id: string; suspendedToday: boolean }[] {
  if (event.entity === 'scheme') {
    const { before, after } = event;
    // The scheme is gone: refreshing finds none and removes its item and its count.
    if (!after) return [{ id: event.id, suspendedToday: false }];
    const moves =
      !before ||
      before.status !== after.status ||
      before.issue_date !== after.issue_date ||
      before.decision_date !== after.decision_date ||
      before.expired_date !== after.expired_date ||
      before.company_id !== after.company_id ||
      before.certification_id !== after.certification_id;
    if (!moves) return [];
    const suspendedToday = !!before && before.status !== 'SUSPENDED' && after.status === 'SUSPENDED';
    return [{ id: event.id, suspendedToday }];
  }
  if (event.entity === 'scheme-audit') {
    const ids = new Set([event.before?.scheme_id, event.after?.scheme_id].filter((id) => id !== undefined));
    return [...ids].map((id) => ({ id, suspendedToday: false }));
  }
  return [];
}

/**
 * The after-write step (AFTER_WRITE_STEPS): a scheme written or an audit done written moves that
 * scheme's item due. Its batch form refreshes every scheme of a batch's writes at once (the last
 * write of a scheme says whether it was suspended today, as refreshing in turn would leave it).
 */
export const cycleDueStep: AfterWriteStep = Object.assign(
  async (ctx: ServiceContext, event: WriteEvent): Promise<void> => {
    for (const { id, suspendedToday } of cycleMoves(event))
      await refreshCycleDue(ctx.tx, id, ctx.clock, { suspendedToday });
  },
  {
    batch: async (ctx: ServiceContext, events: readonly WriteEvent[]): Promise<void> => {
      const flags = new Map<string, boolean>();
      // The rows the batch stored (the last write of each scheme), as refreshing would read them.
      const written = new Map<string, SchemeRow>();
      // The schemes the batch created and wrote nothing else about (no audit done, no other write).
      const created = new Set<string>();
      for (const event of events) {
        const creates = event.entity === 'scheme' && event.action === 'create' && !!event.after;
        for (const { id, suspendedToday } of cycleMoves(event)) {
          flags.set(id, suspendedToday);
          if (!creates) created.delete(id);
        }
        if (event.entity === 'scheme') {
          if (creates) created.add(event.id);
          else created.delete(event.id);
          if (event.after) written.set(event.id, event.after);
          else written.delete(event.id);
        }
      }
      await refreshCycleDueMany(
        ctx.tx,
        [...flags.keys()],
        ctx.clock,
        new Set([...flags].filter(([, s]) => s).map(([id]) => id)),
        written,
        created,
      );
    },
    // The items' counts per company and due date are rows every writer of the company shares.
    locksShared: true,
  },
);

// ---------------------------------------------------------------------------------------------
// Rebuild
// ---------------------------------------------------------------------------------------------

/** The audit rows of the status histories of a batch of schemes, grouped by scheme, oldest first. */
async function historyRowsOf(exec: Executor, ids: string[]): Promise<Map<string, SchemeAuditRow[]>> {
  const byScheme = new Map<string, SchemeAuditRow[]>();
  if (!ids.length) return byScheme;
  const rows = await exec
    .select({ id: auditLog.entity_id, ...historyColumns })
    .from(auditLog)
    .where(and(eq(auditLog.entity, SCHEME_AUDIT_ENTITY), inArray(auditLog.entity_id, ids)))
    .orderBy(asc(auditLog.entity_id), ...historyOrder);
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
