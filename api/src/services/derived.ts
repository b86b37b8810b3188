/**
 * The tables derived from the records, and what a write that bypasses the services must do after
 * it (the demo generator's bulk insert, a restore, a test's fixtures): the register counts are
 * rebuilt from the records (services/register-counts.ts) and every list version is renewed, so no
 * process keeps a list total counted before the load (services/list-versions.ts). Neither is in a
 * backup (db/backup.ts): a restore makes them again.
 */
import type { Executor } from '../db';
import { listVersions } from '../db/schema';
import { renewListVersions } from './list-versions';
import { REGISTER_COUNT_TABLES, rebuildRegisterCounts } from './register-counts';

/** Every derived table: left out of backups, made again by `rebuildDerived`. */
export const DERIVED_TABLES = [...REGISTER_COUNT_TABLES, listVersions] as const;

/** Rebuilds every derived table in `exec` (the bulk load's transaction). */
export async function rebuildDerived(exec: Executor): Promise<void> {
  await rebuildRegisterCounts(exec);
  await renewListVersions(exec);
}
