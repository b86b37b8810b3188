/**
 * A search matching more than 10,000 rows answers a capped total (docs/rules.md#large-registers):
 * `total: 10000, total_capped: true` and `last_page` from it, the page itself as always; a search
 * matching fewer answers the exact total without the mark.
 */
import { sql } from 'drizzle-orm';
import { call, useTestContext } from './helpers';

const t = useTestContext();
let company: string;

beforeAll(async () => {
  company = await t.make.company('PT Pelatihan Massal');
  // Rows written directly: a bulk load (the list reads the records, not the register counts).
  await t.database.db.execute(sql`
    insert into training_certificates (id, company_id, certificate_number, name, training, location, date)
    select gen_random_uuid(), ${company}::uuid, 'MASSAL/' || g, 'Peserta ' || g,
      case when g <= 3 then 'Pelatihan Langka' else 'Pelatihan Massal' end, 'Jakarta', date '2025-01-01' + (g % 300)
    from generate_series(1, 10005) g`);
});

const list = async (query: string) => {
  const res = await call(t.app, t.adminToken, 'GET', `/api/training-certificate?company_id=ALL&${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<Record<string, unknown> & { data: { certificate_number: string }[] }>();
};

describe('capped totals of searched lists', () => {
  it('answers total 10000 with total_capped for a search matching more, and pages through it', async () => {
    const first = await list('search=massal');
    expect({ ...first, data: first.data.length }).toEqual({
      total: 10_000,
      total_capped: true,
      per_page: 20,
      current_page: 1,
      last_page: 500,
      from: 1,
      to: 20,
      data: 20,
    });
    const far = await list('search=massal&page=500');
    expect(far).toMatchObject({
      total: 10_000,
      total_capped: true,
      current_page: 500,
      from: 9981,
      to: 10_000,
    });
    expect(far.data).toHaveLength(20);
  });

  it('answers the exact total, unmarked, below the cap and without a search', async () => {
    const few = await list('search=langka');
    expect(few).toMatchObject({ total: 3, last_page: 1, from: 1, to: 3 });
    expect(few).not.toHaveProperty('total_capped');
    const all = await list('paginate=200');
    expect(all).toMatchObject({ total: 10_005, last_page: 51 });
    expect(all).not.toHaveProperty('total_capped');
  });
});
