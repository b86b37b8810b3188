/**
 * The state derived from the records (docs/architecture.md "Derived state"), each declared once:
 * its tables, the after-write step that keeps it current at every write (single and batch forms),
 * and how to make it again from the records. Declared here, each is then left out of backups
 * (services/backup.ts), kept by the write sequence (AFTER_WRITE_STEPS names the steps) and rebuilt
 * after every write that bypasses the services (a restore, a test's fixtures). Adding derived state is one more entry.
 */
import type { PgTable } from 'drizzle-orm/pg-core';
import { DEFAULT_TIME_ZONE } from '../config';
import type { Executor } from '../db';
import { listVersions, schemeCycleDue, schemeCycleDueCounts } from '../db/schema';
import { type Clock, createClock } from '../lib/clock';
import type { ServiceContext } from './context';
import { cycleDueStep, rebuildCycleDue } from './cycle-due';
import { bumpListVersions, bumpListVersionsMany, renewListVersions } from './list-versions';
import {
  countRegister,
  countRegisterMany,
  REGISTER_COUNT_TABLES,
  rebuildRegisterCounts,
} from './register-counts';
import type { AfterWriteStep, WriteEvent } from './write-event';

export interface DerivedState {
  /** What it is, for the docs and the logs. */
  name: string;
  /** Its tables: never in a backup, emptied and filled again by `rebuild`. */
  tables: readonly PgTable[];
  /** The after-write step that keeps it current (its batch form for many writes at once). */
  step: AfterWriteStep;
  /** Makes it again from the records, in the caller's transaction. */
  rebuild: (exec: Executor, clock: Pick<Clock, 'today'>) => Promise<void>;
}

/** The register's counts per company (services/register-counts.ts): dashboard, reports, totals. */
export const REGISTER_COUNTS: DerivedState = {
  name: 'register counts',
  tables: REGISTER_COUNT_TABLES,
  step: Object.assign((ctx: ServiceContext, event: WriteEvent) => countRegister(ctx, event), {
    batch: countRegisterMany,
    locksShared: true,
  }),
  rebuild: (exec) => rebuildRegisterCounts(exec),
};

/** The certification cycle's items due and their counts (services/cycle-due.ts): 'Jadwal Audit'. */
export const CYCLE_DUE: DerivedState = {
  name: 'items due',
  tables: [schemeCycleDue, schemeCycleDueCounts],
  step: cycleDueStep,
  rebuild: rebuildCycleDue,
};

/** The list versions (services/list-versions.ts): when a cached list total or page is stale. */
export const LIST_VERSIONS: DerivedState = {
  name: 'list versions',
  tables: [listVersions],
  step: Object.assign((ctx: ServiceContext, event: WriteEvent) => bumpListVersions(ctx, event), {
    batch: bumpListVersionsMany,
    locksShared: true,
  }),
  rebuild: (exec) => renewListVersions(exec),
};

/** Every piece of derived state. */
export const DERIVED_STATE: readonly DerivedState[] = [REGISTER_COUNTS, CYCLE_DUE, LIST_VERSIONS];

/** Every derived table: left out of backups, made again by `rebuildDerived`. */
export const DERIVED_TABLES: readonly PgTable[] = DERIVED_STATE.flatMap((d) => d.tables);

/**
 * Rebuilds every derived table in `exec` (the bulk load's transaction). `clock`: the app's (its
 * time zone dates the status changes a suspension limit counts from); by default one for `TZ`.
 */
export async function rebuildDerived(
  exec: Executor,
  clock: Pick<Clock, 'today'> = createClock(process.env.TZ || DEFAULT_TIME_ZONE),
): Promise<void> {
  for (const state of DERIVED_STATE) await state.rebuild(exec, clock);
}
