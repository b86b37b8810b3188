/*
 * The one door from the benchmark into the API's own code. bench/ measures the real app in-process
 * (docs/conventions.md#the-parts-and-what-each-may-import: bench may import anything; eslint.config.mjs lets bench/ import api/).
 */
export { buildApp, LOG_REDACT } from '../../api/src/app';
export { loadConfig, type Config } from '../../api/src/config';
export { openRuntime, type Runtime } from '../../api/src/runtime';
export { freePort, leftoverServer, stopPid } from '../../api/src/db/embedded';
export { openDatabase } from '../../api/src/db';
export type { Database, Db } from '../../api/src/db';
export { migrate, readMigrations } from '../../api/src/db/migrate';
export { writeBackup } from '../../api/src/services/backup';
export { restoreBackup } from '../../api/src/services/restore';
export { seedAdministrator, seedPermissions } from '../../api/src/services/seed';
export { DEFAULT_DEMO_SEED, demoVolume, fillDemoDatabase } from '../../api/src/demo';
export { randomSource, type Random } from '../../api/src/demo/random';
export { createClock } from '../../api/src/lib/clock';
export { rebuildDerived } from '../../api/src/services/derived';
export { type SQL, sql } from 'drizzle-orm';
export {
  companies,
  permissions,
  rolePermissions,
  roles,
  userCompanies,
  users,
} from '../../api/src/db/schema';
export { hashPassword } from '../../api/src/lib/crypto';
export { schemeFacts } from '../../api/src/modules/planned-audits/planned-audits.repository';
export { planReads } from '../../api/src/modules/planned-audits/plan-reads.repository';
export { auditDaysOf } from '../../api/src/modules/planned-audits/planned-audits.service';
export { createSession } from '../../api/src/services/sessions';
