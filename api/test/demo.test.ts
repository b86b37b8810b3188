/**
 * The demo command's data set (api/src/demo), written into a fresh test database the way
 * `npm run demo --workspace api` writes it, checked for what a user of the demo would notice.
 *
 * Long file: one run of the demo checked from every side (each file of its own would write the
 * demo again, the slowest part of the run).
 */
import { type SQL, sql } from 'drizzle-orm';
import { addValidity, SCHEME_STATUSES } from '@sertifikasi/shared-contracts';
import type { Executor } from '../src/db';
import { createClock } from '../src/lib/clock';
import { rebuildDerived } from '../src/services/derived';
import {
  DEMO_ROLES,
  type DemoResult,
  DemoRefusedError,
  type DemoVolume,
  demoVolume,
  writeDemo,
} from '../src/demo';
import { schemeSignedFields, trainingSignedFields } from '@sertifikasi/shared-contracts/credential';
import { ADMIN_PASSWORD, call, createTestContext, login, useTestContext } from './helpers';
import { verifiedQrUrl } from './signed';

const PASSWORD = 'demo-sandi-123';
const VOLUME: DemoVolume = { clients: 30, schemes: 70, trainings: 30, logos: 4 };
const clock = createClock('Asia/Jakarta');

const ctx = useTestContext();
let result: DemoResult;

type Row = Record<string, unknown>;
const rows = async <T extends Row>(query: SQL): Promise<T[]> => {
  const res: unknown = await ctx.database.db.execute(query);
  return (res as { rows: T[] }).rows;
};
const countOf = async (table: string): Promise<number> => {
  const [r] = await rows<{ n: number | string }>(sql`select count(*) as n from ${sql.identifier(table)}`);
  return Number(r!.n);
};
const TABLES = [
  'companies',
  'users',
  'roles',
  'images',
  'client_certificates',
  'schemes',
  'training_certificates',
  'audit_log',
];
const counts = async (): Promise<Record<string, number>> =>
  Object.fromEntries(
    await Promise.all(TABLES.map(async (t): Promise<[string, number]> => [t, await countOf(t)])),
  );

const run = () =>
  ctx.database.db.transaction((tx) =>
    writeDemo(tx, {
      volume: VOLUME,
      seed: 7,
      password: PASSWORD,
      argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
      publicBaseUrl: ctx.app.config.publicBaseUrl,
      clock,
    }),
  );

beforeAll(async () => {
  result = await run();
});

describe('calendar arithmetic of expired_date (shared-contracts, which the demo uses)', () => {
  it('lands on the last day of a shorter month and on 28 February after a leap day', () => {
    expect(addValidity('2024-01-31', 1, 'MONTH')).toBe('2024-02-29');
    expect(addValidity('2023-01-31', 1, 'MONTH')).toBe('2023-02-28');
    expect(addValidity('2024-02-29', 1, 'YEAR')).toBe('2025-02-28');
    expect(addValidity('2024-02-29', 4, 'YEAR')).toBe('2028-02-29');
    expect(addValidity('2025-12-31', 2, 'DAY')).toBe('2026-01-02');
    expect(addValidity('2024-03-31', -1, 'MONTH')).toBe('2024-02-29');
  });
});

