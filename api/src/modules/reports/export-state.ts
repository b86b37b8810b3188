import { is } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PgliteDatabase } from 'drizzle-orm/pglite';

/**
 * The report exports' state, held by the app instance (`app.reportExports`, decorated in app.ts):
 * two apps in one process (tests, a benchmark beside a server) count and tune their exports apart.
 */
export interface ReportExports {
  /** Exports of this app: running now, and how the others ended (logs and tests read these). */
  readonly stats: { running: number; completed: number; aborted: number; failed: number };
  /** Rows read from the database per batch of an export; unset: its database's (EXPORT_BATCH_SIZES). */
  batchSize: number | undefined;
}

/**
 * Rows per batch unless a test or benchmark sets another. PostgreSQL reads the next batch in its
 * own process while the app writes the current one, and a batch of 1000 keeps both busy (5000 was
 * slower there: the writer waited longer for each). The embedded database runs each batch's query
 * on the app's thread, which pays its planning and setup per batch: 5000 cost 12% less CPU per
 * export than 1000 (bench/README.md, "Scheme report export"). Either way one batch is held at a time.
 */
export const EXPORT_BATCH_SIZES = { postgres: 1000, pglite: 5000 } as const;

export function createReportExports(batchSize?: number): ReportExports {
  return { stats: { running: 0, completed: 0, aborted: 0, failed: 0 }, batchSize };
}

/** The rows per batch of this app's exports: as set, or its database's. */
export function exportBatchSize(app: FastifyInstance): number {
  return (
    app.reportExports.batchSize ??
    (is(app.db, PgliteDatabase) ? EXPORT_BATCH_SIZES.pglite : EXPORT_BATCH_SIZES.postgres)
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's report exports: counters and batch size (modules/reports/export-state.ts). */
    reportExports: ReportExports;
  }
}
