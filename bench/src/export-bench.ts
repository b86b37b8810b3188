/**
 * The scheme report export: seconds and the server's peak memory for an export of
 * EXPORT_ROWS schemes (default 100,000) over HTTP, beside a bare exceljs streaming write of the
 * same rows, already in memory, in the same run. Prints numbers; asserts nothing.
 *
 *     npm run export --workspace bench                                   # embedded database
 *     TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run export --workspace bench
 *
 * Each target: a fresh database (temporary DATA_DIR / throwaway PostgreSQL database), one company
 * with EXPORT_ROWS schemes over 1,000 clients (seeded with one insert ... select from
 * generate_series), the API's own app listening on loopback, signed in as the administrator.
 * Memory is the process's resident set sampled every 10 ms, as the peak above what it was just
 * before the phase (after a forced GC when node runs with --expose-gc, as the script does).
 *
 * The whole export and the bare write each run EXPORT_REPEAT times (default 3); the best run is
 * reported, with every run's seconds and the CPU seconds this process used (the API and the client
 * run here, the database in its own processes; on a shared machine CPU is the steadier figure).
 * EXPORT_BATCH sets the app's rows per batch (default: its database's); EXPORT_PROFILE=<dir> also
 * writes a V8 CPU profile of those two phases (<target>-export / -bare .cpuprofile).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { reportColumns, SCHEME_REPORT_COLUMNS } from '@sertifikasi/shared-contracts';
import { buildApp } from './api';
import { EXCEL_DATE_FORMAT, excelDate } from '../../api/src/modules/reports/workbook';
import {
  type SchemeExportRow,
  schemeReportBatches,
  schemeReportWhere,
} from '../../api/src/modules/reports/scheme-report.repository';
import { EFFECTIVE_STATUS_LABELS } from '@sertifikasi/shared-contracts';
// The app's `reportExports` (its type, declared with it).
import type {} from '../../api/src/modules/reports/export-state';
import { envInt } from './settings';
import { listen, signIn } from './harness';
import { benchEachTarget, openTargetRuntime, type Target } from './targets';

const ROWS = envInt('EXPORT_ROWS', 100_000, 1_000, 2_000_000);
/** Timed runs of the whole export and of the bare write each; the best of them is reported. */
const REPEAT = envInt('EXPORT_REPEAT', 3, 1, 20);
/** Rows per batch of the app's exports (EXPORT_BATCH; default: the app's own). */
const BATCH = process.env.EXPORT_BATCH ? envInt('EXPORT_BATCH', 1000, 1, 100_000) : undefined;
const CLIENTS = 1_000;
const gc = (globalThis as { gc?: () => void }).gc;
/** EXPORT_PROFILE=<dir>: also writes a CPU profile of each timed phase there (<target>-<phase>.cpuprofile). */
const PROFILE_DIR = process.env.EXPORT_PROFILE || '';

/** Runs `work` under the V8 CPU profiler when EXPORT_PROFILE names a folder, writing `<name>.cpuprofile`. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    fs.writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

interface Phase {
  seconds: number;
  /** CPU seconds of this process (user + system, every thread) during the phase. */
  cpuSeconds: number;
  /** Every timed run's seconds, when the phase ran more than once (`seconds` is the best). */
  runs?: number[];
  /** Highest resident set seen, in MB (absolute). */
  rssMb: number;
  bytes: number;
  peakRssMb: number;
  peakHeapMb: number;
}

