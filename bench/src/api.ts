/*
 * The one door from the benchmark into the API's own code. bench/ measures the real app in-process
 * (CONVENTIONS.md: bench may import anything; eslint.config.mjs lets bench/ import api/).
 */
export { buildApp, LOG_REDACT } from '../../api/src/app';
export { loadConfig, type Config } from '../../api/src/config';
export { openRuntime, type Runtime } from '../../api/src/runtime';
export { openDatabase } from '../../api/src/db';
export type { Db } from '../../api/src/db';
export {
  companies,
  permissions,
  rolePermissions,
  roles,
  userCompanies,
  users,
} from '../../api/src/db/schema';
export { hashPassword } from '../../api/src/lib/crypto';
