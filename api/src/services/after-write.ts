/**
 * The one place where work that must follow every write of a record attaches (docs/architecture.md):
 * each service, after its write and audit and inside the same transaction, calls
 * `afterWrite(ctx, event)`, which runs the steps below in order. A step that throws rolls the whole
 * write back. Later capabilities add a step here, not a call in every service: the register counts
 * (a scheme or training certificate created, changed, deleted, imported) and the signed QR (made
 * again whenever a signed field changes, however it changed).
 *
 * Not an event bus: a fixed, typed list, run synchronously in the writer's transaction.
 */
import type {
  accreditedBodies,
  certificationTypes,
  clientCertificates,
  companies,
  roles,
  schemes,
  trainingCertificates,
  users,
} from '../db/schema';
import type { ServiceContext } from './context';
import { countRegister } from './register-counts';

/** The stored row of each writable record, by its entity name. */
export interface EntityRows {
  company: typeof companies.$inferSelect;
  user: typeof users.$inferSelect;
  role: typeof roles.$inferSelect;
  'accreditation-body': typeof accreditedBodies.$inferSelect;
  'certification-type': typeof certificationTypes.$inferSelect;
  'client-certificate': typeof clientCertificates.$inferSelect;
  scheme: typeof schemes.$inferSelect;
  'training-certificate': typeof trainingCertificates.$inferSelect;
}
export type EntityName = keyof EntityRows;

/**
 * One write, as stored: the row before (null on create) and after (null on delete). A scheme's
 * status change and QR refresh are updates.
 */
export type WriteEvent = {
  [E in EntityName]: {
    entity: E;
    action: 'create' | 'update' | 'delete';
    id: string;
    before: EntityRows[E] | null;
    after: EntityRows[E] | null;
  };
}[EntityName];

export type AfterWriteStep = (ctx: ServiceContext, event: WriteEvent) => Promise<void>;

/** The steps, in the order they run. Issue 18 adds the register counts, issue 19 the signed QR. */
export const AFTER_WRITE_STEPS: readonly AfterWriteStep[] = [countRegister];

declare module './context' {
  interface ServiceContext {
    /**
     * The after-write steps of writes made with this context, instead of AFTER_WRITE_STEPS: a test
     * passes its own. Unset everywhere else. (Declared here, beside the step type, so context.ts
     * needs no import of this file.)
     */
    afterWriteSteps?: readonly AfterWriteStep[];
  }
}

/**
 * Runs every after-write step for one write, in the writer's transaction: the context's own steps
 * when it has them, else AFTER_WRITE_STEPS.
 */
export async function afterWrite(
  ctx: ServiceContext,
  event: WriteEvent,
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Promise<void> {
  for (const step of steps) await step(ctx, event);
}