/** Runs `work`, sampling memory; peaks are above the values just before it started. */
async function measured(work: () => Promise<number>): Promise<Phase> {
  gc?.();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 10);
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const bytes = await work();
    const used = process.cpuUsage(cpu);
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
    return {
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (used.user + used.system) / 1e6,
      rssMb: rss / 2 ** 20,
      bytes,
      peakRssMb: (rss - base.rss) / 2 ** 20,
      peakHeapMb: (heap - base.heapUsed) / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

/** `work` measured `times` times; the run with the best time, with every run's seconds. */
async function bestOf(times: number, work: () => Promise<number>): Promise<Phase> {
  const phases: Phase[] = [];
  for (let i = 0; i < times; i++) phases.push(await measured(work));
  const best = phases.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  return { ...best, runs: phases.map((p) => p.seconds) };
}

/**
 * What `work` keeps alive: a full GC every 200 ms while it runs and the largest heap left after
 * one, above the heap after a GC just before (garbage not counted). Needs --expose-gc; slows the
 * work, so it runs apart from the timed runs.
 */
async function liveHeapMb(work: () => Promise<number>): Promise<number | null> {
  if (!gc) return null;
  gc();
  const base = process.memoryUsage().heapUsed;
  let live = base;
  const timer = setInterval(() => {
    gc();
    live = Math.max(live, process.memoryUsage().heapUsed);
  }, 200);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return (live - base) / 2 ** 20;
}

/** A sink that counts bytes and throws them away. */
function sink(): { stream: Writable; bytes: () => number } {
  let n = 0;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      n += chunk.length;
      done();
    },
  });
  return { stream, bytes: () => n };
}

async function seed(exec: (text: string) => Promise<void>, company: string): Promise<void> {
  const type = '00000000-0000-4000-8000-0000000000a1';
  const body = '00000000-0000-4000-8000-0000000000b1';
  await exec(
    `insert into companies (id, name, website) values ('${company}', 'PT Ekspor Besar', 'https://ekspor.co.id')`,
  );
  await exec(
    `insert into certification_types (id, company_id, name, category, code) values ('${type}', '${company}', 'ISO 9001:2015', 'Mutu', 'QMS')`,
  );
  await exec(`insert into accredited_bodies (id, company_id, name) values ('${body}', '${company}', 'KAN')`);
  await exec(`
    insert into client_certificates (id, company_id, certificate_number, region, name, email, phone)
    select md5('client' || i)::uuid, '${company}', 'KL-' || i, 'Jakarta', 'PT Klien Nomor ' || i,
           'info' || i || '@klien.co.id', '021-555-' || i
    from generate_series(1, ${CLIENTS}) as i`);
  for (let from = 1; from <= ROWS; from += 20_000) {
    const to = Math.min(ROWS, from + 19_999);
    await exec(`
    insert into schemes (id, company_id, certificate_id, certification_id, accredited_id, cert_number, status,
                         issue_date, valid_for, valid_for_type, expired_date, is_accredited)
    select md5('scheme' || i)::uuid, '${company}', md5('client' || (1 + i % ${CLIENTS}))::uuid, '${type}',
           case when i % 2 = 0 then '${body}'::uuid end, 'SC-' || i,
           (array['ACTIVE','ACTIVE','ACTIVE','SUSPENDED','WITHDRAWN','NOACTIVE','DRAFT'])[1 + i % 7],
           date '2015-01-01' + (i % 3650), 3, 'YEAR', date '2018-01-01' + (i % 3650), i % 2 = 0
    from generate_series(${from}, ${to}) as i`);
  }
  await exec('vacuum analyze');
}

