/**
 * Run by backup-secrets.test.ts as a child process (`node --expose-gc
 * --no-concurrent-array-buffer-sweeping --import tsx`: buffers collected are freed with the
 * collection, not later on a background thread, so a sample counts only what is held): restores the
 * backup file argv[2] into DATABASE_URL's database and prints, as one JSON line, the error it ended
 * with, the most memory the process held meanwhile above what it held before (heap and buffers,
 * each sample after a full collection, so buffers already let go of (and not yet collected) do not
 * count), and how many samples were taken. A small process of its own: a full collection is quick.
 */
import { openDatabase } from '../src/db';
import { restoreBackup } from '../src/services/restore';

const gc = (globalThis as { gc?: () => void }).gc;

async function main() {
  if (!gc) throw new Error('run with node --expose-gc');
  const held = () => {
    gc();
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, poolSize: 1 });
  try {
    const before = held();
    let peak = before;
    let samples = 0;
    // A full collection takes milliseconds to a tenth of a second (a busy machine): a sample every 25 ms.
    const sample = setInterval(() => {
      samples++;
      peak = Math.max(peak, held());
    }, 25);
    const error = await restoreBackup(database, process.argv[2]!).then(
      () => null,
      (err: Error) => ({ name: err.name, message: err.message }),
    );
    clearInterval(sample);
    console.log(JSON.stringify({ error, heldBytes: peak - before, samples }));
  } finally {
    await database.close();
  }
}

void main();
