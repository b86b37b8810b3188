import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findMigrationsDir, readMigrations } from '../src/db/migrate';

/** A name that changes whenever a migration does, so templates are rebuilt only then. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const m of readMigrations(findMigrationsDir(__dirname)))
    hash.update(m.name).update(m.statements.join('\n'));
  return hash.digest('hex').slice(0, 12);
}

export const pgliteTemplateFile = () =>
  path.join(os.tmpdir(), `sertifikasi-pglite-${migrationsHash()}.tar.gz`);
export const pgTemplateName = () => `sertifikasi_tpl_${migrationsHash()}`;

export const usePostgres = () => process.env.TEST_DB === 'postgres';

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
  return url;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export const templateExists = (file: string) => fs.existsSync(file);
