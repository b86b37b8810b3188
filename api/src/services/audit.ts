import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db';
import { auditLog } from '../db/schema';
import { newId } from '../lib/crypto';

export interface AuditEntry {
  action: 'create' | 'update' | 'delete';
  entity: string;
  entityId: string;
  companyId?: string | null;
  /** The record as the API shows it (never secrets) before and after the change. */
  before?: unknown;
  after?: unknown;
}

/** Writes who changed what, in the same transaction as the change. */
export async function audit(tx: Executor, req: FastifyRequest | null, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    id: newId(),
    actor_id: req?.auth?.user.id ?? null,
    actor_username: req?.auth?.user.username ?? null,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    company_id: entry.companyId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    request_id: req ? String(req.id) : null,
  });
}
