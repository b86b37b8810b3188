import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db';
import { migrate } from '../src/db/migrate';
import { adminUrl, pgliteTemplateFile, pgTemplateName, usePostgres, withDatabase } from './template';

/**
 * Builds a migrated template once (per migration set): a PGlite data-dir dump, or a PostgreSQL
 * template database. Every test file then starts from its own copy.
 */
export default async function globalSetup() {
  if (usePostgres()) {
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
    return;
  }
  const file = pgliteTemplateFile();
  if (fs.existsSync(file)) return;
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const database = await openDatabase({ pglite: client });
  await migrate(database);
  const dump = await client.dumpDataDir('gzip');
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(tmp, file);
  await client.close();
}
