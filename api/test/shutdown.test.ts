import http from 'node:http';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { formBody } from './forms';
import { runApi, waitFor } from './processes';
import { copyPostgresTemplate } from './template';
import { freePort } from '../src/db/embedded';

/**
 * SIGTERM (docs/rules.md#faults-and-overload) on a real server process: it stops taking connections, a
 * download streaming at that moment completes, the database is closed and the process exits 0.
 * (operations.test.ts covers a sign-in in flight on the embedded database.)
 */

/**
 * A JPEG of noise: it does not compress, so a backup holding a few is several MiB. JPEG at quality
 * 100, because the upload's re-encoding (services/images.ts) keeps its first try, quality 90, which
 * comes out smaller; a noisy PNG would send it through the palette quantiser, tens of seconds of CPU
 * on a busy machine for nothing this test is about.
 */
const noisyJpeg = () =>
  sharp(randomPixels(640, 640), { raw: { width: 640, height: 640, channels: 3 } })
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer();
function randomPixels(w: number, h: number) {
  const buf = Buffer.alloc(w * h * 3);
  for (let i = 0; i < buf.length; i++) buf[i] = Math.floor(Math.random() * 256);
  return buf;
}

it('on SIGTERM a backup download under way completes, new connections are refused, and the process exits 0', async () => {
  const copy = await copyPostgresTemplate();
  const port = await freePort();
  const { child, output, exited } = runApi('src/server.ts', [], {
    DATABASE_URL: copy.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'secret-admin-pw',
    RATE_LIMIT_PUBLIC: '1000',
    // Not about scheduled backups (with DATABASE_URL they would need BACKUP_DIR).
    BACKUP_SCHEDULE: 'off',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(() => output().includes('listening on'), 'server start', {
      timeoutMs: 120_000,
      every: 200,
    });
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'secret-admin-pw' }),
    });
    const { token } = (await login.json()) as { token: string };
    for (let i = 0; i < 2; i++) {
      const image = { data: await noisyJpeg(), filename: 'logo.jpg', type: 'image/jpeg' };
      const form = await formBody({
        name: `PT Besar ${i}`,
        website: `https://besar${i}.co.id`,
        logo_file: image,
        logo_cert_file: { ...image, data: await noisyJpeg() },
        ttd_cert_file: { ...image, data: await noisyJpeg() },
      });
      const res = await fetch(`${base}/api/company`, {
        method: 'POST',
        headers: { ...form.headers, authorization: `Bearer ${token}` },
        body: form.payload,
      });
      expect(res.status).toBe(201);
    }

    // The download starts, and its reader pauses after the first chunk.
    const chunks: Buffer[] = [];
    let resume: () => void = () => undefined;
    const download = new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}/api/backup`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.once('data', () => {
            res.pause();
            resume = () => res.resume();
          });
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    await waitFor(() => chunks.length > 0, 'the first chunk of the download', { timeoutMs: 10_000 });

    child.kill('SIGTERM');
    await waitFor(() => output().includes('shutting down'), 'the shutdown to begin', { timeoutMs: 5_000 });
    // No new connections once it is shutting down.
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();

    resume();
    const { status, body } = await download;
    expect(status).toBe(200);
    const lines = zlib.gunzipSync(body).toString().trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ end: true, counts: { companies: 2 } });

    expect(await exited).toBe(0);
    expect(output()).toContain('stopped cleanly');
  } finally {
    child.kill('SIGKILL');
    await copy.drop();
  }
}, 120_000);
