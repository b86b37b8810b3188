import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db';
import { type EmbeddedServer, startEmbeddedServer } from '../src/db/embedded';
import { migrate } from '../src/db/migrate';
import { adminUrl, pgTemplateName, withDatabase } from './template';

declare global {
  var __sertifikasiTestServer: { server: EmbeddedServer; dir: string } | undefined;
}

/**
 * One PostgreSQL server for the run: TEST_DATABASE_URL's, or else an embedded one started the way
 * the API starts its own (in a temporary DATA_DIR, stopped by global-teardown.ts). Then a migrated
 * template database, built once per migration set; every test file starts from its own copy.
 */
export default async function globalSetup() {
  if (!process.env.TEST_DATABASE_URL) {
    const dir = path.join(os.tmpdir(), `sertifikasi-test-server-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { mode: 0o755 });
    const server = await startEmbeddedServer(dir, { unsafeFast: true }).catch((err: unknown) => {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    });
    globalThis.__sertifikasiTestServer = { server, dir };
    // The test workers start after this and inherit it: the superuser's, which makes databases.
    process.env.TEST_DATABASE_URL = server.adminUrl;
  }
  const name = pgTemplateName();
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return;
    const building = `${name}_building_${process.pid}`;
    await admin.query(`create database "${building}"`);
    const database = await openDatabase({ databaseUrl: withDatabase(adminUrl(), building), poolSize: 1 });
    await migrate(database);
    await database.close();
    try {
      await admin.query(`alter database "${building}" rename to "${name}"`);
    } catch {
      await admin.query(`drop database if exists "${building}"`);
    }
  } finally {
    await admin.end();
  }
}
