/**
 * Sign-in latency while images are uploaded (bench/README.md, "Uploads beside sign-in"). sharp and
 * argon2 both run on libuv's thread pool: this measures how long a sign-in takes alone, then while
 * several clients keep uploading companies with three 4096 x 4096 images each. Prints numbers and
 * asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import sharp from 'sharp';
import { buildApp, LOG_REDACT, loadConfig, openRuntime } from './api';
import { closeOnInterrupt, onInterrupt } from './harness';
import { embeddedTarget } from './targets';
import { envInt } from './settings';

const settings = {
  uploaders: envInt('BENCH_UPLOADERS', 6, 1, 50),
  signIns: envInt('BENCH_SIGNINS', 20, 1, 1000),
  side: envInt('BENCH_IMAGE_SIDE', 4096, 16, 4096),
  /** The sign-ins beside uploads go on for at least this long, so they meet the uploads' image work. */
  seconds: envInt('BENCH_SECONDS', 20, 1, 600),
};

const SIDE = settings.side;

/** Three images of SIDE x SIDE under 2 MiB each: two photo-like JPEGs (blurred noise) and a PNG. */
async function makeImages(): Promise<{ data: Buffer; type: string; filename: string }[]> {
  const noise = () =>
    sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } });
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE}" height="${SIDE}">` +
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#036"/>' +
      `</linearGradient></defs><rect width="${SIDE}" height="${SIDE}" fill="url(#g)"/>` +
      `<circle cx="${SIDE / 2}" cy="${SIDE / 2}" r="${SIDE / 3}" fill="#c33"/></svg>`,
  );
  return [
    {
      data: await noise().blur(3).jpeg({ quality: 80 }).toBuffer(),
      type: 'image/jpeg',
      filename: 'logo.jpg',
    },
    {
      data: await sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: '#3060a0' } })
        .composite([{ input: gradient }])
        .png()
        .toBuffer(),
      type: 'image/png',
      filename: 'logo-cert.png',
    },
    { data: await noise().blur(2).jpeg({ quality: 70 }).toBuffer(), type: 'image/jpeg', filename: 'ttd.jpg' },
  ];
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

async function signIn(url: string, password: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${body}`);
  return performance.now() - started;
}

function stats(samples: number[]): { n: number; p50: number; p90: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] ?? NaN };
}

const secs = (ms: number) => (ms / 1000).toFixed(2);
const line = (label: string, s: ReturnType<typeof stats>) =>
  `  ${label.padEnd(34)} n=${String(s.n).padStart(3)}  p50 ${secs(s.p50)} s  p90 ${secs(s.p90)} s  max ${secs(s.max)} s`;

async function main(): Promise<void> {
  console.log(
    `Upload vs sign-in benchmark: node ${process.version}, ${os.cpus().length} CPUs, ` +
      `UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, ${settings.uploaders} uploaders, ` +
      `${settings.signIns} sign-ins alone, then at least ${settings.signIns} over at least ${settings.seconds} s ` +
      `beside uploads, images ${SIDE} x ${SIDE}`,
  );
  const images = await makeImages();
  console.log(
    `  images: ${images.map((i) => `${i.filename} ${(i.data.length / 1048576).toFixed(2)} MiB`).join(', ')}`,
  );

  const target = embeddedTarget();
  onInterrupt.add(target.dispose);
  const password = randomBytes(12).toString('base64url');
  const config = loadConfig({
    ...target.env,
    NODE_ENV: 'production',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: password,
    RATE_LIMIT_PUBLIC: '1000000',
    LOG_LEVEL: 'info',
  });
  const opened = await openRuntime(config, { migrate: true });
  const runtime = { ...opened, close: closeOnInterrupt(() => opened.close()) };
  try {
    const logger = pino({ level: config.logLevel, redact: LOG_REDACT }, pino.destination('/dev/null'));
    const app = await buildApp({ config, db: runtime.database.db, logger });
    try {
      const url = await listen(app);
      const token = (await (
        await fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password }),
        })
      ).json()) as { token: string };

      // Alone: one sign-in after another.
      const idle: number[] = [];
      for (let i = 0; i < settings.signIns; i++) idle.push(await signIn(url, password));

      // Beside uploads: each uploader keeps creating companies with three images until the sign-ins end.
      let stop = false;
      const uploadMs: number[] = [];
      const failures: Record<string, number> = {};
      const uploader = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const form = new FormData();
          form.append('name', `PT Bench Unggah ${n}-${i}-${randomBytes(3).toString('hex')}`);
          form.append('website', 'https://unggah.co.id');
          for (const [field, image] of ['logo_file', 'logo_cert_file', 'ttd_cert_file'].map(
            (f, k) => [f, images[k]!] as const,
          )) {
            form.append(field, new Blob([image.data], { type: image.type }), image.filename);
          }
          const started = performance.now();
          let outcome: string;
          try {
            const res = await fetch(`${url}/api/company`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token.token}` },
              body: form,
            });
            await res.arrayBuffer();
            outcome = String(res.status);
          } catch (err) {
            // A kept-alive connection the server closed while the request was sent (ECONNRESET).
            outcome = (err as { cause?: { code?: string } }).cause?.code ?? 'network';
          }
          if (outcome === '201') uploadMs.push(performance.now() - started);
          else failures[outcome] = (failures[outcome] ?? 0) + 1;
        }
      };
      const uploads = Array.from({ length: settings.uploaders }, (_, n) => uploader(n));
      // Let every uploader's first request reach the image work before measuring.
      await new Promise((r) => setTimeout(r, 1500));
      const busy: number[] = [];
      const started = performance.now();
      while (busy.length < settings.signIns || performance.now() - started < settings.seconds * 1000) {
        busy.push(await signIn(url, password));
      }
      const elapsed = performance.now() - started;
      stop = true;
      await Promise.all(uploads);

      console.log(line('sign-in alone', stats(idle)));
      console.log(line(`sign-in beside ${settings.uploaders} uploaders`, stats(busy)));
      console.log(line('upload (3 images) beside sign-ins', stats(uploadMs)));
      console.log(
        `  uploads completed: ${uploadMs.length} in ${secs(performance.now() - started + 1500)} s ` +
          `(sign-in phase ${secs(elapsed)} s)` +
          (Object.keys(failures).length ? `, failed: ${JSON.stringify(failures)}` : ''),
      );
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
    await target.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
