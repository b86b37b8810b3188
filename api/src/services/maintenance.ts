import { sql } from 'drizzle-orm';
import type { Database } from '../db';
import type { Clock } from '../lib/clock';
import { purgeEndedSessions } from './sessions';

/**
 * Housekeeping run at start and hourly: ended sessions go, and on the embedded database (PGlite
 * has no autovacuum) tables are vacuumed and their statistics refreshed, so that search indexes and
 * the planner stay good. PostgreSQL's autovacuum does the latter by itself.
 */
export async function runMaintenance(database: Database, clock: Clock): Promise<void> {
  await purgeEndedSessions(database.db, clock.now());
  if (database.kind === 'pglite') await database.db.execute(sql`vacuum analyze`);
}
