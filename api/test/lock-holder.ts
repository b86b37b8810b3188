import { acquireDataDirLock } from '../src/db/lock';

/**
 * A process that takes the lock of the DATA_DIR given as its argument and holds it until killed
 * (embedded-lock.test.ts): prints `held`, or the refusal and exits 3.
 */
acquireDataDirLock(process.argv[2]!).then(
  () => {
    console.log('held');
    setInterval(() => undefined, 60_000);
  },
  (err: Error) => {
    console.log(err.message);
    process.exit(3);
  },
);
