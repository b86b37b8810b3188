import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { findMigrationsDir, readMigrations } from '../src/db/migrate';

/** A name that changes whenever a migration does, so templates are rebuilt only then. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const m of readMigrations(findMigrationsDir(__dirname)))
    hash.update(m.name).update(m.statements.join('\n'));
  return hash.digest('hex').slice(0, 12);
}

export const pgTemplateName = () => `sertifikasi_tpl_${migrationsHash()}`;

/** The run's server (global-setup.ts): TEST_DATABASE_URL, or the embedded one it started. */
export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('No test database server: global-setup.ts sets TEST_DATABASE_URL');
  return url;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A new PostgreSQL database copied from the migrated template: its URL and how to drop it. */
export async function copyPostgresTemplate(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sertifikasi_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database "${name}" template "${pgTemplateName()}"`);
  await admin.end();
  return {
    url: withDatabase(adminUrl(), name),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
