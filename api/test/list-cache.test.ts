/**
 * The list cache's bounds (services/list-cache.ts): at most its number of lists and bytes, the least
 * recently used out first, nothing kept with 0; whole answers kept until a version of one of their
 * kinds moves for a company of their scope, within their own number and bytes.
 */
import { sql } from 'drizzle-orm';
import { ALL } from '@sertifikasi/shared-contracts';
import { createListCache } from '../src/services/list-cache';
import { useTestContext } from './helpers';

const t = useTestContext();
let alfa: string;
let beta: string;

beforeAll(async () => {
  alfa = await t.make.company('PT Alfa Simpan');
  beta = await t.make.company('PT Beta Simpan');
});

describe('the cache bounds', () => {
  /** Reads of a list that count how often the database would have been asked. */
  const counting = () => {
    const asked = { count: 0, page: 0 };
    return {
      asked,
      reads: {
        count: async () => {
          asked.count++;
          return 7;
        },
        page: async () => {
          asked.page++;
          return [{ id: 'a' }];
        },
        byIds: async (ids: string[]) => ids.map((id) => ({ id })),
        idOf: (row: { id: string }) => row.id,
      },
    };
  };
  const asked = (pattern: string) =>
    ({
      entity: 'training-certificate',
      scope: ALL,
      pattern,
      order: 'default',
      limit: 20,
      offset: 0,
    }) as const;

  it('keeps at most its number of lists, the least recently used out first', async () => {
    const cache = createListCache({ entries: 4, bytes: 1_000_000 });
    const { asked: n, reads } = counting();
    for (const p of ['%a%', '%b%', '%a%', '%c%']) await cache.read(t.database.db, asked(p), reads);
    // Two entries a list (total and page): '%a%' was read again, so '%b%' went first.
    expect(cache.size.entries).toBe(4);
    expect(n).toEqual({ count: 3, page: 3 });
    await cache.read(t.database.db, asked('%a%'), reads);
    expect(n).toEqual({ count: 3, page: 3 });
    await cache.read(t.database.db, asked('%b%'), reads);
    expect(n).toEqual({ count: 4, page: 4 });
  });

  it('keeps nothing with 0, and stays within its bytes', async () => {
    const none = createListCache({ entries: 0, bytes: 1_000_000 });
    const { asked: n, reads } = counting();
    await none.read(t.database.db, asked('%a%'), reads);
    expect(await none.read(t.database.db, asked('%a%'), reads)).toEqual({ total: 7, rows: [{ id: 'a' }] });
    expect(n).toEqual({ count: 2, page: 2 });
    expect(none.size).toEqual({ entries: 0, bytes: 0, answers: 0, answerBytes: 0 });
    const small = createListCache({ entries: 1000, bytes: 2000 });
    for (let i = 0; i < 50; i++) await small.read(t.database.db, asked(`%${i}%`), reads);
    expect(small.size.bytes).toBeLessThanOrEqual(2000);
    expect(small.size.entries).toBeGreaterThan(0);
  });

  it('keeps whole answers until a version of their kinds moves, within their own bounds', async () => {
    let made = 0;
    const make = (size: number) => async () => {
      made++;
      return JSON.stringify({ made, pad: 'x'.repeat(size) });
    };
    /** A new version of a kind for a company, as a write through the services gives it. */
    const bump = (entity: string, company: string) =>
      t.database.db.execute(sql`insert into list_versions (entity, company_id, version)
        values (${entity}, ${company}::uuid, gen_random_uuid())
        on conflict (entity, company_id) do update set version = excluded.version`);
    const cache = createListCache({ answers: 3, answerBytes: 64 * 1024 });
    const ask = (key: string) => ({ kinds: ['training-certificate'] as const, scope: [alfa], key });
    const first = await cache.answer(t.database.db, ask('a'), make(100));
    expect((await cache.answer(t.database.db, ask('a'), make(100))).body).toBe(first.body);
    expect(made).toBe(1);
    // A write of the kind in the scope's company: made again.
    await bump('training-certificate', alfa);
    expect(JSON.parse((await cache.answer(t.database.db, ask('a'), make(100))).body.toString()).made).toBe(2);
    // Another company's write, or another kind's: kept.
    await bump('training-certificate', beta);
    await bump('auditor', alfa);
    await cache.answer(t.database.db, ask('a'), make(100));
    expect(made).toBe(2);
    // Over an eighth of the bytes: answered, not kept; past the number: the oldest out.
    await cache.answer(t.database.db, ask('big'), make(9 * 1024));
    await cache.answer(t.database.db, ask('big'), make(9 * 1024));
    expect(made).toBe(4);
    for (const key of ['b', 'c', 'd']) await cache.answer(t.database.db, ask(key), make(100));
    expect(cache.size.answers).toBe(3);
    const gzip = await (
      await cache.answer(t.database.db, ask('d'), make(100))
    ).encoded('gzip', (b) => Buffer.from(b.toString('base64')));
    expect(cache.size.answerBytes).toBeLessThanOrEqual(64 * 1024);
    expect(gzip.length).toBeGreaterThan(0);
    const none = createListCache({ entries: 0 });
    await none.answer(t.database.db, ask('a'), make(100));
    await none.answer(t.database.db, ask('a'), make(100));
    expect(made).toBe(9);
    expect(none.size.answers).toBe(0);
  });
});
