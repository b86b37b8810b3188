import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from './index';
import { pgError } from '../lib/errors';

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** Finds api/drizzle from wherever this code runs (source under jest, or the bundle in dist/). */
export function findMigrationsDir(start = __dirname): string {
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'drizzle', 'meta', '_journal.json');
    if (fs.existsSync(candidate)) return path.dirname(path.dirname(candidate));
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No drizzle/meta/_journal.json above ${start}`);
    dir = parent;
  }
}

export function readMigrations(dir = findMigrationsDir()): { name: string; statements: string[] }[] {
  const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as Journal;
  return [...journal.entries]
    .sort((a, b) => a.idx - b.idx)
    .map((entry) => ({
      name: entry.tag,
      statements: fs
        .readFileSync(path.join(dir, `${entry.tag}.sql`), 'utf8')
        .split('--> statement-breakpoint')
        .map((s) => s.trim())
        .filter(Boolean),
    }));
}

export interface MigrateOptions {
  /** Where the migrations are (api/drizzle unless a test brings its own). */
  dir?: string;
  /** Apply migrations up to and including this one, none after it (a restore of an older backup). */
  upTo?: string;
}

/** The migrations of `dir` up to and including `upTo` (all when unset); unknown `upTo` throws. */
function migrationsUpTo(options: MigrateOptions): ReturnType<typeof readMigrations> {
  const all = readMigrations(options.dir);
  if (options.upTo === undefined) return all;
  const last = all.findIndex((m) => m.name === options.upTo);
  if (last < 0) throw new Error(`No migration ${options.upTo}`);
  return all.slice(0, last + 1);
}

/**
 * Applies `migration` in the caller's transaction unless it is recorded as applied, waiting first
 * for the row lock of `_migration_lock` (see `migrate`). Answers whether it applied it.
 */
async function applyOne(tx: Executor, migration: { name: string; statements: string[] }): Promise<boolean> {
  // Building an index on a large table, or waiting for another process's migration, may take
  // longer than the pool's statement timeout (DB_STATEMENT_TIMEOUT_MS), which is for requests.
  await tx.execute(sql`set local statement_timeout = 0`);
  await tx.execute(sql`select id from _migration_lock where id = 1 for update`);
  const done = await tx.execute(sql`select 1 from _migrations where name = ${migration.name}`);
  if ((done as { rows: unknown[] }).rows.length > 0) return false;
  for (const statement of migration.statements) await tx.execute(sql.raw(statement));
  await tx.execute(sql`insert into _migrations (name) values (${migration.name})`);
  return true;
}

/**
 * Applies pending migrations, each in its own transaction. Concurrent runs (several API processes
 * starting at once) serialise on a row lock of `_migration_lock` (no advisory locks: portable to
 * distributed Postgres engines), so none is applied twice. Returns the names applied.
 */
export async function migrate(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  const { db } = database;
  // Two processes creating the bookkeeping tables at once can collide inside PostgreSQL's catalog
  // even with IF NOT EXISTS; the loser simply tries again.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(sql`create table if not exists _migration_lock (id integer primary key)`);
      await db.execute(sql`insert into _migration_lock (id) values (1) on conflict (id) do nothing`);
      await db.execute(
        sql`create table if not exists _migrations (name text primary key, applied_at timestamptz not null default now())`,
      );
      break;
    } catch (err) {
      const code = pgError(err)?.code;
      if (attempt >= 5 || !['23505', '42P07', '42710'].includes(code ?? '')) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
  const applied: string[] = [];
  for (const migration of migrationsUpTo(options)) {
    await db.transaction(async (tx) => {
      if (await applyOne(tx, migration)) applied.push(migration.name);
    });
  }
  return applied;
}

/**
 * Applies the pending migrations inside the caller's transaction (`migrate` must have made the
 * bookkeeping tables before): a restore of an older backup brings the loaded rows up to this
 * version in the load's own transaction, so a failure keeps nothing. Returns the names applied.
 */
export async function migrateWithin(tx: Executor, options: MigrateOptions = {}): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrationsUpTo(options)) {
    if (await applyOne(tx, migration)) applied.push(migration.name);
  }
  return applied;
}
