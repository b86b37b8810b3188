import { createSemaphore } from './semaphore';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('createSemaphore', () => {
  it('runs at most `limit` jobs at once, the rest in arrival order', async () => {
    const sem = createSemaphore(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const jobs = gates.map((gate, i) =>
      sem.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([sem.active, sem.waiting]).toEqual([2, 2]);
    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect([sem.active, sem.waiting]).toEqual([2, 1]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3]);
    expect([sem.active, sem.waiting]).toEqual([0, 0]);
  });

  it('frees the slot when a job fails', async () => {
    const sem = createSemaphore(1);
    await expect(sem.run(() => Promise.reject(new Error('gagal')))).rejects.toThrow('gagal');
    expect(await sem.run(async () => 'ok')).toBe('ok');
    expect(sem.active).toBe(0);
  });

  it('starts waiting jobs when the limit grows, and refuses a limit below 1', async () => {
    const sem = createSemaphore(1);
    const gate = deferred();
    const started: number[] = [];
    const jobs = [0, 1, 2].map((i) =>
      sem.run(async () => {
        started.push(i);
        await gate.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0]);
    sem.setLimit(3);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gate.resolve();
    await Promise.all(jobs);
    expect(() => sem.setLimit(0)).toThrow();
    expect(() => createSemaphore(0)).toThrow();
  });
});
