/**
 * Planned audits on the large data set (the demo generator makes none), as a certification body
 * could have them under the product's rules (docs/rules.md#auditors-and-planned-audits: no auditor
 * on two PLANNED audits whose dates touch):
 *
 * - a PLANNED surveillance of every tenth scheme (by id), two days each, spread evenly over the next
 *   12 months; of every tenth scheme but five, one done in the past 12 months (one in ten cancelled);
 * - each company enough auditors for about four audits (eight days) a month each, one audit in 48
 *   of the year's: its planned audits in date order take their lead in turn (round robin), so an
 *   auditor's next audit starts a week after the last: nobody is double-booked.
 *
 * Written once per cached database, found again by its auditors' names (`Auditor Bench v2 ...`);
 * the rows of an older writer (`Auditor Bench <n>`, 40 auditors a company and 30,000 audits over
 * 60 days) are deleted first. The list versions of planned audits are renewed (rows written
 * without the services), then the tables analysed.
 */
import { ALL, teamProblems } from '@sertifikasi/shared-contracts';
import { auditDaysOf, type Database, planReads, type SQL, schemeFacts, sql } from './api';
import { queryRows } from './large-set';

const NAME = 'Auditor Bench v2';
/** The names of an older writer's auditors. */
const OLD_NAMES = '^Auditor Bench [0-9]+$';
/** Audits a year per auditor (about four a month). */
const PER_AUDITOR = 48;

export async function seedPlannedAudits(database: Database, today: string): Promise<string> {
  const run = <T>(query: SQL) => queryRows<T>(database, query);
  const [seen] = await run<{ n: string }>(
    sql`select count(*) as n from auditors where name like ${`${NAME} %`}`,
  );
  if (Number(seen?.n ?? 0) > 0) {
    const [audits] = await run<{ n: string }>(sql`select count(*) as n from planned_audits`);
    return `planned audits: ${audits?.n} (cached), ${seen?.n} bench auditors`;
  }
  const started = Date.now();
  await database.db.transaction(async (tx) => {
    const exec = (query: SQL) => tx.execute(query);
    // An older writer's rows: its audits (their teams go with them), then its auditors.
    await exec(sql`
      delete from planned_audits where id in (
        select t.planned_audit_id from planned_audit_team t join auditors a on a.id = t.auditor_id
        where a.name ~ ${OLD_NAMES})`);
    await exec(sql`delete from auditors where name ~ ${OLD_NAMES}`);
    await exec(sql`
      create temporary table bench_tenth on commit drop as
      select id as scheme_id, company_id, n % 10 = 0 as planned,
        row_number() over (partition by company_id, n % 10 = 0 order by id) - 1 as k,
        count(*) over (partition by company_id, n % 10 = 0) as total
      from (select id, company_id, row_number() over (order by id) as n from schemes) s
      where n % 10 in (0, 5)`);
    await exec(sql`
      create temporary table bench_staff on commit drop as
      select company_id, g - 1 as slot, gen_random_uuid() as id
      from (select company_id, ceil(total / ${PER_AUDITOR}::numeric)::int as staff
            from bench_tenth where planned group by company_id, total) c
      cross join lateral generate_series(1, c.staff) g`);
    await exec(sql`
      insert into auditors (id, company_id, name, employment, active)
      select id, company_id, ${NAME} || ' ' || lpad((slot + 1)::text, 4, '0'), 'INTERNAL', true
      from bench_staff`);
    await exec(sql`
      create temporary table bench_audits on commit drop as
      select gen_random_uuid() as id, t.company_id, t.scheme_id, t.planned, t.k,
        case when t.planned then ${today}::date + (t.k * 365 / t.total)::int
             else ${today}::date - 365 + (t.k * 363 / t.total)::int end as start_date,
        (t.k % staff.n) as slot
      from bench_tenth t
      join (select company_id, count(*) as n from bench_staff group by company_id) staff using (company_id)`);
    await exec(sql`
      insert into planned_audits (id, company_id, scheme_id, kind, start_date, end_date, audit_days, state, sequence)
      select id, company_id, scheme_id, 'SURVEILLANCE', start_date, start_date + 1, 2,
        case when planned then 'PLANNED' when k % 10 = 9 then 'CANCELLED' else 'DONE' end, 0
      from bench_audits`);
    await exec(sql`
      insert into planned_audit_team (planned_audit_id, auditor_id, role, position, start_date, end_date)
      select a.id, s.id, 'LEAD_AUDITOR', 0, a.start_date, a.start_date + 1
      from bench_audits a join bench_staff s on s.company_id = a.company_id and s.slot = a.slot`);
    // Written without the services: any list total or answer kept of planned audits or auditors is
    // made again.
    await exec(sql`
      insert into list_versions (entity, company_id, version)
      select kind, id, gen_random_uuid() from companies cross join unnest(array['planned-audit', 'auditor']) kind
      on conflict (entity, company_id) do update set version = excluded.version`);
  });
  await run(sql`analyze auditors`);
  await run(sql`analyze planned_audits`);
  await run(sql`analyze planned_audit_team`);
  const [audits] = await run<{ n: string; planned: string; auditors: string }>(
    sql`select count(*) as n, count(*) filter (where state = 'PLANNED') as planned,
          (select count(*) from auditors where name like ${`${NAME} %`}) as auditors
        from planned_audits`,
  );
  return (
    `planned audits: ${audits?.n} (${audits?.planned} PLANNED), ${audits?.auditors} bench auditors, ` +
    `written in ${((Date.now() - started) / 1000).toFixed(1)} s`
  );
}

