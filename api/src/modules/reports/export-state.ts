import type { FastifyInstance } from 'fastify';

/**
 * The report exports' state, held by the app instance (`app.reportExports`, decorated in app.ts):
 * two apps in one process (tests, a benchmark beside a server) count and tune their exports apart.
 */
export interface ReportExports {
  /** Exports of this app: running now, and how the others ended (logs and tests read these). */
  readonly stats: { running: number; completed: number; aborted: number; failed: number };
  /** Rows read from the database per batch of an export; unset: EXPORT_BATCH_SIZE. */
  batchSize: number | undefined;
}

/**
 * Rows per batch unless a test or benchmark sets another. PostgreSQL reads the next batch in its
 * own process while the app writes the current one, and a batch of 1000 keeps both busy (5000 was
 * slower: the writer waited longer for each; bench/README.md, "Scheme report export"). One batch
 * is held at a time.
 */
export const EXPORT_BATCH_SIZE = 1000;

export function createReportExports(batchSize?: number): ReportExports {
  return { stats: { running: 0, completed: 0, aborted: 0, failed: 0 }, batchSize };
}

/** The rows per batch of this app's exports: as set, or EXPORT_BATCH_SIZE. */
export function exportBatchSize(app: FastifyInstance): number {
  return app.reportExports.batchSize ?? EXPORT_BATCH_SIZE;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's report exports: counters and batch size (modules/reports/export-state.ts). */
    reportExports: ReportExports;
  }
}
