/**
 * The report exports' state, held by the app instance (`app.reportExports`, decorated in app.ts):
 * two apps in one process (tests, a benchmark beside a server) count and tune their exports apart.
 */
export interface ReportExports {
  /** Exports of this app: running now, and how the others ended (logs and tests read these). */
  readonly stats: { running: number; completed: number; aborted: number; failed: number };
  /** Rows read from the database per batch of an export. */
  batchSize: number;
}

/** Rows per batch unless a test or benchmark sets another. */
export const EXPORT_BATCH_SIZE = 1000;

export function createReportExports(batchSize = EXPORT_BATCH_SIZE): ReportExports {
  return { stats: { running: 0, completed: 0, aborted: 0, failed: 0 }, batchSize };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's report exports: counters and batch size (modules/reports/export-state.ts). */
    reportExports: ReportExports;
  }
}
