/** Work that waits for a commit (db/after-commit.ts): once per transaction, never for a rollback. */
import { sql } from 'drizzle-orm';
import { useTestContext } from '../../test/helpers';
import { afterCommit, onCommitted } from './after-commit';

const ctx = useTestContext();

it('calls a topic’s listeners once per committed transaction, however often it was marked', async () => {
  const calls: string[] = [];
  const off = onCommitted(ctx.database.db, 'topic', () => calls.push('topic'));
  try {
    await ctx.database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) afterCommit(tx, 'topic');
      afterCommit(tx, 'another');
      await tx.execute(sql`select 1`);
      // Not before the commit.
      expect(calls).toEqual([]);
    });
    expect(calls).toEqual(['topic']);

    await expect(
      ctx.database.db.transaction(async (tx) => {
        afterCommit(tx, 'topic');
        throw new Error('batal');
      }),
    ).rejects.toThrow('batal');
    expect(calls).toEqual(['topic']);

    // A statement of the database's own has committed already: at once.
    afterCommit(ctx.database.db, 'topic');
    expect(calls).toEqual(['topic', 'topic']);
  } finally {
    off();
  }
});
