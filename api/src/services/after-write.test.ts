import type { AfterWriteStep, WriteEvent } from './after-write';
import { afterWriteMany } from './after-write';
import type { ServiceContext } from './context';

/** The batch runner: a step's batch form when it has one, else the step once per write, in order. */
describe('afterWriteMany', () => {
  const event = (id: string): WriteEvent => ({
    entity: 'company',
    action: 'update',
    id,
    before: null,
    after: null,
  });
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
