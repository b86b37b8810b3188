/**
 * Planned audits on the large data set (the demo generator makes none): 40 auditors per company and
 * a PLANNED surveillance of every tenth scheme (by id), two days each, spread over the 60 days from
 * today, a lead auditor drawn from its company's. Written once per cached database (found again by
 * its auditors' names), then analysed, so the 'Rencana Audit' list, 'Kalender Auditor' and the
 * schedule's planned-audit column are measured on 30,000 audits.
 */
import { teamProblems } from '@sertifikasi/shared-contracts';
import { clashingAudits, type Database, ruleAuditors, type SQL, sql } from './api';
import { queryRows } from './large-set';

const NAME = 'Auditor Bench';

export async function seedPlannedAudits(database: Database, today: string): Promise<string> {
  const run = <T>(query: SQL) => queryRows<T>(database, query);
  const [seen] = await run<{ n: string }>(
    sql`select count(*) as n from auditors where name like ${`${NAME} %`}`,
  );
  if (Number(seen?.n ?? 0) > 0) {
    const [audits] = await run<{ n: string }>(sql`select count(*) as n from planned_audits`);
    return `planned audits: ${audits?.n} (cached)`;
  }
  const started = Date.now();
  await run(sql`
    insert into auditors (id, company_id, name, employment, active)
    select gen_random_uuid(), c.id, ${NAME} || ' ' || g, 'INTERNAL', true
    from companies c cross join generate_series(1, 40) g`);
  await run(sql`
    with tenth as (
      select id as scheme_id, company_id, n from (
        select id, company_id, row_number() over (order by id) as n from schemes) s
      where n % 10 = 0
    ), made as (
      insert into planned_audits (id, company_id, scheme_id, kind, start_date, end_date, audit_days, state, sequence)
      select gen_random_uuid(), company_id, scheme_id, 'SURVEILLANCE',
        ${today}::date + ((n / 10) % 60)::int, ${today}::date + ((n / 10) % 60)::int + 1, 2, 'PLANNED', 0
      from tenth
      returning id, company_id
    )
    insert into planned_audit_team (planned_audit_id, auditor_id, role, position)
    select made.id, lead.id, 'LEAD_AUDITOR', 0
    from made cross join lateral (
      select id from auditors a where a.company_id = made.company_id and a.name like ${`${NAME} %`}
      order by md5(made.id::text || a.id::text) limit 1) lead`);
  await run(sql`analyze auditors`);
  await run(sql`analyze planned_audits`);
  await run(sql`analyze planned_audit_team`);
  const [audits] = await run<{ n: string }>(sql`select count(*) as n from planned_audits`);
  return `planned audits: ${audits?.n} written in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/**
 * A team-of-five save's rule check as the service runs it (docs/rules.md#auditors-and-planned-audits):
 * the members' auditor rows with qualifications and conflicts, the other PLANNED audits they are on
 * in those days (of the company's 30,000 / companies), and the rules themselves; `rounds` times on
 * the busiest company, answered as p50 and p99 in ms, the rules alone in µs.
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
  const [scheme] = await run<{ certification_id: string; certificate_id: string }>(
    sql`select certification_id, certificate_id from schemes where company_id = ${company.company_id} limit 1`,
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
  const rule = {
    certification_id: scheme!.certification_id,
    client_id: scheme!.certificate_id,
    sector_codes: [],
  };
  const whole: number[] = [];
  const rules: number[] = [];
  let clashes = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    const auditors = await ruleAuditors(database.db, company.company_id, ids);
    const others = await clashingAudits(database.db, company.company_id, ids, start, end, null);
    const t1 = process.hrtime.bigint();
    const problems = teamProblems({ plan, scheme: rule, auditors, others, suggested: null });
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
