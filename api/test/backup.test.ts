// Long file: four whole backup-and-restore journeys (live download, damaged files, an earlier version's file, batched reads) over one seeded database and the same restore helpers.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type Database, openDatabase } from '../src/db';
import { backupTables, tableName, writeBackup } from '../src/services/backup';
import { type ByteBatching, primaryKeyColumns } from '../src/db/keyset';
import { companies, images, trainingCertificates } from '../src/db/schema';
import { migrate, readMigrations } from '../src/db/migrate';
import { restoreBackup, RestoreRefusedError } from '../src/services/restore';
import {
  clientCertificateInputSchema,
  schemeInputSchema,
  trainingCertificateInputSchema,
} from '@sertifikasi/shared-contracts';
import { clientCertificateService } from '../src/modules/client-certificates/client-certificates.service';
import { schemeService } from '../src/modules/schemes/schemes.service';
import { trainingCertificateService } from '../src/modules/training-certificates/training-certificates.service';
import { type ServiceContext, systemActor } from '../src/services/context';
import { rebuildDerived } from '../src/services/derived';
import { pngPart, sendForm } from './forms';
import { ADMIN_PASSWORD, call, createTestContext, login, type TestContext } from './helpers';
import { adminUrl, withDatabase } from './template';

/**
 * Backup and restore (docs/rules.md#backup): the running system's backup, restored into a new
 * database on the run's server, answers the same.
 */

