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
import { cycleDueStep } from './cycle-due';
import { queueWebhookEvents } from '../notify/webhooks';
import { bumpListVersions, bumpListVersionsMany } from './list-versions';
import { countRegister, countRegisterMany } from './register-counts';
import { signedQrStep } from './signed-qr';
import type { AfterWriteStep, WriteEvent } from './write-event';

export type { AfterWriteStep, EntityName, EntityRows, WriteEvent } from './write-event';

/**
 * The steps, in the order they run: the register counts (services/register-counts.ts), the signed
 * QR (services/signed-qr.ts), the certification cycle's item due (services/cycle-due.ts), the
 * webhook deliveries of the record's company (notify/webhooks.ts), then a new list version for the
 * record's company (services/list-versions.ts; last, so its row lock is held for the shortest time).
 */
export const AFTER_WRITE_STEPS: readonly AfterWriteStep[] = [
  Object.assign((ctx: ServiceContext, event: WriteEvent) => countRegister(ctx, event), {
    batch: countRegisterMany,
  }),
  signedQrStep,
  cycleDueStep,
  queueWebhookEvents,
  Object.assign((ctx: ServiceContext, event: WriteEvent) => bumpListVersions(ctx, event), {
    batch: bumpListVersionsMany,
  }),
];

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
 * when it has them, else AFTER_WRITE_STEPS. A step may write derived columns of the record (the
 * signed QR): a service reads its answer back after the steps.
 */
export async function afterWrite(
  ctx: ServiceContext,
  event: WriteEvent,
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Promise<void> {
  for (const step of steps) await step(ctx, event);
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
 * the order given (the same as `afterWrite` for each write, step by step).
 */
export async function afterWriteMany(
  ctx: ServiceContext,
  events: readonly WriteEvent[],
  steps: readonly AfterWriteStep[] = ctx.afterWriteSteps ?? AFTER_WRITE_STEPS,
): Promise<void> {
  if (!events.length) return;
  for (const step of steps) {
    if (step.batch) await step.batch(ctx, events);
    else for (const event of events) await step(ctx, event);
  }
}
