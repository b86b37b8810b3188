// Long file: the register counts are compared with a full recount after each of a long sequence of writes; the sequence is one story and its recount helper is shared.
/**
 * The register counts (docs/rules.md#large-registers) stay exact: after every kind of change of schemes and training
 * certificates (create, status change, update of dates, client or company, delete, an Excel import, a day passing,
 * the demo generator's bulk load and its rebuild), the dashboard totals and the companies'
 * student_count equal a full count of the records, for every scope, and the kept tables equal what
 * a rebuild from the records makes.
 */
import { type SQL, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import {
  clientCertificateInputSchema,
  type DashboardTotals,
  schemeInputSchema,
  trainingCertificateInputSchema,
} from '@sertifikasi/shared-contracts';
import { writeDemo } from '../src/demo';
import type { Executor } from '../src/db';
import { clientCertificateService } from '../src/modules/client-certificates/client-certificates.service';
import { schemeService } from '../src/modules/schemes/schemes.service';
import { trainingCertificateService } from '../src/modules/training-certificates/training-certificates.service';
import { type ServiceContext, systemActor } from '../src/services/context';
import { rebuildRegisterCounts } from '../src/services/register-counts';
import { ADMIN_PASSWORD, call, createTestContext, login, type TestContext } from './helpers';
import { applyImport, SCHEME_COLUMNS } from './import-job';

const TZ = 'Asia/Jakarta';

type Row = Record<string, unknown>;
const rowsOf = async <T extends Row>(db: Executor, query: SQL): Promise<T[]> => {
  const res: unknown = await db.execute(query);
  return (res as { rows: T[] }).rows;
};

/** The figures of the dashboard counted from every record, as the API computed them before the counts were kept. */
async function fullCount(db: Executor, scope: string[] | 'ALL', today: string) {
  const where = (column: string) =>
    scope === 'ALL' ? sql`true` : sql`${sql.identifier(column)} = any(${`{${scope.join(',')}}`}::uuid[])`;
  const byStatus = await rowsOf<{ status: string; n: string }>(
    db,
    sql`select case when status = 'ACTIVE' and expired_date < ${today} then 'EXPIRED' else status end as status,
        count(*) as n from schemes where ${where('company_id')} group by 1`,
  );
  const [certified] = await rowsOf<{ n: string }>(
    db,
    sql`select count(distinct certificate_id) as n from schemes
        where ${where('company_id')} and status = 'ACTIVE' and expired_date >= ${today}`,
  );
  const [training] = await rowsOf<{ n: string; persons: string }>(
    db,
    sql`select count(*) as n, count(distinct lower(trim(name))) as persons from training_certificates
        where ${where('company_id')}`,
  );
  const month = today.slice(0, 7);
  const [expiring] = await rowsOf<{ n: string }>(
    db,
    sql`select count(*) as n from schemes where ${where('company_id')} and status = 'ACTIVE'
        and to_char(expired_date, 'YYYY-MM') = ${month}`,
  );
  const statuses = Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)]));
  return {
    company_certificate: Number(certified!.n),
    company_certificate_total: byStatus.reduce((sum, r) => sum + Number(r.n), 0),
    training_certificate: Number(training!.persons),
    training_certificate_total: Number(training!.n),
    bystatus: statuses,
    company_certificate_expired_in_amonth_total: Number(expiring!.n),
  };
}

/** The same figures as the API answers them. */
const shown = (t: DashboardTotals) => ({
  company_certificate: t.company_certificate,
  company_certificate_total: t.company_certificate_total,
  training_certificate: t.training_certificate,
  training_certificate_total: t.training_certificate_total,
  bystatus: Object.fromEntries(
    t.company_certificate_scheme_bystatus.filter((r) => r.total > 0).map((r) => [r.status, r.total]),
  ),
  company_certificate_expired_in_amonth_total: t.company_certificate_expired_in_amonth_total,
});

