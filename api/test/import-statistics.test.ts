/**
 * An import keeps PostgreSQL's statistics up with the tables it grows (api/src/db/statistics.ts):
 * a new register's first import must not run its later chunks on foreign-key checks planned while
 * the clients table was nearly empty (each such check reads the whole table).
 */
import ExcelJS from 'exceljs';
import { getTableName, sql } from 'drizzle-orm';
import { integer, type PgTable, pgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../src/db';
import { clientCertificates, schemes } from '../src/db/schema';
import { statisticsWatch } from '../src/db/statistics';
import { createTestContext, type TestContext } from './helpers';
import { applyImport, SCHEME_COLUMNS } from './import-job';

let ctx: TestContext;
let company: string;
/** A table of this test's own, grown by hand. */
const probe = pgTable('statistics_probe', { id: integer('id').primaryKey() });

beforeAll(async () => {
  ctx = await createTestContext({ IMPORT_CHUNK_ROWS: '300' });
  company = await ctx.make.company('PT Register Baru');
  await ctx.make.certificationType(company, 'ISO 9001');
  await ctx.database.db.execute(sql`create table statistics_probe (id integer primary key)`);
  // Only the import's own analyzes may move the statistics in this database.
  for (const table of [clientCertificates, schemes, probe])
    await ctx.database.db.execute(sql`alter table ${table} set (autovacuum_enabled = false)`);
});
afterAll(async () => ctx.close());

/** The rows a table's statistics count (-1: never analyzed). */
async function statisticsRows(exec: Executor, table: PgTable): Promise<number> {
  const name = getTableName(table);
  const result: unknown = await exec.execute(
    sql`select reltuples::float8 as n from pg_class where oid = to_regclass(${name})`,
  );
  return Number((result as { rows: { n: number }[] }).rows[0]!.n);
}

describe('statisticsWatch', () => {
  const add = async (from: number, n: number) =>
    ctx.database.db.execute(
      sql`insert into statistics_probe select g from generate_series(${from}::int, ${from + n - 1}::int) g`,
    );

  it('analyzes a table once it has grown by as many rows as it held (and at least the minimum)', async () => {
    const { db } = ctx.database;
    const watch = statisticsWatch(db, 100);
    await add(1, 60);
    await watch.grew(probe, 60);
    expect([watch.analyzed, await statisticsRows(db, probe)]).toEqual([[], -1]);
    await add(61, 50);
    await watch.grew(probe, 50);
    expect([watch.analyzed, await statisticsRows(db, probe)]).toEqual([['statistics_probe'], 110]);
    // Now it takes 110 more rows, not 100.
    await add(111, 100);
    await watch.grew(probe, 100);
    expect(watch.analyzed).toEqual(['statistics_probe']);
    await add(211, 10);
    await watch.grew(probe, 10);
    expect([watch.analyzed, await statisticsRows(db, probe)]).toEqual([
      ['statistics_probe', 'statistics_probe'],
      220,
    ]);
    expect(watch.failed).toBe(0);
  });

  it('never fails the work that grew the table: a failed analyze is counted', async () => {
    const watch = statisticsWatch(ctx.database.db, 1);
    const missing = pgTable('no_such_table', { id: integer('id') });
    await expect(watch.grew(missing, 5)).resolves.toBeUndefined();
    expect([watch.analyzed, watch.failed]).toEqual([[], 1]);
  });
});

describe('an import into an empty register', () => {
  it('leaves the clients and schemes tables with statistics counting what it wrote', async () => {
    const { db } = ctx.database;
    expect(await statisticsRows(db, clientCertificates)).toBeLessThanOrEqual(0);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Data');
    sheet.addRow(['Nomor Sertifikat Klien', 'Nama Klien', 'Region', ...SCHEME_COLUMNS]);
    for (let n = 1; n <= 600; n++)
      sheet.addRow([
        `KL-${n}`,
        `PT Klien ${n}`,
        'Jakarta',
        `SK-${n}`,
        'ISO 9001',
        'ACTIVE',
        '01/02/2025',
        3,
        'TAHUN',
      ]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const job = await applyImport(ctx.app, ctx.adminToken, 'company-certificate', company, file);
    expect([job.state, job.error]).toEqual(['done', null]);
    // Chunks of 300 rows: after the second, both tables had grown by 600 (over 500) and were analyzed.
    expect(await statisticsRows(db, clientCertificates)).toBe(600);
    expect(await statisticsRows(db, schemes)).toBe(600);
  });
});