/**
 * A team-of-five save's rule check as the service runs it (docs/rules.md#auditors-and-planned-audits):
 * the scheme with its company's audit-days table, the members with their qualifications, conflicts
 * and the other PLANNED audits they are on in those days (planReads), the suggested days and the
 * rules themselves (the members' lock, in a save's transaction, left out); `rounds` times on the
 * busiest company, answered as p50 and p99 in ms, the rules alone in µs.
 */
export async function teamCheckTimes(database: Database, today: string, rounds = 200): Promise<string> {
  const run = <T>(query: SQL) => queryRows<T>(database, query);
  const [company] = await run<{ company_id: string }>(
    sql`select company_id from planned_audits group by company_id order by count(*) desc limit 1`,
  );
  if (!company) return 'team check: no planned audits';
  const team = await run<{ id: string }>(
    sql`select id from auditors where company_id = ${company.company_id} and name like ${`${NAME} %`} order by id limit 5`,
  );
  const [scheme] = await run<{ id: string }>(
    sql`select id from schemes where company_id = ${company.company_id} limit 1`,
  );
  const ids = team.map((t) => t.id).sort();
  const start = today;
  const end = new Date(Date.parse(`${today}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
  const plan = {
    start_date: start,
    end_date: end,
    audit_days: 3,
    team: ids.map((auditor_id, i) => ({
      auditor_id,
      role: i === 0 ? ('LEAD_AUDITOR' as const) : ('AUDITOR' as const),
    })),
  };
  const whole: number[] = [];
  const rules: number[] = [];
  let clashes = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    const facts = (await schemeFacts(database.db, scheme!.id, ALL))!;
    const { auditors, others } = await planReads(database.db, company.company_id, ids, start, end, null);
    const t1 = process.hrtime.bigint();
    const suggested = auditDaysOf(facts, 'SURVEILLANCE').days;
    const problems = teamProblems({ plan, scheme: facts, auditors, others, suggested });
    const t2 = process.hrtime.bigint();
    clashes = Object.keys(problems).length;
    whole.push(Number(t2 - t0) / 1e6);
    rules.push(Number(t2 - t1) / 1e3);
  }
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
  return (
    `team-of-five rule check (reads + rules, ${rounds} rounds, ${clashes} refusals found): ` +
    `p50 ${pct(whole, 0.5).toFixed(2)} ms, p99 ${pct(whole, 0.99).toFixed(2)} ms; ` +
    `the rules alone p50 ${pct(rules, 0.5).toFixed(1)} µs`
  );
}