const COUNT_TABLES: Record<string, string> = {
  scheme_counts: 'company_id, status, expired_date',
  scheme_status_counts: 'company_id, status',
  scheme_issue_counts: 'company_id, issue_date, status',
  client_certified_until: 'certificate_id',
  certified_client_counts: 'company_id, until',
  training_person_counts: 'company_id, person',
  training_person_totals: 'person',
  training_counts: 'company_id',
  register_totals: 'name',
};

/** The count tables' rows (those that count something), in a stable order. */
async function countTables(db: Executor): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const [table, key] of Object.entries(COUNT_TABLES)) {
    const zero =
      table === 'client_certified_until'
        ? sql`true`
        : table === 'training_counts'
          ? sql`certificates <> 0`
          : sql`n <> 0`;
    out[table] = await rowsOf(
      db,
      sql`select * from ${sql.identifier(table)} where ${zero} order by ${sql.raw(key)}`,
    );
  }
  return out;
}

/** The kept tables equal a rebuild from the records (made in a transaction that is rolled back). */
async function expectTablesAsRebuilt(db: TestContext['database']['db']): Promise<void> {
  const kept = await countTables(db);
  let rebuilt: Record<string, Row[]> = {};
  await db
    .transaction(async (tx) => {
      await rebuildRegisterCounts(tx);
      rebuilt = await countTables(tx);
      tx.rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Error && e.message.includes('Rollback'))) throw e;
    });
  expect(kept).toEqual(rebuilt);
}

