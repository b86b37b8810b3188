/**
 * Import from Excel (docs/rules.md#import): rows a second and the server process's memory for a company-certificate file
 * of IMPORT_ROWS rows (default 50,000: IMPORT_ROWS / 5 clients with five schemes each, every column
 * filled) checked and applied over HTTP (the apply as a job: from the POST, which checks the file
 * and answers 202, to the job's end, followed at GET /api/import/jobs/{id}), beside the bulk insert the demo
 * generator uses (`insert ... select * from json_populate_recordset(...)`, 2,000 rows a statement)
 * for the same clients, schemes and their audit rows, in one transaction with the generator's
 * `gin_pending_list_limit`. Prints numbers; asserts nothing.
 *
 *     npm run import --workspace bench                                   # embedded database
 *     TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run import --workspace bench
 *     IMPORT_FIRST=job npm run import --workspace bench                  # the import into the empty register
 *
 * Each target: a fresh database (temporary DATA_DIR / throwaway PostgreSQL database) with two
 * companies (one for the import, one for the bulk insert) each with a certification type and an
 * accreditation body, the API's own app listening on loopback, signed in as the administrator.
 * Memory: the resident set sampled every 10 ms, as the peak above what it was just before the phase
 * (after a forced GC: the script runs node with --expose-gc).
 */
import { randomUUID } from 'node:crypto';
import { addValidity } from '@sertifikasi/shared-contracts';
import { buildApp, type Db, rebuildDerived, sql } from './api';
import {
  applyImportJob,
  buildImportFile,
  clientValues,
  importLines,
  postImportFile as post,
  SCHEMES_PER_CLIENT,
  schemeValues,
} from './import-file';
import { envInt } from './settings';
import { listen, signIn } from './harness';
import { benchEachTarget, openTargetRuntime, type Target } from './targets';

const ROWS = envInt('IMPORT_ROWS', 50_000, 100, 50_000);
const CLIENTS = Math.ceil(ROWS / SCHEMES_PER_CLIENT);
const BATCH = 2_000;
/**
 * IMPORT_FIRST=job: the import into the still empty register first (a new installation's first
 * import, where PostgreSQL has no statistics of the tables yet), the bulk insert after it.
 */
const FIRST = process.env.IMPORT_FIRST || 'bulk';
if (FIRST !== 'bulk' && FIRST !== 'job') throw new Error('IMPORT_FIRST is bulk (the default) or job');
const JOB_FIRST = FIRST === 'job';
const gc = (globalThis as { gc?: () => void }).gc;

interface Phase {
  seconds: number;
  peakRssMb: number;
  rssMb: number;
}

