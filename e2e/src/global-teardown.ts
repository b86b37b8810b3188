/** Stops the system the global setup started (SIGTERM to its process group) and removes its temp dir. */
import { started, stopSystem } from './support/system';

export default async function globalTeardown(): Promise<void> {
  const { system } = started;
  if (!system) return;
  started.system = undefined;
  await stopSystem(system);
}