let ctx: TestContext;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-backup-test-'));
const testConfig = () =>
  loadConfig({ NODE_ENV: 'test', PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal') });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A new, empty database on the run's server to restore into. */
async function emptyDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  {
    const name = `sertifikasi_restore_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const database = await openDatabase({ databaseUrl: withDatabase(adminUrl(), name), poolSize: 2 });
    return {
      database,
      drop: async () => {
        await database.close();
        const c = new pg.Client({ connectionString: adminUrl() });
        await c.connect();
        await c.query(`drop database if exists "${name}" with (force)`);
        await c.end();
      },
    };
  }
}

const tableExists = async (database: Database, name: string) =>
  (
    (await database.db.execute(sql`select to_regclass(${`public.${name}`}) is not null as e`)) as {
      rows: { e: boolean }[];
    }
  ).rows[0]!.e;

it('a full administrator downloads the backup while the system runs; restored into an empty database, the API answers the same', async () => {
  const { app, adminToken } = ctx;
  const created = await sendForm(app, adminToken, '/api/company', {
    name: 'PT Cadangan Data',
    website: 'https://cadangan.co.id',
    logo_file: await pngPart('blue'),
  });
  expect(created.statusCode).toBe(201);
  const companyId = created.json<{ id: string }>().id;
  const staff = await ctx.make.user({
    username: 'staf.cadangan',
    keys: ['company'],
    company_ids: [companyId],
    password: 'kata-sandi-staf',
  });

  // The register: a client with a scheme and a training certificate, written as a form save is.
  const typeId = await ctx.make.certificationType(companyId, 'ISO 9001');
  await ctx.database.db.transaction(async (tx) => {
    const write: ServiceContext = { tx, actor: systemActor(), clock: app.clock, config: app.config };
    const client = await clientCertificateService.create(
      write,
      clientCertificateInputSchema.validateSync({
        company_id: companyId,
        name: 'PT Klien Cadangan',
        certificate_number: 'KL-CAD-1',
        region: 'Jakarta',
      }),
    );
    await schemeService.create(
      write,
      schemeInputSchema.validateSync({
        certificate_id: client.id,
        certification_id: typeId,
        cert_number: 'QMS/CAD/001',
        status: 'ACTIVE',
        issue_date: app.clock.today(),
        valid_for: 3,
        valid_for_type: 'YEAR',
        is_accredited: 'false',
      }),
    );
    await trainingCertificateService.create(
      write,
      trainingCertificateInputSchema.validateSync({
        company_id: companyId,
        name: 'Dewi Lestari',
        certificate_number: 'PEL/CAD/001',
        training: 'Auditor Internal ISO 9001',
        location: 'Jakarta',
        date: app.clock.today(),
      }),
    );
  });

  // Only a user with every permission and scope ALL.
  expect((await call(app, staff.token, 'GET', '/api/backup')).statusCode).toBe(403);
  expect((await call(app, null, 'GET', '/api/backup')).statusCode).toBe(401);
  const roleEditor = await ctx.make.user({
    username: 'penyunting.akses',
    roles_id: await ctx.make.role('Penyunting Akses', ['roles', 'roles:edit']),
    company_ids: 'ALL',
  });
  expect((await call(app, roleEditor.token, 'GET', '/api/backup')).statusCode).toBe(403);

  const res = await call(app, adminToken, 'GET', '/api/backup');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/gzip');
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="sertifikasi-\d{8}-\d{6}\.backup"$/,
  );
  const file = path.join(tmp, 'download.backup');
  fs.writeFileSync(file, res.rawPayload);
  const text = zlib.gunzipSync(res.rawPayload).toString();
  expect(text).not.toMatch(/token_hash/); // sessions are not in it
  expect(text).toContain('"t":"users"');

  const before = {
    companies: (await call(app, adminToken, 'GET', '/api/company')).json(),
    users: (await call(app, adminToken, 'GET', '/api/user')).json(),
    dashboard: (await call(app, adminToken, 'GET', '/api/dashboard-total/ALL')).json(),
    keys: (await app.inject('/.well-known/jwks.json')).json(),
    credential: (await app.inject('/api/credential/company/QMS+CAD+001')).body,
    training: (await app.inject('/api/check-certificate-training/PEL+CAD+001')).json(),
  };
  expect(before.dashboard).toMatchObject({ company_certificate: 1, training_certificate: 1 });
  const logoName = (before.companies as { data: { id: string; logo: string }[] }).data.find(
    (c) => c.id === companyId,
  )!.logo;
  const image = await app.inject(`/images/${logoName}`);
  expect(image.statusCode).toBe(200);

  const target = await emptyDatabase();
  try {
    const result = await restoreBackup(target.database, file);
    expect(result.counts.companies).toBe(1);
    const restored = await buildApp({ config: testConfig(), db: target.database.db });
    try {
      // Passwords survive; sessions do not.
      expect((await call(restored, adminToken, 'GET', '/api/company')).statusCode).toBe(401);
      const token = await login(restored, 'admin', ADMIN_PASSWORD);
      expect(await login(restored, 'staf.cadangan', 'kata-sandi-staf')).toBeTruthy();
      expect((await call(restored, token, 'GET', '/api/company')).json()).toEqual(before.companies);
      expect((await call(restored, token, 'GET', '/api/user')).json()).toEqual(before.users);
      // The register counts, rebuilt from the records; the signing key, so the same credential.
      expect((await call(restored, token, 'GET', '/api/dashboard-total/ALL')).json()).toEqual(
        before.dashboard,
      );
      expect((await restored.inject('/.well-known/jwks.json')).json()).toEqual(before.keys);
      expect((await restored.inject('/api/credential/company/QMS+CAD+001')).body).toBe(before.credential);
      expect((await restored.inject('/api/check-certificate-training/PEL+CAD+001')).json()).toEqual(
        before.training,
      );
      const again = await restored.inject(`/images/${logoName}`);
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(image.rawPayload)).toBe(true);
    } finally {
      await restored.close();
    }

    // A second restore into the now non-empty database is refused, and changes nothing.
    await expect(restoreBackup(target.database, file)).rejects.toThrow(/not empty/);
    const n = await target.database.db.execute(sql`select count(*)::int as n from companies`);
    expect((n as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  } finally {
    await target.drop();
  }
});

it('a damaged or cut-short file is refused with a clear message and nothing is written', async () => {
  const file = path.join(tmp, 'whole.backup');
  await writeBackup(ctx.database.db, file, ctx.app.clock.now());
  const whole = fs.readFileSync(file);
  const lines = zlib.gunzipSync(whole).toString().split('\n');
  const variants: [string, Buffer][] = [
    ['cut', whole.subarray(0, Math.floor(whole.length / 2))],
    ['no end', zlib.gzipSync(lines.slice(0, -2).join('\n'))],
    ['garbage', Buffer.from('not a backup at all')],
    ['row missing', zlib.gzipSync(lines.filter((l, i) => i !== 2).join('\n'))],
  ];
  const target = await emptyDatabase();
  try {
    for (const [name, bytes] of variants) {
      const damaged = path.join(tmp, `${name}.backup`);
      fs.writeFileSync(damaged, bytes);
      const err = await restoreBackup(target.database, damaged).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RestoreRefusedError);
      expect((err as Error).message).toMatch(/damaged or not a backup.*nothing was written/);
      // Not even the tables were made.
      expect(await tableExists(target.database, 'companies')).toBe(false);
    }
  } finally {
    await target.drop();
  }
});

/** The backup `file` again, its header's migration list replaced by `migrations`. */
/**
 * The backup `file` as a version at `migrations` wrote it: that migration list, and without the
 * tables (`later`) a later migration made. The file's rows must fit that version's tables otherwise.
 */
function withMigrations(file: string, out: string, migrations: string[], later: string[] = []): string {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().split('\n');
  const header = JSON.parse(lines[0]!) as { tables: string[] };
  expect(lines.some((line) => later.some((t) => line.startsWith(`{"t":${JSON.stringify(t)},`)))).toBe(false);
  lines[0] = JSON.stringify({
    ...header,
    tables: header.tables.filter((t) => !later.includes(t)),
    migrations,
  });
  fs.writeFileSync(out, zlib.gzipSync(lines.join('\n')));
  return out;
}

/**
 * The backup `file` as the version at migration `level` would have written it: that migration
 * list, and only the tables that version had (read off a database migrated to it). The tables left
 * out must hold no rows in `file`; the rows of the others must fit that version's columns.
 */
async function asEarlierFile(file: string, out: string, level: string): Promise<string> {
  const probe = await emptyDatabase();
  let had: Set<string>;
  try {
    await migrate(probe.database, { upTo: level });
    const result = await probe.database.db.execute(
      sql`select tablename from pg_tables where schemaname = current_schema()`,
    );
    had = new Set((result as { rows: { tablename: string }[] }).rows.map((r) => r.tablename));
  } finally {
    await probe.drop();
  }
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().split('\n');
  const header = JSON.parse(lines[0]!) as { tables: string[] };
  const later = header.tables.filter((t) => !had.has(t));
  expect(lines.some((line) => later.some((t) => line.startsWith(`{"t":${JSON.stringify(t)},`)))).toBe(false);
  const known = readMigrations().map((m) => m.name);
  lines[0] = JSON.stringify({
    ...header,
    tables: header.tables.filter((t) => had.has(t)),
    migrations: known.slice(0, known.indexOf(level) + 1),
  });
  fs.writeFileSync(out, zlib.gzipSync(lines.join('\n')));
  return out;
}

it('a backup of an earlier version restores: loaded at its own level, then brought up to this one in the same transaction', async () => {
  const file = path.join(tmp, 'now.backup');
  await writeBackup(ctx.database.db, file, ctx.app.clock.now());
  const known = readMigrations().map((m) => m.name);
  // A file as the version before the register counts (0010 onwards) wrote it.
  const earlier = await asEarlierFile(file, path.join(tmp, 'earlier.backup'), '0009_audit_source');
  const dashboard = (await call(ctx.app, ctx.adminToken, 'GET', '/api/dashboard-total/ALL')).json();

  const target = await emptyDatabase();
  try {
    const result = await restoreBackup(target.database, earlier);
    expect(result.migrations).toEqual(known);
    const restored = await buildApp({ config: testConfig(), db: target.database.db });
    try {
      const token = await login(restored, 'admin', ADMIN_PASSWORD);
      // The counts the newer migrations brought (and the rebuild after them) are those of the rows.
      expect((await call(restored, token, 'GET', '/api/dashboard-total/ALL')).json()).toEqual(dashboard);
    } finally {
      await restored.close();
    }
  } finally {
    await target.drop();
  }

  // A file of a newer version, or one whose migrations are not this version's in order, is refused
  // before anything is written.
  const refusals: [string, string[], RegExp][] = [
    ['newer', [...known, '9999_from_the_future'], /newer version.*9999_from_the_future.*nothing was written/],
    ['shuffled', [known[1]!, known[0]!], /not those of this version.*nothing was written/],
  ];
  const other = await emptyDatabase();
  try {
    for (const [name, migrations, message] of refusals) {
      const bad = withMigrations(file, path.join(tmp, `${name}.backup`), migrations);
      const err = await restoreBackup(other.database, bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RestoreRefusedError);
      expect((err as Error).message).toMatch(message);
      expect(await tableExists(other.database, 'companies')).toBe(false);
    }
  } finally {
    await other.drop();
  }
});

/** Every backed-up table's rows in primary-key order, as the database writes them in JSON (bytea as hex). */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of backupTables()) {
    const keys = primaryKeyColumns(table).map((c) => sql`t.${sql.identifier(c.name)}`);
    const result = await database.db.execute(
      sql`select row_to_json(t)::text as j from ${table} t order by ${sql.join(keys, sql`, `)}`,
    );
    out[tableName(table)] = (result as { rows: { j: string }[] }).rows.map((r) => r.j);
  }
  return out;
}

it('reads every table in batches of bytes within one snapshot, and restores it exactly, images included', async () => {
  const { database } = ctx;
  const db = database.db;
  const companyId = await ctx.make.company('PT Banyak Baris');
  // Images of every byte value: most larger than a batch, one of the largest stored size (2 MiB).
  const batching: ByteBatching = { targetBytes: 3000, firstRows: 2, maxRows: 4 };
  const pictures = [10, 5_000, 40_000, 2 * 2 ** 20, 7, 12_000].map((size) => ({
    id: randomUUID(),
    data: randomBytes(size),
  }));
  // Raw: images of any size and bytes (no image service stores random bytes), to test the batching.
  for (const { id, data } of pictures) {
    await db.insert(images).values({
      id,
      name: `${id}.png`,
      content_type: 'image/png',
      data,
      etag: id,
      size: data.length,
      width: 1,
      height: 1,
    });
  }
  const training = (n: number) => ({
    id: randomUUID(),
    company_id: companyId,
    certificate_number: `PLT/BATCH/${n}`,
    name: `Peserta ${n}`,
    training: 'Auditor Internal',
    location: 'Jakarta',
    date: '2025-01-15',
  });
  // Raw: 25 rows in one insert, enough for many batches (the derived counts are rebuilt just below).
  await db.insert(trainingCertificates).values(Array.from({ length: 25 }, (_, n) => training(n)));
  await rebuildDerived(db);

  // Rows written (and committed, by another connection) while the backup runs: a company after
  // every key read so far, in the table being read, and rows of tables read later.
  const late = {
    company: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
    image: randomUUID(),
    training: training(99),
  };
  // Raw: a company with the highest possible id (read after every other key), committed mid-backup.
  const writeLate = async () => {
    await db.insert(companies).values({ id: late.company, name: 'PT Datang Terlambat' });
    await db.insert(images).values({
      id: late.image,
      name: `${late.image}.png`,
      content_type: 'image/png',
      data: randomBytes(100),
      etag: late.image,
      size: 100,
      width: 1,
      height: 1,
    });
    await db.insert(trainingCertificates).values({ ...late.training, company_id: late.company });
  };
  const seen: Record<string, number[]> = {};
  const file = path.join(tmp, 'batches.backup');
  await writeBackup(db, file, ctx.app.clock.now(), {
    batching,
    onBatch: async (table, rows) => {
      (seen[table] ??= []).push(rows);
      if (table === 'companies' && seen[table].length === 1) await writeLate();
    },
  });
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString();

  // Batches: never more rows than asked, a table of many rows in many, and a large row alone.
  const sizes = (table: string) => seen[table]!.map((n, i, all) => n - (all[i - 1] ?? 0));
  for (const table of Object.keys(seen)) {
    for (const n of sizes(table)) expect(n).toBeLessThanOrEqual(batching.maxRows);
  }
  expect(seen.role_permissions!.length).toBeGreaterThan(4);
  expect(Math.max(...sizes('permissions'))).toBeGreaterThan(1);
  const large = pictures.filter((p) => p.data.length * 2 > batching.targetBytes).length;
  expect(seen.images!.length).toBeGreaterThanOrEqual(large);

  // Written during the backup, after its snapshot: in the database, not in the file.
  const there = await db.execute(sql`select count(*)::int as n from companies where id = ${late.company}`);
  expect((there as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  expect([late.company, late.image, late.training.id].filter((id) => text.includes(id))).toEqual([]);
  await db.delete(trainingCertificates).where(sql`id = ${late.training.id}`);
  await db.delete(images).where(sql`id = ${late.image}`);
  await db.delete(companies).where(sql`id = ${late.company}`);

  // The same snapshot read in one batch a table makes the same file (the header's time aside).
  const whole = path.join(tmp, 'one-batch.backup');
  await writeBackup(db, whole, ctx.app.clock.now());
  const body = (t: string) => t.split('\n').slice(1);
  expect(body(zlib.gunzipSync(fs.readFileSync(whole)).toString())).toEqual(body(text));

  const target = await emptyDatabase();
  try {
    await restoreBackup(target.database, file, { batching });
    expect(await everyRow(target.database)).toEqual(await everyRow(database));
    for (const { id, data } of pictures) {
      const [row] = await target.database.db
        .select({ data: images.data })
        .from(images)
        .where(sql`id = ${id}`);
      expect(row!.data.equals(data)).toBe(true);
    }
  } finally {
    await target.drop();
  }
});