async function measured(work: () => Promise<void>): Promise<Phase> {
  gc?.();
  const base = process.memoryUsage().rss;
  let rss = base;
  const timer = setInterval(() => {
    rss = Math.max(rss, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  try {
    await work();
    rss = Math.max(rss, process.memoryUsage().rss);
    return {
      seconds: (performance.now() - started) / 1000,
      peakRssMb: (rss - base) / 2 ** 20,
      rssMb: rss / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

/** What the demo generator does: rows as JSON, 2,000 a statement, json_populate_recordset. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function bulkInsert(tx: Tx, company: string, type: string, body: string) {
  const insertRows = async (table: string, rows: object[]) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      const json = JSON.stringify(rows.slice(i, i + BATCH));
      const name = sql.identifier(table);
      await tx.execute(
        sql`insert into ${name} select * from json_populate_recordset(null::${name}, ${json}::json)`,
      );
    }
  };
  const now = new Date().toISOString();
  const clientIds = new Map<number, string>();
  let rows: object[] = [];
  let clientAudits: object[] = [];
  for (let n = 1; n <= CLIENTS; n++) {
    const id = randomUUID();
    clientIds.set(n, id);
    const row = {
      id,
      company_id: company,
      ...clientValues(n),
      send_reminders: true,
      // A bulk load writes every column (no database default applies).
      country: 'ID',
      created_at: now,
      updated_at: now,
    };
    rows.push(row);
    clientAudits.push({
      id: randomUUID(),
      at: now,
      action: 'create',
      entity: 'company-certificate',
      entity_id: id,
      company_id: company,
      after: row,
      source: 'import',
    });
    if (rows.length >= BATCH) {
      await insertRows('client_certificates', rows);
      await insertRows('audit_log', clientAudits);
      rows = [];
      clientAudits = [];
    }
  }
  await insertRows('client_certificates', rows);
  await insertRows('audit_log', clientAudits);
  let schemes: object[] = [];
  let audits: object[] = [];
  for (const line of importLines(ROWS)) {
    const s = schemeValues(line.scheme);
    const id = randomUUID();
    const status = s.status === 'NOT ACTIVE' ? 'NOACTIVE' : s.status;
    const row = {
      id,
      company_id: company,
      certificate_id: clientIds.get(line.client),
      certification_id: type,
      accredited_id: line.scheme % 2 ? body : null,
      is_accredited: line.scheme % 2 === 1,
      cert_number: `BULK-${line.scheme}`,
      status,
      issue_date: s.issue_date,
      valid_for: s.valid_for,
      valid_for_type: s.valid_for_type,
      expired_date: addValidity(s.issue_date, s.valid_for, s.valid_for_type),
      surveillance_date: s.surveillance_date,
      description: s.desc,
      sector_codes: [],
      sites: [],
      revision: 0,
      created_at: now,
      updated_at: now,
    };
    schemes.push(row);
    audits.push({
      id: randomUUID(),
      at: now,
      action: 'create',
      entity: 'company-certificate-scheme',
      entity_id: id,
      company_id: company,
      after: row,
      source: 'import',
    });
    if (schemes.length >= BATCH) {
      await insertRows('schemes', schemes);
      await insertRows('audit_log', audits);
      schemes = [];
      audits = [];
    }
  }
  await insertRows('schemes', schemes);
  await insertRows('audit_log', audits);
  // What the generator does after its bulk load: the register counts and the cycle's items due
  // made again from the records (the import's after-write steps keep them as it goes).
  await rebuildDerived(tx);
}

async function benchTarget(target: Target, file: Buffer): Promise<string[]> {
  const { password, config, logger, runtime } = await openTargetRuntime(target);
  const db = runtime.database.db;
  const ids = {
    importCo: '00000000-0000-4000-8000-00000000c0de',
    bulkCo: '00000000-0000-4000-8000-00000000b01c',
  };
  const out: string[] = [];
  try {
    const bulkType = '00000000-0000-4000-8000-0000000000a2';
    const bulkBody = '00000000-0000-4000-8000-0000000000b2';
    for (const [company, label, type, body] of [
      [ids.importCo, 'PT Impor Besar', randomUUID(), randomUUID()],
      [ids.bulkCo, 'PT Sisip Massal', bulkType, bulkBody],
    ] as const) {
      await db.execute(
        sql`insert into companies (id, name, website) values (${company}, ${label}, 'https://besar.co.id')`,
      );
      await db.execute(sql`insert into certification_types (id, company_id, name, category, code)
        values (${type}, ${company}, 'ISO 9001:2015', 'Mutu', 'QMS')`);
      await db.execute(
        sql`insert into accredited_bodies (id, company_id, name) values (${body}, ${company}, 'KAN')`,
      );
    }

    const app = await buildApp({ config, db, logger });
    try {
      const url = await listen(app);
      const token = await signIn(url, 'admin', password);
      const send = async (mode: 'check' | 'apply') => {
        // As a client should: a 503 (the process shedding load, e.g. right after a long apply) is
        // asked again after Retry-After.
        let res = await post(
          `${url}/api/import/company-certificate/${ids.importCo}?mode=${mode}`,
          token,
          file,
        );
        for (let retry = 0; res.status === 503 && retry < 5; retry++) {
          await new Promise((resolve) => setTimeout(resolve, Math.max(1, res.retryAfter) * 1000));
          res = await post(`${url}/api/import/company-certificate/${ids.importCo}?mode=${mode}`, token, file);
        }
        const answer = JSON.parse(res.body) as unknown;
        if (res.status !== 200)
          throw new Error(`${mode} answered ${res.status}: ${JSON.stringify(answer).slice(0, 500)}`);
        return answer;
      };
      // As the generator writes: one transaction, the trigram indexes' pending list raised for it.
      // First (by default), into an empty database, so that its rebuild of the derived tables reads
      // its rows only.
      const bulkPhase = async () => {
        const phase = await measured(() =>
          db.transaction(async (tx) => {
            await tx.execute(sql`set local gin_pending_list_limit = '64MB'`);
            await bulkInsert(tx, ids.bulkCo, bulkType, bulkBody);
          }),
        );
        console.log(`  ${target.name}: bulk insert ${phase.seconds.toFixed(1)} s`);
        return phase;
      };
      let bulk = JOB_FIRST ? null : await bulkPhase();
      let answer: unknown;
      const check = await measured(async () => {
        answer = await send('check');
      });
      console.log(`  ${target.name}: check ${check.seconds.toFixed(1)} s ${JSON.stringify(answer)}`);
      // Apply: the whole job, from the POST (the file checked in the request, 202) to its end.
      let accepted = 0;
      const apply = await measured(async () => {
        const run = await applyImportJob(url, token, 'company-certificate', ids.importCo, file);
        answer = run.job.result;
        accepted = run.acceptedSeconds;
      });
      console.log(
        `  ${target.name}: apply (job) ${apply.seconds.toFixed(1)} s, 202 after ${accepted.toFixed(1)} s ${JSON.stringify(answer)}`,
      );
      const again = await measured(async () => {
        answer = (await applyImportJob(url, token, 'company-certificate', ids.importCo, file)).job.result;
      });
      console.log(
        `  ${target.name}: apply again (job) ${again.seconds.toFixed(1)} s ${JSON.stringify(answer)}`,
      );
      bulk ??= await bulkPhase();

      const rate = (p: Phase) => `${Math.round(ROWS / p.seconds).toLocaleString('en-US')} rows/s`;
      const fmt = (p: Phase) =>
        `${p.seconds.toFixed(1)} s, ${rate(p)}, peak RSS ${p.rssMb.toFixed(0)} MB (+${p.peakRssMb.toFixed(0)})`;
      out.push(`| ${target.name} | check (nothing written) | ${fmt(check)} |`);
      out.push(
        `| ${target.name} | apply as a job, POST to done (${CLIENTS} clients, ${ROWS} schemes through the services' batch writes; 202 after ${accepted.toFixed(1)} s) | ${fmt(apply)} |`,
      );
      out.push(`| ${target.name} | apply the same file again (all unchanged) | ${fmt(again)} |`);
      out.push(
        `| ${target.name} | demo generator's bulk insert, same rows + audit rows + derived tables rebuilt | ${fmt(bulk)} |`,
      );
      const after202 = apply.seconds - accepted;
      out.push(
        `| ${target.name} | ratio apply / bulk insert | ${(apply.seconds / bulk.seconds).toFixed(2)} x |`,
      );
      out.push(
        `| ${target.name} | the job after its 202: ${after202.toFixed(1)} s; ratio to the bulk insert (${JOB_FIRST ? 'job first, into the empty register: the bulk insert after it rebuilds the derived tables of both, so this is not the goal' : 'goal 1.5'}) | ${(after202 / bulk.seconds).toFixed(2)} x |`,
      );
      for (const line of out) console.log(line);
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
  }
  return out;
}

async function main() {
  let started = performance.now();
  const file = await buildImportFile({ rows: ROWS });
  console.log(
    `import: ${ROWS} rows (${CLIENTS} clients x ${SCHEMES_PER_CLIENT} schemes), file ${(file.length / 2 ** 20).toFixed(1)} MB built in ${((performance.now() - started) / 1000).toFixed(1)} s${gc ? '' : ' (no --expose-gc)'}`,
  );
  started = performance.now();
  const results = await benchEachTarget((target) => benchTarget(target, file));
  console.log(`\n| target | what | result |\n| --- | --- | --- |\n${results.join('\n')}`);
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
