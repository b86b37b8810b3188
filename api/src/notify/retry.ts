/**
 * "Claim, try, back off": the one loop behind the mail outbox (notify/mail.ts) and the webhook
 * deliveries (notify/webhooks.ts), written once (docs/architecture.md "Notifications").
 *
 * A row is `queued` until it is `sent` or, when its retries are used up, `failed`. One call of
 * `processDue`:
 *
 * 1. claims up to `limit` queued rows whose `next_attempt_at` has come, in one short transaction:
 *    `select ... for update skip locked` (two processes never take the same row: each skips what
 *    the other holds, and a row the other already claimed no longer matches once re-read), moving
 *    `next_attempt_at` to the end of a lease and counting the try. Nothing is held while the row is
 *    tried, so a slow SMTP server or webhook receiver never keeps a transaction open;
 * 2. tries each claimed row (sends the mail, POSTs the webhook);
 * 3. records the outcome: `sent`, or the error and the next try after the backoff delay, or
 *    `failed` when there is none. A process that dies between 1 and 3 leaves the row to be tried
 *    again when its lease ends: delivery is at least once.
 *
 * It never loops on a timer of its own: the job engine (or a test) calls it.
 */
import { and, asc, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db';
import type { Clock } from '../lib/clock';

/** The columns a table of the loop has (mail_outbox, webhook_deliveries). */
export type RetryTable = PgTable & {
  id: AnyPgColumn;
  state: AnyPgColumn;
  attempts: AnyPgColumn;
  last_error: AnyPgColumn;
  next_attempt_at: AnyPgColumn;
  sent_at: AnyPgColumn;
  updated_at: AnyPgColumn;
};

/** What a try of one row came to. */
export interface TryOutcome {
  ok: boolean;
  /** Why it failed (Indonesian, shown to staff); null when it succeeded. */
  error: string | null;
}

export interface DueWork<T extends RetryTable, O extends TryOutcome> {
  table: T;
  /** How long a claimed row is kept from other processes: longer than any one try can take. */
  leaseMs: number;
  /**
   * The wait before the next try after `tries` tries (1 after the first) failed; null: no more
   * tries, the row is `failed`.
   */
  retryDelayMs(tries: number): number | null;
  /** Tries one row (sends it); never throws for a failure of the other side. */
  attempt(row: T['$inferSelect']): Promise<O>;
  /** Also written with the outcome, in its transaction (the webhook's delivery log). */
  record?(tx: Executor, row: T['$inferSelect'], outcome: O, at: Date): Promise<void>;
  /** Extra columns of the row to set with an outcome (the webhook's last status). */
  columns?(outcome: O): Partial<T['$inferInsert']>;
  /** At most this many rows a call (default 20). */
  limit?: number;
  /** Only these rows, when due ('Kirim Tes', 'Kirim Ulang'). */
  ids?: readonly string[];
}

export interface DueResult {
  /** Rows claimed and tried by this call. */
  tried: number;
  sent: number;
  /** Failed this time, to be tried again later. */
  retrying: number;
  /** Failed with no tries left. */
  failed: number;
}

/** Row shape the loop reads: the common columns. */
interface Claimed {
  id: string;
  attempts: number;
}

/** What else a claim asks of the rows it takes (the webhook senders' lanes, notify/webhook-delivery.ts). */
export interface ClaimFilter {
  /** A further condition on the rows (not those of a paused endpoint). */
  where?: SQL | undefined;
  /** At most one row for each value of this column, the one due first (one delivery per endpoint). */
  onePer?: AnyPgColumn;
}

/** Claims the due rows (see the file's comment, step 1). */
export async function claimDue<T extends RetryTable>(
  db: Db,
  work: DueWork<T, TryOutcome>,
  now: Date,
  filter: ClaimFilter = {},
): Promise<T['$inferSelect'][]> {
  const { table } = work;
  const due = and(
    eq(table.state, 'queued'),
    lte(table.next_attempt_at, now),
    work.ids ? inArray(table.id, [...work.ids]) : undefined,
    filter.where,
  );
  // The first due row of each value of `onePer`; the outer condition repeats `due`, so a row that
  // another process claimed meanwhile no longer matches once re-read.
  const first = filter.onePer
    ? sql`${table.id} in (select ranked.id from (select ${table.id} as id, row_number() over (partition by ${filter.onePer} order by ${table.next_attempt_at}, ${table.id}) as n from ${table} where ${due}) ranked where ranked.n = 1)`
    : undefined;
  return db.transaction(async (tx) => {
    const rows = (await tx
      .select({ id: table.id })
      // The generic table needs widening for drizzle's from() (tsc); the linter's view differs.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      .from(table as PgTable)
      .where(and(due, first))
      .orderBy(asc(table.next_attempt_at))
      .limit(work.limit ?? 20)
      .for('update', { skipLocked: true })) as { id: string }[];
    if (rows.length === 0) return [];
    const lease = new Date(now.getTime() + work.leaseMs);
    return (await tx
      .update(table)
      .set({
        next_attempt_at: lease,
        attempts: sql`${table.attempts} + 1`,
        updated_at: now,
      } as never)
      .where(
        inArray(
          table.id,
          rows.map((r) => r.id),
        ),
      )
      .returning()) as T['$inferSelect'][];
  });
}

/** Claims, tries and records the due rows of one table (see the file's comment). */
export async function processDue<T extends RetryTable, O extends TryOutcome>(
  db: Db,
  clock: Clock,
  work: DueWork<T, O>,
): Promise<DueResult> {
  const result: DueResult = { tried: 0, sent: 0, retrying: 0, failed: 0 };
  const rows = await claimDue(db, work as unknown as DueWork<T, TryOutcome>, clock.now());
  for (const row of rows) await tryClaimed(db, clock, work, row, result);
  return result;
}

/** Tries one claimed row and records the outcome (see the file's comment, steps 2 and 3), counted in `result`. */
export async function tryClaimed<T extends RetryTable, O extends TryOutcome>(
  db: Db,
  clock: Clock,
  work: DueWork<T, O>,
  row: T['$inferSelect'],
  result: DueResult,
): Promise<void> {
  const claimed = row as unknown as Claimed;
  result.tried++;
  const outcome = await work.attempt(row);
  const at = clock.now();
  const delay = outcome.ok ? null : work.retryDelayMs(claimed.attempts);
  const state = outcome.ok ? 'sent' : delay === null ? 'failed' : 'queued';
  result[state === 'sent' ? 'sent' : state === 'failed' ? 'failed' : 'retrying']++;
  await db.transaction(async (tx) => {
    await tx
      .update(work.table)
      .set({
        state,
        last_error: outcome.error,
        updated_at: at,
        ...(outcome.ok ? { sent_at: at } : {}),
        ...(delay !== null ? { next_attempt_at: new Date(at.getTime() + delay) } : {}),
        ...(work.columns?.(outcome) ?? {}),
      } as never)
      // Only while the row is still ours: a 'Kirim Ulang' meanwhile started it afresh.
      .where(and(eq(work.table.id, claimed.id), eq(work.table.attempts, claimed.attempts)));
    await work.record?.(tx, row, outcome, at);
  });
}

/**
 * Puts a row in one of the states `from` (sent or failed by default) back in the queue, to be tried
 * at `now` with its retries afresh ('Kirim Ulang'). Answers false when the row is in none of them
 * (still queued: it will be tried anyway).
 */
export async function requeue<T extends RetryTable>(
  db: Executor,
  table: T,
  id: string,
  now: Date,
  from: readonly ('sent' | 'failed')[] = ['sent', 'failed'],
): Promise<boolean> {
  const rows = await db
    .update(table)
    .set({ state: 'queued', attempts: 0, next_attempt_at: now, last_error: null, updated_at: now } as never)
    .where(and(eq(table.id, id), inArray(table.state, [...from])))
    .returning({ id: table.id });
  return rows.length > 0;
}

/** A backoff schedule as `retryDelayMs`: the delays after the 1st, 2nd... failed try, then none. */
export const scheduleOf =
  (delaysMs: readonly number[]) =>
  (tries: number): number | null =>
    delaysMs[tries - 1] ?? null;

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
