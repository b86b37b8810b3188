import type { Executor } from '../db';
import { insertRows } from '../db/insert-rows';
import { auditLog } from '../db/schema';
import { newId } from '../lib/crypto';
import type { Clock } from '../lib/clock';
import type { Actor } from './context';

export interface AuditEntry {
  action: 'create' | 'update' | 'delete';
  entity: string;
  entityId: string;
  companyId?: string | null;
  /** The record as the API shows it (never secrets) before and after the change. */
  before?: unknown;
  after?: unknown;
  /**
   * When the change took effect, for a change recorded after the fact (the demo's histories, written
   * in one batch); default: the clock's now.
   */
  at?: Date | undefined;
}

/**
 * Writes who changed what, in the same transaction as the change, at the app clock's instant (the
 * status history reads its dates from here).
 */
export async function audit(
  ctx: { tx: Executor; actor: Actor | null; clock: Clock },
  entry: AuditEntry,
): Promise<void> {
  await auditMany(ctx, [entry]);
}

/** `audit` for many changes of one batch: one insert (db/insert-rows.ts). */
export async function auditMany(
  ctx: { tx: Executor; actor: Actor | null; clock: Clock },
  entries: readonly AuditEntry[],
): Promise<void> {
  if (!entries.length) return;
  const at = ctx.clock.now();
  await insertRows(
    ctx.tx,
    auditLog,
    entries.map((entry) => ({
      id: newId(),
      at: entry.at ?? at,
      actor_id: ctx.actor?.user?.id ?? null,
      actor_username: ctx.actor?.user?.username ?? null,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      company_id: entry.companyId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      request_id: ctx.actor?.requestId ?? null,
      source: ctx.actor?.source ?? 'system',
    })),
  );
}
