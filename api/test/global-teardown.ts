import fs from 'node:fs';

/** Stops the embedded server global-setup.ts started for this run (none with TEST_DATABASE_URL). */
export default async function globalTeardown() {
  const started = globalThis.__sertifikasiTestServer;
  if (!started) return;
  globalThis.__sertifikasiTestServer = undefined;
  await started.server.stop();
  fs.rmSync(started.dir, { recursive: true, force: true });
}
