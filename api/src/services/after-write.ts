/**
 * The one place where work that must follow every write of a record attaches (docs/architecture.md):
 * every service write goes through the one write sequence (services/write-sequence.ts), which after
 * the write and inside the same transaction calls `afterWrite(ctx, event)` (`afterWriteMany` for a
 * batch), running the steps below in order. A step that throws rolls the whole
 * write back. Later capabilities add a step here, not a call in every service: the register counts
 * (a scheme or training certificate created, changed, deleted, imported) and the signed QR (made
 * again whenever a signed field changes, however it changed).
 *
 * Not an event bus: a fixed, typed list, run synchronously in the writer's transaction.
 */
import type { ServiceContext } from './context';
import { CYCLE_DUE, LIST_VERSIONS, REGISTER_COUNTS } from './derived';
import { queueWebhookEvents } from '../notify/webhooks';
import { signedQrStep } from './signed-qr';
import type { AfterWriteStep, WriteEvent } from './write-event';

export type { AfterWriteStep, EntityName, EntityRows, WriteEvent } from './write-event';

/**
 * The steps, in the order they run (those of derived state declared in services/derived.ts, each
 * with its tables and rebuild): the register counts (services/register-counts.ts), the signed
 * QR (services/signed-qr.ts), the certification cycle's item due (services/cycle-due.ts), the
 * webhook deliveries of the record's company (notify/webhooks.ts), then a new list version for the
 * record's company (services/list-versions.ts; last, so its row lock is held for the shortest time).
 */
export const AFTER_WRITE_STEPS: readonly AfterWriteStep[] = [
  REGISTER_COUNTS.step,
  signedQrStep,
  CYCLE_DUE.step,
  queueWebhookEvents,
  LIST_VERSIONS.step,
];

/** Steps held back for the end of a transaction (ServiceContext `heldSteps`): a step and its writes. */
export interface HeldStep {
  step: AfterWriteStep;
  events: readonly WriteEvent[];
}

declare module './context' {
  interface ServiceContext {
    /**
     * The after-write steps of writes made with this context, instead of AFTER_WRITE_STEPS: a test
     * passes its own. Unset everywhere else. (Declared here, beside the step type, so context.ts
     * needs no import of this file.)
     */
    afterWriteSteps?: readonly AfterWriteStep[];
    /**
     * Set by a writer whose transactions run side by side (the import's chunks,
     * docs/architecture.md "Jobs"): the steps that lock rows every writer of a company shares
     * (`locksShared`: the register counts, the items-due counts, the list version) are held here
     * instead of run at the write, and the writer runs them with `runHeldSteps` just before it
     * commits, once the transaction before it has committed. Two such transactions then never wait
     * on each other's shared rows. Unset everywhere else: every step runs at its write.
     */
    heldSteps?: HeldStep[];
  }
}

/**
 * Runs every after-write step for one write, in the writer's transaction: the context's own steps
 * when it has them, else AFTER_WRITE_STEPS. A step may write derived columns of the record (the
 * signed QR): a service reads its answer back after the steps.
 */
export async function afterWrite(
  ctx: ServiceContext,
  event: WriteEvent,
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Promise<void> {
  await afterWriteMany(ctx, [event], steps);
}

/** The writes of `events` whose own record's row a step rewrites (AfterWriteStep `rewrites`), by id. */
export function rewrittenBySteps(
  ctx: ServiceContext,
  events: readonly WriteEvent[],
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Set<string> {
  const out = new Set<string>();
  for (const step of steps)
    if (step.rewrites) for (const event of events) if (step.rewrites(event)) out.add(event.id);
  return out;
}

/**
 * Runs every after-write step for many writes of one batch (an import's chunk), in the writer's
 * transaction: each step in order, through its batch form when it has one, else once per write in
 * the order given (the same as `afterWrite` for each write, step by step); a step that locks shared
 * rows is held instead when the context holds such steps (`heldSteps`).
 */
export async function afterWriteMany(
  ctx: ServiceContext,
  events: readonly WriteEvent[],
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Promise<void> {
  if (!events.length) return;
  for (const step of steps) {
    if (step.locksShared && ctx.heldSteps) ctx.heldSteps.push({ step, events });
    else await runStep(ctx, step, events);
  }
}

/** A step for writes of one batch: its batch form when it has one, else once per write in order. */
async function runStep(ctx: ServiceContext, step: AfterWriteStep, events: readonly WriteEvent[]) {
  if (step.batch && events.length > 1) await step.batch(ctx, events);
  else for (const event of events) await step(ctx, event);
}

/**
 * Runs the steps `ctx.heldSteps` holds, in the writer's transaction, and empties it: step by step
 * in the order of the list of steps (each for its writes in the order they were made), so the
 * shared rows are locked in the same order as a form's write locks them.
 */
export async function runHeldSteps(
  ctx: ServiceContext,
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Promise<void> {
  const held = ctx.heldSteps?.splice(0) ?? [];
  for (const step of steps)
    for (const entry of held) if (entry.step === step) await runStep(ctx, step, entry.events);
}