async function benchTarget(target: Target): Promise<string[]> {
  const { password, config, logger, runtime } = await openTargetRuntime(target);
  const company = '00000000-0000-4000-8000-00000000c0de';
  const lines: string[] = [];
  try {
    let started = performance.now();
    await seed((text) => runtime.database.exec(text), company);
    console.log(
      `  ${target.name}: seeded ${ROWS} schemes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const app = await buildApp({ config, db: runtime.database.db, logger });
    if (BATCH) app.reportExports.batchSize = BATCH;
    try {
      const url = await listen(app);
      const token = await signIn(url, 'admin', password);
      const path = `/api/report-company-certification-scheme/${company}?type=export`;

      const viaHttp = async (query = '') => {
        const res = await fetch(`${url}${path}${query}`, { headers: { authorization: `Bearer ${token}` } });
        if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
        let bytes = 0;
        for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
        return bytes;
      };
      // A quarter of the rows (their issue dates span ten years), to see whether memory grows with rows.
      const quarter = '&issue_date=2015-01-01,2017-06-30';
      const quarterRows = await fetch(
        `${url}/api/report-company-certification-scheme/${company}?paginate=20${quarter}`,
        { headers: { authorization: `Bearer ${token}` } },
      ).then(async (res) => ((await res.json()) as { total: number }).total);
      // Warm-up (prepares, JIT), then the measured exports.
      await viaHttp(quarter);
      const exportedQuarter = await measured(() => viaHttp(quarter));
      const exported = await profiled(`${target.name}-export`, () => bestOf(REPEAT, () => viaHttp()));
      const liveQuarter = await liveHeapMb(() => viaHttp(quarter));
      const liveFull = await liveHeapMb(() => viaHttp());

      // The same rows, read once into memory (not measured), written by a bare exceljs streaming writer.
      started = performance.now();
      const filter = {
        query: {
          search: '',
          status: [],
          client: [],
          certification: [],
          accredited: [],
          issue_date: '',
          expired_date: '',
          type: 'export' as const,
          page: 1,
          paginate: 20 as const,
        },
        scope: [company],
        today: new Date().toISOString().slice(0, 10),
        issue: null,
        expired: null,
      };
      let rows: SchemeExportRow[] = [];
      for await (const batch of schemeReportBatches(
        runtime.database.db,
        filter,
        schemeReportWhere(filter),
        1000, // not timed
      )) {
        rows.push(...batch);
      }
      console.log(
        `  ${target.name}: read ${rows.length} rows into memory for the bare write in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const columns = reportColumns(SCHEME_REPORT_COLUMNS, { all: false });
      const bareWrite = async () => {
        const out = sink();
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out.stream, useStyles: true });
        const sheet = workbook.addWorksheet('Skema Sertifikasi', { views: [{ state: 'frozen', ySplit: 1 }] });
        sheet.columns = columns.map((c) => ({
          key: c.key,
          width: c.width,
          ...(c.kind === 'date' ? { style: { numFmt: EXCEL_DATE_FORMAT } } : {}),
        }));
        sheet.addRow(columns.map((c) => c.header)).commit();
        for (const row of rows) {
          sheet
            .addRow(
              columns.map((c) => {
                const v = row[c.key as keyof SchemeExportRow];
                if (v == null) return null;
                if (c.kind === 'date') return excelDate(String(v));
                if (c.kind === 'status') return EFFECTIVE_STATUS_LABELS[row.effective_status];
                return String(v);
              }),
            )
            .commit();
        }
        sheet.commit();
        await workbook.commit();
        return out.bytes();
      };
      await bareWrite();
      const bare = await profiled(`${target.name}-bare`, () => bestOf(REPEAT, bareWrite));
      rows = [];

      const fmt = (p: Phase) =>
        `${p.seconds.toFixed(2)} s${p.runs && p.runs.length > 1 ? ` (best of ${p.runs.map((r) => r.toFixed(2)).join(', ')})` : ''}, CPU ${p.cpuSeconds.toFixed(2)} s, ${(p.bytes / 2 ** 20).toFixed(1)} MB file, peak RSS ${p.rssMb.toFixed(0)} MB (+${p.peakRssMb.toFixed(0)}), heap peak +${p.peakHeapMb.toFixed(0)} MB`;
      lines.push(
        `| ${target.name} | export over HTTP, ${quarterRows} rows (a quarter) | ${fmt(exportedQuarter)} |`,
      );
      lines.push(`| ${target.name} | export over HTTP, ${ROWS} rows (read in batches) | ${fmt(exported)} |`);
      lines.push(
        `| ${target.name} | bare exceljs streaming write, ${ROWS} rows (already in memory) | ${fmt(bare)} |`,
      );
      const mb = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(1)} MB`);
      lines.push(
        `| ${target.name} | live heap during the export (GC every 200 ms) | ${quarterRows} rows: +${mb(liveQuarter)}; ${ROWS} rows: +${mb(liveFull)} |`,
      );
      lines.push(
        `| ${target.name} | ratio export / bare | ${(exported.seconds / bare.seconds).toFixed(2)} x time, ${(exported.cpuSeconds / bare.cpuSeconds).toFixed(2)} x CPU of this process |`,
      );
      for (const line of lines) console.log(line);
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
  }
  return lines;
}

async function main() {
  console.log(
    `scheme report export: ${ROWS} rows, best of ${REPEAT} runs, batches of ${BATCH ?? 'the app default'}${gc ? '' : ' (no --expose-gc: peaks include garbage)'}`,
  );
  const results = await benchEachTarget((target) => benchTarget(target));
  console.log(`\n| target | what | result |\n| --- | --- | --- |\n${results.join('\n')}`);
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