/** An xlsx with `header` and `rows` on its first sheet (text cells), as a register kept in Excel. */
async function xlsx(header: string[], rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('register counts', () => {
  let t: TestContext;
  let A: string;
  let B: string;
  let typeA: string;
  let typeB: string;
  let clientsA: string[];
  let clientB: string;
  let twoCompanies: string;

  const today = () => t.app.clock.today();
  const write = <R>(work: (ctx: ServiceContext) => Promise<R>): Promise<R> =>
    t.database.db.transaction((tx) =>
      work({ tx, actor: systemActor('system'), clock: t.app.clock, config: t.app.config }),
    );
  const dashboard = async (token: string, company: string): Promise<DashboardTotals> => {
    const res = await call(t.app, token, 'GET', `/api/dashboard-total/${company}`);
    expect(res.statusCode).toBe(200);
    return res.json<DashboardTotals>();
  };

  /** Applies an import file (`POST /api/import/<kind>/<company>?mode=apply`) as the administrator. */
  /** Applies a file as an import job, followed to its end. */
  const importFile = (kind: string, company: string, file: Buffer) =>
    applyImport(t.app, admin, kind, company, file);

  let admin: string;
  /** Moves the app's clock (a day later: both users sign in again, their sessions idle since). */
  async function passDayTo(instant: Date): Promise<void> {
    t.clock.set(instant);
    admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    twoCompanies = await login(t.app, 'statistik.dua', 'password-123');
  }

  /** Every figure a user sees equals the full count, for ALL, each company and two companies. */
  async function expectExact(): Promise<void> {
    const db = t.database.db;
    expect(shown(await dashboard(admin, 'ALL'))).toEqual(await fullCount(db, 'ALL', today()));
    expect(shown(await dashboard(admin, A))).toEqual(await fullCount(db, [A], today()));
    expect(shown(await dashboard(admin, B))).toEqual(await fullCount(db, [B], today()));
    expect(shown(await dashboard(twoCompanies, 'ALL'))).toEqual(await fullCount(db, [A, B], today()));
    const companies = await call(t.app, admin, 'GET', '/api/company?paginate=50');
    const students = await rowsOf<{ id: string; n: string }>(
      db,
      sql`select c.id, (select count(*) from training_certificates tc where tc.company_id = c.id) as n from companies c`,
    );
    expect(
      Object.fromEntries(
        companies
          .json<{ data: { id: string; student_count: number }[] }>()
          .data.map((c) => [c.id, c.student_count]),
      ),
    ).toEqual(Object.fromEntries(students.map((r) => [r.id, Number(r.n)])));
    await expectTablesAsRebuilt(db);
  }

  const scheme = (client: string, type: string, number: string, over: Record<string, unknown> = {}) =>
    schemeInputSchema.validateSync({
      certificate_id: client,
      certification_id: type,
      cert_number: number,
      status: 'ACTIVE',
      issue_date: '2023-03-10',
      valid_for: 2,
      valid_for_type: 'YEAR',
      is_accredited: 'false',
      ...over,
    });
  const training = (company: string, name: string, number: string) =>
    trainingCertificateInputSchema.validateSync({
      company_id: company,
      name,
      certificate_number: number,
      training: 'Auditor Internal ISO 9001',
      location: 'Jakarta',
      date: '2025-01-20',
    });

  beforeAll(async () => {
    // 10:00 on 5 March 2025 in Jakarta.
    t = await createTestContext({ TZ }, { now: new Date('2025-03-05T03:00:00Z') });
    admin = t.adminToken;
    A = await t.make.company('PT Hitung Alfa');
    B = await t.make.company('PT Hitung Beta');
    typeA = await t.make.certificationType(A, 'ISO 9001');
    typeB = await t.make.certificationType(B, 'ISO 14001');
    const client = (company: string, n: number) =>
      write((ctx) =>
        clientCertificateService.create(
          ctx,
          clientCertificateInputSchema.validateSync({
            company_id: company,
            name: `PT Klien ${n}`,
            certificate_number: `KL-${n}`,
            region: 'Jakarta',
          }),
        ),
      ).then((c) => c.id);
    clientsA = [await client(A, 1), await client(A, 2), await client(A, 3)];
    clientB = await client(B, 4);
    const role = await t.make.role('Statistik Dua', ['statistik']);
    twoCompanies = (await t.make.user({ username: 'statistik.dua', roles_id: role, company_ids: [A, B] }))
      .token;
  });
  afterAll(async () => t.close());

  it('follow every write of schemes and training certificates, and a day passing', async () => {
    const [c1, c2, c3] = clientsA as [string, string, string];
    // Create: ACTIVE ones expiring 2025-03-10 (this month), 2025-03-05 (today, still valid),
    // 2025-03-04 (yesterday: EXPIRED), two for one client, other statuses.
    const s1 = (await write((ctx) => schemeService.create(ctx, scheme(c1, typeA, 'H/001')))).id;
    const s2 = (
      await write((ctx) =>
        schemeService.create(ctx, scheme(c1, typeA, 'H/002', { issue_date: '2024-03-05', valid_for: 1 })),
      )
    ).id;
    const s3 = (
      await write((ctx) =>
        schemeService.create(ctx, scheme(c2, typeA, 'H/003', { issue_date: '2024-03-04', valid_for: 1 })),
      )
    ).id;
    const s4 = (
      await write((ctx) => schemeService.create(ctx, scheme(c3, typeA, 'H/004', { status: 'SUSPENDED' })))
    ).id;
    const s5 = (
      await write((ctx) =>
        schemeService.create(ctx, scheme(clientB, typeB, 'H/005', { issue_date: '2024-06-01' })),
      )
    ).id;
    const tr1 = (
      await write((ctx) => trainingCertificateService.create(ctx, training(A, 'Budi Santoso', 'P/001')))
    ).id;
    await write((ctx) => trainingCertificateService.create(ctx, training(A, ' budi santoso ', 'P/002')));
    const tr3 = (
      await write((ctx) => trainingCertificateService.create(ctx, training(B, 'BUDI SANTOSO', 'P/003')))
    ).id;
    const tr4 = (
      await write((ctx) => trainingCertificateService.create(ctx, training(B, 'Siti Aminah', 'P/004')))
    ).id;
    await expectExact();
    const before = await dashboard(admin, 'ALL');
    expect(before.training_certificate).toBe(2); // Budi once over both companies, and Siti

    // Status changes, both ways; a scheme's dates (a new expiry); a move to another company's client.
    await write((ctx) => schemeService.changeStatus(ctx, s1, 'WITHDRAWN'));
    await expectExact();
    await write((ctx) => schemeService.changeStatus(ctx, s4, 'ACTIVE'));
    await write((ctx) => schemeService.changeStatus(ctx, s3, 'DRAFT'));
    await expectExact();
    await write((ctx) =>
      schemeService.update(ctx, s2, scheme(c1, typeA, 'H/002', { issue_date: '2024-01-01', valid_for: 1 })),
    );
    await expectExact();
    await write((ctx) =>
      schemeService.update(ctx, s4, scheme(c2, typeA, 'H/004', { issue_date: '2024-03-06', valid_for: 1 })),
    );
    await expectExact();
    await write((ctx) =>
      schemeService.update(ctx, s5, scheme(c3, typeA, 'H/005', { issue_date: '2024-06-01' })),
    );
    await expectExact();
    await write((ctx) =>
      schemeService.update(ctx, s5, scheme(clientB, typeB, 'H/005', { issue_date: '2023-06-01' })),
    );
    await expectExact();

    // Training: a new name (another person), another company, deletes.
    await write((ctx) => trainingCertificateService.update(ctx, tr1, training(A, 'Rina Wati', 'P/001')));
    await expectExact();
    await write((ctx) => trainingCertificateService.update(ctx, tr3, training(A, 'Budi Santoso', 'P/003')));
    await expectExact();
    await write((ctx) => trainingCertificateService.remove(ctx, tr4));
    await write((ctx) => trainingCertificateService.remove(ctx, tr3));
    await expectExact();

    // A day passing: s4 (now expiring 2025-03-06) is still valid on the 6th, EXPIRED on the 7th,
    // with no write in between.
    await passDayTo(new Date('2025-03-06T03:00:00Z'));
    await expectExact();
    const sixth = await dashboard(admin, A);
    await passDayTo(new Date('2025-03-07T03:00:00Z'));
    await expectExact();
    const seventh = await dashboard(admin, A);
    const expired = (d: DashboardTotals) =>
      d.company_certificate_scheme_bystatus.find((r) => r.status === 'EXPIRED')!.total;
    expect(expired(seventh)).toBe(expired(sixth) + 1);
    expect(seventh.company_certificate).toBe(sixth.company_certificate - 1);

    // Deletes.
    await write((ctx) => schemeService.remove(ctx, s4));
    await write((ctx) => schemeService.remove(ctx, s1));
    await expectExact();
    await write((ctx) => schemeService.remove(ctx, s2));
    await write((ctx) => schemeService.remove(ctx, s3));
    await write((ctx) => schemeService.remove(ctx, s5));
    await expectExact();
    expect(shown(await dashboard(admin, 'ALL'))).toMatchObject({
      company_certificate: 0,
      company_certificate_total: 0,
    });

    // An Excel import writes through the same services: new and updated clients, schemes
    // and training certificates, in one transaction, counted like any form save.
    const companyFile = await xlsx(
      ['Nomor Sertifikat Klien', 'Nama Klien', 'Region', ...SCHEME_COLUMNS],
      [
        ['KL-1', 'PT Klien 1', 'Jakarta', 'H/201', 'ISO 9001', 'ACTIVE', '01/06/2024', 2, 'TAHUN'],
        ['KL-1', 'PT Klien 1', 'Jakarta', 'H/202', 'ISO 9001', 'SUSPENDED', '01/06/2024', 2, 'TAHUN'],
        ['KL-9', 'PT Klien 9', 'Bandung', 'H/209', 'ISO 9001', 'ACTIVE', '01/02/2023', 2, 'TAHUN'],
      ],
    );
    expect((await importFile('company-certificate', A, companyFile)).state).toBe('done');
    await expectExact();
    const trainingFile = await xlsx(
      ['Nomor Sertifikat', 'Nama Personel', 'Nama Pelatihan', 'Lokasi', 'Tanggal Sertifikasi'],
      [
        ['P/201', 'Siti Aminah', 'Auditor Internal ISO 9001', 'Jakarta', '20/01/2025'],
        ['P/202', 'Agus Salim', 'Auditor Internal ISO 9001', 'Jakarta', '20/01/2025'],
        // The same person twice in one batch, spelled another way: counted once.
        ['P/203', ' AGUS SALIM', 'Lead Auditor ISO 9001', 'Bandung', '21/01/2025'],
      ],
    );
    expect((await importFile('training-certificate', B, trainingFile)).state).toBe('done');
    await expectExact();
    // A file holding only one scheme's status: an update of that field alone, counted as such.
    const changed = await xlsx(
      ['Nomor Sertifikat Klien', 'Nama Klien', 'Region', 'Nomor Sertifikat', 'Status'],
      [['KL-1', 'PT Klien 1', 'Jakarta', 'H/202', 'ACTIVE']],
    );
    const again = await importFile('company-certificate', A, changed);
    expect(again.state).toBe('done');
    await expectExact();
    expect(shown(await dashboard(admin, A))).toMatchObject({ company_certificate: 1 });
  });
  // Two writers at once (PostgreSQL: each transaction on its own connection). The second creates a
  // scheme of the same client while the first, which made that client certified until 2028, has not
  // committed yet: it waits for the client, then reads the first one's scheme, so the client's
  // last expiry is the later of the two, not only its own.
  it('stay exact when two writers change the same client and person at once', async () => {
    const client = clientsA[0]!;
    let firstWritten!: () => void;
    const written = new Promise<void>((resolve) => (firstWritten = resolve));
    const first = write(async (ctx) => {
      await schemeService.create(
        ctx,
        scheme(client, typeA, 'H/100', { issue_date: '2025-01-01', valid_for: 3 }),
      );
      await trainingCertificateService.create(ctx, training(A, 'Dewi Lestari', 'P/100'));
      firstWritten();
      await new Promise((resolve) => setTimeout(resolve, 300)); // still uncommitted
    });
    await written;
    const second = write(async (ctx) => {
      await schemeService.create(
        ctx,
        scheme(client, typeA, 'H/101', { issue_date: '2025-02-01', valid_for: 1 }),
      );
      await trainingCertificateService.create(ctx, training(B, 'dewi lestari', 'P/101'));
    });
    await Promise.all([first, second]);
    await expectExact();
    const [row] = await rowsOf<{ until: string }>(
      t.database.db,
      sql`select until::text as until from client_certified_until where certificate_id = ${client}`,
    );
    expect(row?.until).toBe('2028-01-01');
  });
});

describe('register counts after the demo generator’s bulk load', () => {
  let t: TestContext;
  afterAll(async () => t.close());

  it('are rebuilt by the bulk load, then kept by the services', async () => {
    t = await createTestContext({ TZ }, { now: new Date('2025-03-05T03:00:00Z') });
    const db = t.database.db;
    const result = await db.transaction((tx) =>
      writeDemo(tx, {
        volume: { clients: 30, schemes: 70, trainings: 40, logos: 2 },
        seed: 11,
        password: 'demo-sandi-123',
        argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
        publicBaseUrl: t.app.config.publicBaseUrl,
        clock: t.app.clock,
      }),
    );
    const today = t.app.clock.today();
    const answer = async (company: string) =>
      shown(
        (await call(t.app, t.adminToken, 'GET', `/api/dashboard-total/${company}`)).json<DashboardTotals>(),
      );
    expect(await answer('ALL')).toEqual(await fullCount(db, 'ALL', today));
    for (const c of result.companies) expect(await answer(c.id)).toEqual(await fullCount(db, [c.id], today));
    await expectTablesAsRebuilt(db);

    // A write after the bulk load moves the rebuilt counts like any other.
    const [first] = await rowsOf<{ id: string }>(
      db,
      sql`select id from schemes where status = 'ACTIVE' order by id limit 1`,
    );
    await db.transaction((tx) =>
      schemeService.changeStatus(
        { tx, actor: systemActor(), clock: t.app.clock, config: t.app.config },
        first!.id,
        'SUSPENDED',
      ),
    );
    expect(await answer('ALL')).toEqual(await fullCount(db, 'ALL', today));
    await expectTablesAsRebuilt(db);
  });
});
