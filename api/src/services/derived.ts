/**
 * The tables derived from the records, and what a write that bypasses the services must do after
 * it (the demo generator's bulk insert, a restore, a test's fixtures): the register counts and the
 * certification cycle's items due are rebuilt from the records (services/register-counts.ts,
 * services/cycle-due.ts) and every list version is renewed, so no process keeps a list total
 * counted before the load (services/list-versions.ts). None is in a backup (db/backup.ts): a
 * restore makes them again.
 */
import { DEFAULT_TIME_ZONE } from '../config';
import type { Executor } from '../db';
import { listVersions, schemeCycleDue, schemeCycleDueCounts } from '../db/schema';
import { type Clock, createClock } from '../lib/clock';
import { rebuildCycleDue } from './cycle-due';
import { renewListVersions } from './list-versions';
import { REGISTER_COUNT_TABLES, rebuildRegisterCounts } from './register-counts';

/** Every derived table: left out of backups, made again by `rebuildDerived`. */
export const DERIVED_TABLES = [
  ...REGISTER_COUNT_TABLES,
  schemeCycleDue,
  schemeCycleDueCounts,
  listVersions,
] as const;

/**
 * Rebuilds every derived table in `exec` (the bulk load's transaction). `clock`: the app's (its
 * time zone dates the status changes a suspension limit counts from); by default one for `TZ`.
 */
export async function rebuildDerived(
  exec: Executor,
  clock: Pick<Clock, 'today'> = createClock(process.env.TZ || DEFAULT_TIME_ZONE),
): Promise<void> {
  await rebuildRegisterCounts(exec);
  await rebuildCycleDue(exec, clock);
  await renewListVersions(exec);
}
