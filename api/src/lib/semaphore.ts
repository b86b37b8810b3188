/** At most `limit` jobs at once; the rest wait their turn, first come first served. */
export interface Semaphore {
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Changes the limit; jobs already waiting start at once when it grows. */
  setLimit(limit: number): void;
  readonly limit: number;
  /** Jobs running now and jobs waiting, for tests and diagnostics. */
  readonly active: number;
  readonly waiting: number;
}

export function createSemaphore(initial: number): Semaphore {
  if (!Number.isInteger(initial) || initial < 1) throw new Error(`semaphore limit must be 1 or more`);
  let limit = initial;
  let active = 0;
  const queue: (() => void)[] = [];
  const drain = () => {
    while (active < limit && queue.length) {
      active++;
      queue.shift()!();
    }
  };
  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active < limit) active++;
      // The finishing job hands its slot straight to the next in line (drain() counts it).
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await job();
      } finally {
        active--;
        drain();
      }
    },
    setLimit(next: number) {
      if (!Number.isInteger(next) || next < 1) throw new Error(`semaphore limit must be 1 or more`);
      limit = next;
      drain();
    },
    get limit() {
      return limit;
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
