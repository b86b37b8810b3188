/**
 * An import job survives the death of the process running it: an API process is killed (SIGKILL,
 * no shutdown) in the middle of an import; another process on the same database takes the job up
 * where the last committed chunk left it. No row is applied twice and none is lost.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { type Database, openDatabase } from '../src/db';
import { freePort } from '../src/db/embedded';
import { auditLog, importJobs, trainingCertificates } from '../src/db/schema';
import { formBody } from './forms';
import { copyPostgresTemplate } from './template';

const apiRoot = path.resolve(__dirname, '..');
const ROWS = 3000;

function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiRoot,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function trainingFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(['Nomor Sertifikat', 'Nama Personel', 'Nama Pelatihan', 'Lokasi', 'Tanggal Sertifikasi']);
  for (let i = 1; i <= ROWS; i++) sheet.addRow([`RSM-${i}`, `Peserta ${i}`, 'Auditor', 'Solo', '01/02/2025']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('an import job after its process is killed', () => {
  let copy: { url: string; drop: () => Promise<void> };
  let database: Database;
  const servers: ChildProcess[] = [];

  beforeAll(async () => {
    copy = await copyPostgresTemplate();
    database = await openDatabase({ databaseUrl: copy.url, poolSize: 2 });
  });
  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await database.close();
    await copy.drop();
  });

  it('continues on another process from its last committed chunk: every row once', async () => {
    const env = {
      DATABASE_URL: copy.url,
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'resume-admin-pw',
      BACKUP_SCHEDULE: 'off',
      IMPORT_CHUNK_ROWS: '50',
      JOB_MONITOR_SECONDS: '1',
      JOB_POLL_MS: '500',
    };
    const start = async () => {
      const port = await freePort();
      const server = startServer({ ...env, PORT: String(port) });
      servers.push(server.child);
      const base = `http://127.0.0.1:${port}`;
      await until(
        async () => ((await fetch(`${base}/api/health`)).ok ? true : undefined),
        `the server to listen\n${server.output()}`,
      );
      return { base, server };
    };

    const first = await start();
    const login = await fetch(`${first.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'resume-admin-pw' }),
    });
    const { token } = (await login.json()) as { token: string };
    const authz = { authorization: `Bearer ${token}` };
    const company = await fetch(`${first.base}/api/company`, {
      method: 'POST',
      headers: { ...authz, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'PT Lanjut Impor', website: 'https://lanjut.co.id' }),
    });
    const companyId = ((await company.json()) as { id: string }).id;

    const { payload, headers } = await formBody({
      file_name: 'peserta.xlsx',
      file: {
        data: await trainingFile(),
        filename: 'peserta.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    const posted = await fetch(`${first.base}/api/import/training-certificate/${companyId}?mode=apply`, {
      method: 'POST',
      headers: { ...headers, ...authz },
      body: new Uint8Array(payload),
    });
    expect(posted.status).toBe(202);
    const { job } = (await posted.json()) as { job: { id: string; total: number } };
    expect(job.total).toBe(ROWS);

    const stored = async () =>
      (await database.db.select().from(importJobs).where(eq(importJobs.id, job.id)))[0]!;
    const certificates = async () =>
      Number(
        (
          await database.db
            .select({ n: count() })
            .from(trainingCertificates)
            .where(eq(trainingCertificates.company_id, companyId))
        )[0]!.n,
      );

    // Some chunks in, far from the end: the process dies without a word.
    await until(async () => ((await stored()).done >= 200 ? true : undefined), 'a few chunks', 120_000);
    first.server.child.kill('SIGKILL');
    await new Promise((r) => first.server.child.once('exit', r));
    const atKill = await stored();
    expect(atKill.state).toBe('running');
    expect(atKill.done).toBeLessThan(ROWS);
    // What the job counts as done is exactly what is stored: a chunk and its progress commit together.
    expect(await certificates()).toBe(atKill.done);

    // Another process of the cluster takes the job up.
    const second = await start();
    const finished = await until(async () => {
      const res = await fetch(`${second.base}/api/import/jobs/${job.id}`, { headers: authz });
      const body = (await res.json()) as { state: string; done: number; result: unknown };
      return body.state === 'done' || body.state === 'failed' ? body : undefined;
    }, `the job to finish on the second process\n${second.server.output()}`);
    expect(finished).toMatchObject({
      state: 'done',
      done: ROWS,
      result: { mode: 'apply', rows: ROWS, created: ROWS, updated: 0, unchanged: 0 },
    });
    expect(await certificates()).toBe(ROWS);
    // Each certificate written (and audited) once.
    const audited = await database.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.company_id, companyId), eq(auditLog.source, 'import')));
    expect(Number(audited[0]!.n)).toBe(ROWS);
  }, 300_000);
});