describe('demo data set', () => {
  it('has the asked volume and sizes that scale', async () => {
    expect(await countOf('client_certificates')).toBe(VOLUME.clients);
    expect(await countOf('schemes')).toBe(VOLUME.schemes);
    expect(await countOf('training_certificates')).toBe(VOLUME.trainings);
    expect(await countOf('companies')).toBe(3);
    expect(demoVolume('large')).toMatchObject({ clients: 100_000, schemes: 300_000, trainings: 100_000 });
    expect(demoVolume('large', 0.1)).toMatchObject({ clients: 10_000, schemes: 30_000, trainings: 10_000 });
  });

  it('has schemes in every status, some expiring this month and some with overdue surveillance', async () => {
    const byStatus = await rows<{ status: string; n: number | string }>(
      sql`select status, count(*) as n from schemes group by status`,
    );
    for (const status of SCHEME_STATUSES) {
      expect(Number(byStatus.find((r) => r.status === status)?.n ?? 0)).toBeGreaterThan(0);
    }
    const today = clock.today();
    const [s] = await rows<{
      month: number | string;
      overdue: number | string;
      accredited: number | string;
    }>(sql`
      select count(*) filter (where status = 'ACTIVE' and to_char(expired_date, 'YYYY-MM') = ${today.slice(0, 7)}) as month,
             count(*) filter (where status = 'ACTIVE' and surveillance_date < ${today}::date) as overdue,
             count(*) filter (where is_accredited and accredited_id is not null) as accredited
      from schemes`);
    expect(Number(s!.month)).toBeGreaterThan(0);
    expect(Number(s!.overdue)).toBeGreaterThan(0);
    expect(Number(s!.accredited)).toBeGreaterThan(0);
    expect(Number(s!.accredited)).toBeLessThan(VOLUME.schemes);
  });

  it('fills the certification cycle: decision dates, audits done, and items late, due soon and suspensions near their limit', async () => {
    const today = clock.today();
    const [s] = await rows<Record<string, number | string>>(sql`
      select (select count(*) from schemes where decision_date is not null) as decided,
             (select count(*) from scheme_audits) as audits,
             count(*) filter (where d.kind <> 'SUSPENSION_LIMIT' and d.due_date < ${today}::date
               and d.expired_date >= ${today}::date) as late,
             count(*) filter (where d.due_date >= ${today}::date and d.due_date <= ${today}::date + 30
               and (d.status = 'SUSPENDED' or d.expired_date >= ${today}::date)) as soon,
             count(*) filter (where d.kind = 'SUSPENSION_LIMIT' and d.due_date <= ${today}::date + 90) as limit_near
      from scheme_cycle_due d`);
    expect(Number(s!.decided)).toBeGreaterThan(VOLUME.schemes / 2);
    expect(Number(s!.audits)).toBeGreaterThan(0);
    expect(Number(s!.late)).toBeGreaterThan(0);
    expect(Number(s!.soon)).toBeGreaterThan(0);
    expect(Number(s!.limit_near)).toBeGreaterThan(0);
    // The stored items are the ones the demo's rebuild made: one per ACTIVE or SUSPENDED scheme.
    const [n] = await rows<{ due: number | string; open: number | string }>(sql`
      select (select count(*) from scheme_cycle_due) as due,
             (select count(*) from schemes where status in ('ACTIVE', 'SUSPENDED')) as open`);
    expect(Number(n!.due)).toBe(Number(n!.open));
  });

  it('computes every expired_date as issue_date + valid_for valid_for_type', async () => {
    const all = await rows<{ issue: string; n: number; unit: 'YEAR' | 'MONTH' | 'DAY'; expired: string }>(sql`
      select issue_date::text as issue, valid_for as n, valid_for_type as unit, expired_date::text as expired
      from schemes`);
    expect(all).toHaveLength(VOLUME.schemes);
    for (const s of all)
      expect(`${s.issue} +${s.n} ${s.unit} = ${s.expired}`).toBe(
        `${s.issue} +${s.n} ${s.unit} = ${addValidity(s.issue, s.n, s.unit)}`,
      );
    // PostgreSQL's own interval arithmetic agrees (it clamps to the end of the month the same way).
    const [bad] = await rows<{ n: number | string }>(sql`
      select count(*) as n from schemes where expired_date <> (issue_date + case valid_for_type
        when 'YEAR' then make_interval(years => valid_for) when 'MONTH' then make_interval(months => valid_for)
        else make_interval(days => valid_for) end)::date`);
    expect(Number(bad!.n)).toBe(0);
  });

  it('has unique scheme and training numbers, some of them holding "/"', async () => {
    const numbers = await rows<{ n: string }>(sql`select cert_number as n from schemes`);
    const keys = numbers.map((r) => r.n.trim().toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.some((k) => k.includes('/'))).toBe(true);
    expect(keys.some((k) => !k.includes('/'))).toBe(true);
    const training = await rows<{ n: string }>(
      sql`select certificate_number as n from training_certificates`,
    );
    const tkeys = training.map((r) => r.n.trim().toLowerCase());
    expect(new Set(tkeys).size).toBe(tkeys.length);
    expect(tkeys.some((k) => k.includes('/'))).toBe(true);
  });

  it('has an audit row for every scheme creation and the status changes after it', async () => {
    const missing = await rows<{ id: string }>(sql`
      select s.id from schemes s where not exists (
        select 1 from audit_log a where a.entity = 'company-certificate-scheme' and a.action = 'create'
          and a.entity_id = s.id and a.company_id = s.company_id and a.after->>'status' is not null)`);
    expect(missing).toEqual([]);
    // The newest audit row of each scheme holds its current status.
    const [mismatch] = await rows<{ n: number | string }>(sql`
      select count(*) as n from schemes s join lateral (
        select after from audit_log a where a.entity_id = s.id order by a.at desc limit 1) last on true
      where last.after->>'status' <> s.status`);
    expect(Number(mismatch!.n)).toBe(0);
    const [changes] = await rows<{ n: number | string }>(sql`
      select count(*) as n from audit_log where entity = 'company-certificate-scheme' and action = 'update'
        and before->>'status' <> after->>'status'`);
    expect(Number(changes!.n)).toBeGreaterThan(0);
    expect(result.rows.auditRows).toBe(await countOf('audit_log'));
  });

  it('gives every training certificate its signed QR, and some schemes theirs, as the services would', async () => {
    const [t] = await rows<{ all: number | string; qr: number | string }>(
      sql`select count(*) as all, count(qrcode) as qr from training_certificates`,
    );
    expect(Number(t!.qr)).toBe(VOLUME.trainings);
    expect(Number(t!.all)).toBe(VOLUME.trainings);
    // Schemes show both states: a QR to download, or 'Generate QR' still to press.
    const [s] = await rows<{ qr: number | string; none: number | string }>(sql`
      select count(qrcode) as qr, count(*) filter (where qrcode is null and status <> 'DRAFT') as none from schemes`);
    expect(Number(s!.qr)).toBeGreaterThan(0);
    expect(Number(s!.none)).toBeGreaterThan(0);

    // A training certificate's detail offers its QR, which decodes to its public page, signed.
    const [training] = await rows<{ id: string; company_id: string }>(
      sql`select id, company_id from training_certificates order by certificate_number limit 1`,
    );
    const detail = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/training-certificate/${training!.company_id}/${training!.id}`,
    );
    expect(detail.statusCode).toBe(200);
    const tc = detail.json<{
      certificate_number: string;
      name: string;
      training: string;
      date: string;
      qrcode: string | null;
    }>();
    expect(tc.qrcode).toBeTruthy();
    const page = await verifiedQrUrl(ctx.app, tc.qrcode!, trainingSignedFields(tc));
    expect(page).toBe(
      `${ctx.app.config.publicBaseUrl}/check-certification-training?cert=${encodeURIComponent(tc.certificate_number)}`,
    );
    const check = await ctx.app.inject({
      method: 'GET',
      url: `/api/check-certificate-training/${tc.certificate_number.replaceAll('/', '+')}`,
    });
    expect(check.statusCode).toBe(200);
    expect(check.json<{ name: string }>().name).toBe(tc.name);

    // A scheme with a QR: signed over its number, client, standard and dates.
    const [scheme] = await rows<{
      id: string;
      company_id: string;
      certificate_id: string;
      cert_number: string;
      name: string;
      standard: string;
      issue_date: string;
      expired_date: string;
    }>(sql`
      select s.id, s.company_id, s.certificate_id, s.cert_number, c.name, t.name as standard, s.issue_date::text, s.expired_date::text
      from schemes s join client_certificates c on c.id = s.certificate_id
        join certification_types t on t.id = s.certification_id
      where s.qrcode is not null order by s.cert_number limit 1`);
    const client = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/company-certificate/${scheme!.company_id}/${scheme!.certificate_id}`,
    );
    expect(client.statusCode).toBe(200);
    const qr = client
      .json<{ schema: { id: string; qrcode: string | null }[] }>()
      .schema.find((x) => x.id === scheme!.id)?.qrcode;
    expect(qr).toBeTruthy();
    expect(await verifiedQrUrl(ctx.app, qr!, schemeSignedFields(scheme!))).toBe(
      `${ctx.app.config.publicBaseUrl}/check-certification-company?cert=${encodeURIComponent(scheme!.cert_number)}`,
    );
  });

  it('marks its audit rows as written by the demo (besides the first start of the administrator)', async () => {
    const sources = await rows<{ source: string | null; entity: string }>(
      sql`select distinct source, entity from audit_log where source <> 'demo' order by entity`,
    );
    expect(sources).toEqual([
      { source: 'system', entity: 'role' },
      { source: 'system', entity: 'user' },
    ]);
  });

  it('holds the register data and the audit plan: sites, auditors, planned audits in every state', async () => {
    const [r] = await rows<Record<string, number | string>>(sql`
      select (select count(*) from client_sites) as sites,
             (select count(*) from schemes where sector_codes = '{}') as no_sectors,
             (select count(*) from schemes where original_issue_date is not null) as original,
             (select count(*) from auditors) as auditors,
             (select count(*) from auditor_conflicts) as conflicts,
             (select count(distinct state) from planned_audits) as states,
             (select count(*) from planned_audits p where p.state = 'DONE' and not exists (
                select 1 from scheme_audits d where d.scheme_id = p.scheme_id and d.date = p.end_date)) as done_unrecorded`);
    expect(Number(r!.sites)).toBe(result.rows.sites);
    expect(Number(r!.sites)).toBeGreaterThan(0);
    expect(Number(r!.no_sectors)).toBeGreaterThan(0);
    expect(Number(r!.original)).toBeGreaterThan(0);
    expect(Number(r!.auditors)).toBe(12);
    expect(Number(r!.conflicts)).toBe(3);
    expect(Number(r!.states)).toBe(3);
    expect(Number(r!.done_unrecorded)).toBe(0);
  });

  it('leaves what a service write leaves: an audit row per record, the derived state the steps keep', async () => {
    // Every record the demo wrote has the audit row of its creation, by the system or a staff user.
    const [missing] = await rows<Record<string, number | string>>(sql`
      select
        (select count(*) from client_certificates c where not exists (select 1 from audit_log a
           where a.entity_id = c.id and a.action = 'create' and a.source = 'demo')) as clients,
        (select count(*) from training_certificates t where not exists (select 1 from audit_log a
           where a.entity_id = t.id and a.action = 'create' and a.source = 'demo')) as trainings,
        (select count(*) from scheme_audits d where not exists (select 1 from audit_log a
           where a.entity_id = d.id and a.action = 'create' and a.source = 'demo')) as audits_done,
        (select count(*) from companies c where not exists (select 1 from audit_log a
           where a.entity_id = c.id and a.action = 'create')) as companies,
        (select count(*) from users u where not exists (select 1 from audit_log a
           where a.entity_id = u.id and a.action = 'create')) as users`);
    expect(Object.values(missing!).map(Number)).toEqual([0, 0, 0, 0, 0]);
    // A scheme's changes are by its company's staff user, at the instant each happened (its history).
    const [staff] = await rows<{ unnamed: number | string; changes: number | string }>(sql`
      select count(*) filter (where actor_username is null) as unnamed, count(*) as changes
      from audit_log where entity = 'company-certificate-scheme'`);
    expect(Number(staff!.unnamed)).toBe(0);
    const scheme = await rows<{ id: string }>(sql`
      select entity_id as id from audit_log where entity = 'company-certificate-scheme'
        and before->>'status' = 'ACTIVE' and after->>'status' = 'SUSPENDED' limit 1`);
    const [first] = await rows<{ at: Date }>(sql`
      select at from audit_log where entity_id = ${scheme[0]!.id} and after->>'status' = 'SUSPENDED'
      order by at desc limit 1`);
    const history = await call(
      ctx.app,
      await login(ctx.app, 'admin', ADMIN_PASSWORD),
      'GET',
      `/api/company-certificate-scheme/${scheme[0]!.id}/history`,
    );
    const suspended = history
      .json<{ to: string; effective_from: string; by: string | null }[]>()
      .find((h) => h.to === 'SUSPENDED');
    expect(suspended?.effective_from).toBe(clock.today(new Date(first!.at)));
    expect(suspended?.by).toMatch(/^staf\./);
    // The derived state the after-write steps kept equals what a rebuild from the records makes.
    const derived = [
      'scheme_counts',
      'scheme_status_counts',
      'scheme_issue_counts',
      'client_certified_until',
      'certified_client_counts',
      'training_person_counts',
      'training_person_totals',
      'training_counts',
      'register_totals',
      'scheme_cycle_due',
      'scheme_cycle_due_counts',
    ];
    const snapshot = async (exec: Executor) => {
      const out: Record<string, string[]> = {};
      for (const table of derived) {
        const res: unknown = await exec.execute(
          sql`select t::text as r from ${sql.identifier(table)} t order by 1`,
        );
        // A count the steps brought back to zero stays as a row of 0; a rebuild writes none.
        out[table] = (res as { rows: { r: string }[] }).rows
          .map((x) => x.r)
          .filter((r) => !r.endsWith(',0)'));
      }
      return out;
    };
    const kept = await snapshot(ctx.database.db);
    expect(kept.scheme_cycle_due!.length).toBeGreaterThan(0);
    let rebuilt: Record<string, string[]> = {};
    await ctx.database.db
      .transaction(async (tx) => {
        await rebuildDerived(tx, clock);
        rebuilt = await snapshot(tx);
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
      });
    expect(rebuilt).toEqual(kept);
  });

  it('gives the companies their images and settings, and clients their details', async () => {
    const bodies = await rows<{
      logo: string;
      logo_cert: string;
      ttd_cert: string;
      simple_dates: boolean;
      pub: boolean;
    }>(sql`
      select logo, logo_cert, ttd_cert, simple_dates, public_certificate_download as pub from companies`);
    for (const b of bodies) {
      for (const name of [b.logo, b.logo_cert, b.ttd_cert]) {
        const res = await ctx.app.inject({ method: 'GET', url: `/images/${name}` });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
      }
    }
    expect(bodies.filter((b) => b.simple_dates)).toHaveLength(1);
    expect(bodies.filter((b) => b.pub)).toHaveLength(1);
    const [c] = await rows<{ logos: number | string; complete: number | string }>(sql`
      select count(logo) as logos, count(*) filter (where address is not null and region <> '' and ea_code is not null
        and nace_code is not null and phone is not null) as complete from client_certificates`);
    expect(Number(c!.logos)).toBe(VOLUME.logos);
    expect(Number(c!.complete)).toBe(VOLUME.clients);
  });

  it('lets the scoped demo users sign in and see only their companies and permissions', async () => {
    const companies = new Map(result.companies.map((c) => [c.name, c.id]));
    expect(result.users.length).toBeGreaterThanOrEqual(3);
    for (const user of result.users) {
      const token = await login(ctx.app, user.username, PASSWORD);
      const info = await call(ctx.app, token, 'GET', '/api/user-info');
      expect(info.statusCode).toBe(200);
      const body = info.json<{ roles: string[]; company_ids: unknown; companies: { name: string }[] }>();
      expect(body.company_ids).toEqual(expect.arrayContaining(user.companies.map((n) => companies.get(n))));
      expect((body.company_ids as string[]).length).toBe(user.companies.length);
      expect(body.companies.map((c) => c.name).sort()).toEqual([...user.companies].sort());
      const role = DEMO_ROLES.find((r) => r.name === user.role)!;
      expect(body.roles.sort()).toEqual([...role.keys].sort());
      expect(body.roles.some((k) => k.endsWith(':delete'))).toBe(false);
      expect(body.roles).not.toContain('user');
      expect(body.roles).not.toContain('company');
      // The master data stays closed to them.
      expect((await call(ctx.app, token, 'GET', '/api/user')).statusCode).toBe(403);
    }
    expect(result.users.some((u) => u.companies.length === 1)).toBe(true);
    expect(result.users.some((u) => u.companies.length === 2)).toBe(true);
    // Not the first administrator's password, nor anything else.
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: result.users[0]!.username, password: 'admin-password-1' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses a database that already holds data and writes nothing', async () => {
    const before = await counts();
    await expect(run()).rejects.toThrow(DemoRefusedError);
    await expect(run()).rejects.toThrow(/already holds data/);
    expect(await counts()).toEqual(before);
  });
});

describe('demo on a database someone has started using', () => {
  it('refuses when a company exists and writes nothing', async () => {
    const other = await createTestContext();
    try {
      await other.make.company('PT Sudah Ada');
      const options = {
        volume: VOLUME,
        seed: 7,
        password: PASSWORD,
        argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
        publicBaseUrl: other.app.config.publicBaseUrl,
        clock,
      };
      await expect(other.database.db.transaction((tx) => writeDemo(tx, options))).rejects.toThrow(
        /already holds data \(1 company\)/,
      );
      const res = await call(other.app, other.adminToken, 'GET', '/api/company');
      expect(res.json<{ total: number }>().total).toBe(1);
      const attempt = await other.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'staf.msn', password: PASSWORD },
      });
      expect(attempt.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
