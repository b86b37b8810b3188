/**
 * Work that waits for a transaction's commit (docs/architecture.md#notifications): a write marks
 * its transaction (`afterCommit(tx, topic)`, the webhook deliveries an after-write step queued),
 * and once `db.transaction` has committed, the listeners of each topic marked in it run, once per
 * transaction however many writes marked it (an import's chunk of thousands of rows: one call). A
 * rolled-back transaction calls nothing. Given the database itself (a statement of its own, already
 * committed), the listeners run at once.
 *
 * The listeners belong to the database object the app was given (`onCommitted`), so two apps on
 * two databases share nothing. Nothing leaves the process: a listener that must reach other
 * processes does so itself (the webhook sender's job, jobs/notify.ts).
 */
import type { Db, Executor } from './types';

const TOPICS = Symbol('after-commit topics');
const LISTENERS = Symbol('after-commit listeners');

type Listener = () => void;
interface Marked {
  [TOPICS]?: Set<string>;
  [LISTENERS]?: Map<string, Set<Listener>>;
}

function notify(listeners: Map<string, Set<Listener>> | undefined, topics: Iterable<string>): void {
  if (!listeners) return;
  for (const topic of topics)
    for (const listener of listeners.get(topic) ?? []) {
      try {
        listener();
      } catch {
        // A listener's failure is its own: the write has committed.
      }
    }
}

/** Marks `tx` so that `topic`'s listeners run once it commits. */
export function afterCommit(tx: Executor, topic: string): void {
  const marked = tx as Marked;
  if (marked[TOPICS]) marked[TOPICS].add(topic);
  else if (marked[LISTENERS]) notify(marked[LISTENERS], [topic]);
}

/** Calls `listener` after every commit of a transaction of `db` marked with `topic`; answers its removal. */
export function onCommitted(db: Db, topic: string, listener: Listener): () => void {
  const marked = db as Marked;
  const listeners = marked[LISTENERS];
  if (!listeners) return () => undefined;
  const set = listeners.get(topic) ?? new Set();
  listeners.set(topic, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** Makes `db.transaction` run the listeners of the topics its transaction was marked with, after it commits. */
export function withCommitHooks(db: Db): Db {
  const marked = db as Db & Marked;
  const listeners = new Map<string, Set<Listener>>();
  marked[LISTENERS] = listeners;
  const transaction = db.transaction.bind(db);
  marked.transaction = (async (run: (tx: Executor) => Promise<unknown>, config?: unknown) => {
    const topics = new Set<string>();
    const answer = await transaction(async (tx) => {
      (tx as Marked)[TOPICS] = topics;
      return run(tx);
    }, config as never);
    notify(listeners, topics);
    return answer;
  }) as Db['transaction'];
  return db;
}
