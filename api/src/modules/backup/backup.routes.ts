import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { backupFileName, streamAndRemove, writeBackup } from '../../services/backup';
import { forbidden } from '../../lib/errors';
import { defineRoute } from '../../lib/route';

/**
 * `GET /api/backup` (docs/rules.md#backup): the whole register as one gzip file, read in one
 * consistent snapshot while the system runs. Only a user holding every permission with scope ALL.
 * The snapshot is written to a temporary file first (the transaction ends with it), then sent: a
 * secret like any backup, 0600 in a fresh folder of mode 0700 (mkdtemp), removed once sent.
 * The scheduled backup writes the same file into BACKUP_DIR (backup.job.ts).
 */
export default async function backupRoutes(app: FastifyInstance) {
  defineRoute(app, {
    method: 'GET',
    url: '/api/backup',
    summary: 'Download a full backup (every permission and scope ALL)',
    tags: ['operations'],
    // The hook checks one key (roles:edit) and scope ALL; the handler then asks for every key (the
    // Access type has no "all of these" form).
    access: { permission: 'roles:edit', scopeAll: true },
    response: { 200: { type: 'string', format: 'binary' } },
    handler: async (req, reply) => {
      if (!PERMISSION_KEYS.every((key) => req.auth.permissions.has(key))) throw forbidden();
      const now = app.clock.now();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-backup-'));
      const file = path.join(dir, 'backup.gz');
      try {
        await writeBackup(app.db, file, now);
      } catch (err) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw err;
      }
      const stream = streamAndRemove(file);
      stream.once('close', () => fs.rmSync(dir, { recursive: true, force: true }));
      return reply
        .header('content-type', 'application/gzip')
        .header('content-length', String(fs.statSync(file).size))
        .header('content-disposition', `attachment; filename="${backupFileName(app.clock, now)}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  });
}
