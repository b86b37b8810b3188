/**
 * The one write sequence of every service (docs/architecture.md#the-api-apisrc, "Writes, one or
 * many"), for one record or many, create, update or delete alike, in the caller's transaction:
 *
 * 1. the write itself (the caller's statements: one insert for many creates);
 * 2. the after-write steps (services/after-write.ts), handed every write with the stored rows
 *    before and after (in their batch form for many writes);
 * 3. the audit log: one row per record (one insert), with the record as the API answers it before
 *    (update, delete) and after the steps (create, update): a step may change what the API answers
 *    (the signed QR);
 * 4. the answers, in the order of the writes.
 */
import {
  afterWrite,
  afterWriteMany,
  type EntityName,
  type EntityRows,
  rewrittenBySteps,
  type WriteEvent,
} from './after-write';
import { auditMany } from './audit';
import type { ServiceContext } from './context';

export type WriteAction = WriteEvent['action'];

/** One record of a write. */
export interface RecordWrite<R = unknown> {
  id: string;
  /**
   * The company its audit row is filed under; undefined: the answer's `company_id` (null when
   * the answer has none, as for users and roles).
   */
  companyId?: string | null | undefined;
  /** The stored row before the write (null on create), handed to the after-write steps. */
  current: R | null;
  /** The record as the API answered it before the write (update, delete), for the audit log. */
  before?: unknown;
  /**
   * When the write took effect, for its audit row (services/audit.ts `at`): set by a service whose
   * batch form takes writes recorded after the fact (the demo); default: the clock's now.
   */
  at?: Date | undefined;
}

export interface WriteSequence<R, A> {
  /** The record's name for the after-write steps; undefined: none run. */
  entity: EntityName | undefined;
  /** The record's name in the audit log. */
  auditEntity: string;
  action: WriteAction;
  writes: readonly RecordWrite<R>[];
  /**
   * The write itself: the statements that store (or delete) the rows. It may answer the rows as
   * stored, by id (an insert's `returning`): then `stored` is not read.
   */
  write: () => Promise<ReadonlyMap<string, R> | void>;
  /** The stored rows after the write, by id (create, update), when `write` did not answer them. */
  stored?: (ids: string[]) => Promise<ReadonlyMap<string, R>>;
  /**
   * The records as the API answers them, by id, after the steps (create, update); given the stored
   * rows handed to the steps that no step rewrote (AfterWriteStep `rewrites`), from which their
   * answers may be made instead of read (null when none were read).
   */
  answers?: (ids: string[], stored: ReadonlyMap<string, R> | null) => Promise<ReadonlyMap<string, A>>;
}

/** One write as the after-write steps receive it. */
export const writeEvent = (
  entity: EntityName,
  action: WriteAction,
  id: string,
  before: unknown,
  after: unknown,
): WriteEvent =>
  ({
    entity,
    action,
    id,
    before: (before ?? null) as EntityRows[EntityName] | null,
    after: (after ?? null) as EntityRows[EntityName] | null,
  }) as WriteEvent;

/**
 * Runs the write sequence; answers the records as the API answers them after the write, in the
 * order of `writes` (none for a delete).
 */
export async function runWriteSequence<R, A>(ctx: ServiceContext, seq: WriteSequence<R, A>): Promise<A[]> {
  const { writes, action } = seq;
  if (!writes.length) return [];
  const written = await seq.write();
  const ids = writes.map((w) => w.id);
  const deleting = action === 'delete';
  let stored: ReadonlyMap<string, R> | null = deleting ? null : (written ?? null);
  if (seq.entity) {
    if (!stored && !deleting && seq.stored) stored = await seq.stored(ids);
    const rows = stored;
    const events = writes.map((w) => writeEvent(seq.entity!, action, w.id, w.current, rows?.get(w.id)));
    if (events.length === 1) await afterWrite(ctx, events[0]!);
    else await afterWriteMany(ctx, events);
    const rewritten = rows ? rewrittenBySteps(ctx, events) : new Set<string>();
    if (rows && rewritten.size) stored = new Map([...rows].filter(([id]) => !rewritten.has(id)));
  }
  const answers = deleting || !seq.answers ? null : await seq.answers(ids, stored);
  const out = answers ? ids.map((id) => answers.get(id)!) : [];
  await auditMany(
    ctx,
    writes.map((w, i) => {
      const after = out[i];
      const answerCompany = (after as { company_id?: string | null } | undefined)?.company_id ?? null;
      return {
        action,
        entity: seq.auditEntity,
        entityId: w.id,
        companyId: w.companyId === undefined ? answerCompany : w.companyId,
        at: w.at,
        ...(action === 'create' ? {} : { before: w.before ?? null }),
        ...(deleting ? {} : { after }),
      };
    }),
  );
  return out;
}

/** The records `read` finds, by id (a service of one record at a time reads its stored row and answer so). */
export async function rowsById<T>(
  ids: readonly string[],
  read: (id: string) => Promise<T | null | undefined>,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (const id of ids) {
    const row = await read(id);
    if (row) out.set(id, row);
  }
  return out;
}
