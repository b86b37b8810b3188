/**
 * A turn of the event loop every `every` calls: long CPU work on the request thread (checking an
 * import file, writing an export's rows) lets other requests in between, so a sign-in or a public
 * check beside it waits milliseconds, not the whole work (bench/README.md, busy bench).
 */
export function breather(every: number): () => Promise<void> {
  let calls = 0;
  return async () => {
    if (++calls % every === 0) await new Promise((resolve) => setImmediate(resolve));
  };
}
