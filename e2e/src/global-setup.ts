/**
 * Builds and starts the system once for the whole suite (`npm start`, as README says) and tells the
 * tests where it is through E2E_BASE_URL / E2E_ADMIN_PASSWORD. With E2E_BASE_URL already set (and
 * E2E_ADMIN_PASSWORD), a running system is reused instead.
 */
import { chromiumPath, ENV_KEYS, started, startSystem } from './support/system';

export default async function globalSetup(): Promise<void> {
  chromiumPath();
  if (process.env[ENV_KEYS.baseUrl]) {
    if (!process.env[ENV_KEYS.adminPassword]) {
      throw new Error(
        `e2e: ${ENV_KEYS.baseUrl} is set; set ${ENV_KEYS.adminPassword} (the admin password) too`,
      );
    }
    return;
  }
  const adminPassword = `e2e-Admin-${Date.now().toString(36)}`;
  process.stdout.write(
    '\ne2e: building and starting the system (`npm start`; the first build takes minutes) ...\n',
  );
  const system = await startSystem(adminPassword);
  started.system = system;
  // Should jest end without its teardown (interrupted, crashed), the server still goes.
  process.once('exit', () => {
    if (started.system !== system) return;
    try {
      process.kill(-system.pid, 'SIGKILL');
    } catch {
      // already stopped
    }
  });
  process.env[ENV_KEYS.baseUrl] = system.baseUrl;
  process.env[ENV_KEYS.adminPassword] = adminPassword;
  process.env.E2E_FRESH_DATABASE = '1';
  process.stdout.write(`e2e: system up at ${system.baseUrl}\n`);
}
