import type { Database } from '../db';
import type { Clock } from '../lib/clock';
import { purgeEndedSessions } from './sessions';

/**
 * Housekeeping run at start and hourly: ended sessions go. Vacuum and statistics are PostgreSQL's
 * autovacuum's (the embedded server runs it too).
 */
export async function runMaintenance(database: Database, clock: Clock): Promise<void> {
  await purgeEndedSessions(database.db, clock.now());
}
