import type { Executor } from '../db/types';
import type { EntityName } from './after-write';
import type { ServiceContext } from './context';
import { type RecordWrite, rowsById, runWriteSequence, type WriteAction } from './write-sequence';

/** What the writes of a record read one at a time by id need to know of it. */
export interface RecordWritesDef<R, A> {
  /** Its name, for the after-write steps and in the audit log alike. */
  entity: EntityName;
  /** Its audit rows are filed under no company (users and roles: they span companies). */
  noCompany?: boolean;
  /** The stored row, for the after-write steps. */
  findRow: (db: Executor, id: string) => Promise<R | null | undefined>;
  /** The record as the API answers it, for the audit log and the answer. */
  find: (db: Executor, id: string) => Promise<A | null | undefined>;
}

/**
 * The writes of a record the service writes one at a time (users, roles, companies): each call runs
 * `write` (its statements, join tables included: a user's companies, a role's permissions) through
 * the one write sequence (services/write-sequence.ts), the stored rows and answers read back by id.
 */
export function recordWrites<R, A>(def: RecordWritesDef<R, A>) {
  return (
    ctx: ServiceContext,
    action: WriteAction,
    writes: RecordWrite<R>[],
    write: () => Promise<unknown>,
  ): Promise<A[]> =>
    runWriteSequence<R, A>(ctx, {
      entity: def.entity,
      auditEntity: def.entity,
      action,
      writes: def.noCompany ? writes.map((w) => ({ ...w, companyId: null })) : writes,
      write: async () => {
        await write();
      },
      stored: async (ids) => rowsById(ids, (id) => def.findRow(ctx.tx, id)),
      answers: async (ids) => rowsById(ids, (id) => def.find(ctx.tx, id)),
    });
}
