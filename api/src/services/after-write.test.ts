import type { AfterWriteStep, WriteEvent } from './after-write';
import { AFTER_WRITE_STEPS, afterWrite, afterWriteMany, runHeldSteps } from './after-write';
import { DERIVED_STATE, DERIVED_TABLES } from './derived';
import { backupTables } from './backup';
import type { ServiceContext } from './context';

/** A write as the steps receive it (which record does not matter to the runner). */
const event = (id: string): WriteEvent => ({
  entity: 'company',
  action: 'update',
  id,
  before: null,
  after: null,
});

/** The batch runner: a step's batch form when it has one, else the step once per write, in order. */
describe('afterWriteMany', () => {
  const ctx = {} as ServiceContext;

  it('hands every write to each step in turn; a step without a batch form is called per write', async () => {
    const calls: string[] = [];
    const single: AfterWriteStep = async (_ctx, e) => {
      calls.push(`single:${e.id}`);
    };
    const batched: AfterWriteStep = Object.assign(
      async (_ctx: ServiceContext, e: WriteEvent) => {
        calls.push(`one:${e.id}`);
      },
      {
        batch: async (_ctx: ServiceContext, events: readonly WriteEvent[]) => {
          calls.push(`batch:${events.map((e) => e.id).join(',')}`);
        },
      },
    );
    await afterWriteMany(ctx, [event('a'), event('b'), event('c')], [single, batched, single]);
    expect(calls).toEqual([
      'single:a',
      'single:b',
      'single:c',
      'batch:a,b,c',
      'single:a',
      'single:b',
      'single:c',
    ]);
  });

  it('runs nothing for no writes', async () => {
    const step = jest.fn(async () => undefined);
    await afterWriteMany(ctx, [], [step]);
    expect(step).not.toHaveBeenCalled();
  });
});

/** Steps held back by a writer whose transactions run side by side (the import's chunks). */
describe('held steps', () => {
  const recorder = (calls: string[], name: string, locksShared: boolean): AfterWriteStep =>
    Object.assign(
      async (_ctx: ServiceContext, e: WriteEvent) => {
        calls.push(`${name}:${e.id}`);
      },
      {
        batch: async (_ctx: ServiceContext, events: readonly WriteEvent[]) => {
          calls.push(`${name}:${events.map((e) => e.id).join(',')}`);
        },
        locksShared,
      },
    );

  it('run at the end, step by step in the order of the list, each for its writes in order', async () => {
    const calls: string[] = [];
    const counts = recorder(calls, 'counts', true);
    const qr = recorder(calls, 'qr', false);
    const version = recorder(calls, 'version', true);
    const steps = [counts, qr, version];
    const ctx = { heldSteps: [] } as unknown as ServiceContext;
    await afterWriteMany(ctx, [event('a'), event('b')], steps);
    await afterWrite(ctx, event('c'), steps);
    // At the writes, only the steps that lock nothing shared ran.
    expect(calls).toEqual(['qr:a,b', 'qr:c']);
    await runHeldSteps(ctx, steps);
    expect(calls.slice(2)).toEqual(['counts:a,b', 'counts:c', 'version:a,b', 'version:c']);
    // Held once: run again, nothing is left to run.
    await runHeldSteps(ctx, steps);
    expect(calls).toHaveLength(6);
  });

  it('without heldSteps every step runs at its write', async () => {
    const calls: string[] = [];
    const steps = [recorder(calls, 'counts', true), recorder(calls, 'qr', false)];
    await afterWrite({} as ServiceContext, event('a'), steps);
    expect(calls).toEqual(['counts:a', 'qr:a']);
  });
});

describe('derived state, declared once', () => {
  it('is kept by the write sequence and left out of every backup', () => {
    for (const state of DERIVED_STATE) expect(AFTER_WRITE_STEPS).toContain(state.step);
    const backedUp = new Set(backupTables());
    expect(DERIVED_TABLES).toHaveLength(12);
    for (const table of DERIVED_TABLES) expect(backedUp.has(table)).toBe(false);
  });
});
