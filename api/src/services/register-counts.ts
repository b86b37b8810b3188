/**
 * The register counts (docs/rules.md#large-registers): what the dashboard and the company list show without reading
 * every record at request time. Kept by the after-write step `countRegister` in the writer's
 * transaction (every scheme and training-certificate write, whatever made it: a route, the import,
 * a command), and rebuilt from the records by `rebuildRegisterCounts` after a bulk load that wrote
 * rows directly (the demo generator). Both leave the same figures: test/register-counts.test.ts
 * compares them with a full count after every kind of change.
 *
 * Nothing here depends on today: schemes are counted by expiry date and clients by the last day
 * they stay certified, so a reader sums `expired_date < today` (EXPIRED) or `until >= today`
 * (certified) and a day passing needs no job.
 *
 * Long file: the counts kept write by write and their rebuild from the records must give the same
 * figures (test/register-counts.test.ts), so both stay in one file with the list of tables they keep.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db';
import { recordSet } from '../db/insert-rows';
import {
  certifiedClientCounts,
  clientCertificates,
  clientCertifiedUntil,
  registerTotals,
  schemeCounts,
  schemeIssueCounts,
  schemeStatusCounts,
  schemes,
  trainingCertificates,
  trainingCounts,
  trainingPersonCounts,
  trainingPersonTotals,
  TRAINING_PERSONS,
} from '../db/schema';
import type { ServiceContext } from './context';

type SchemeRow = typeof schemes.$inferSelect;
type TrainingRow = typeof trainingCertificates.$inferSelect;

/**
 * The person a training certificate names: the name trimmed, any case, computed by the database
 * (its trim and lower, the same as the rebuild's), never by a JavaScript copy of them.
 */
const personOf = (name: string | SQL) => sql<string>`lower(trim(${name}::text))`;

// ---------------------------------------------------------------------------------------------
// Schemes
// ---------------------------------------------------------------------------------------------

/** A client's stored figure: the last day it stays certified, and its company. */
type Certified = { until: string; company_id: string };

/**
 * Locks the clients whose figure a write may move, in id order (two writes moving schemes between
 * the same two clients cannot deadlock), and reads their stored figure with the lock. A concurrent
 * write of another scheme of the same client waits here, then reads in a new statement, which sees
 * the first one committed (READ COMMITTED): the two never both apply a stale maximum. `for no key
 * update` leaves the schemes' foreign-key checks free. One statement to lock, one to read, however
 * many clients.
 */
async function lockClients(tx: Executor, ids: string[]): Promise<Map<string, Certified | null>> {
  const sorted = [...new Set(ids)].sort();
  await tx
    .select({ id: clientCertificates.id })
    .from(clientCertificates)
    .where(inArray(clientCertificates.id, sorted))
    .orderBy(clientCertificates.id)
    .for('no key update');
  // A statement of its own after the lock: one joined to the lock would read the figure as it was
  // before the writer we waited for committed.
  const rows = await tx
    .select({
      id: clientCertifiedUntil.certificate_id,
      until: clientCertifiedUntil.until,
      company_id: clientCertifiedUntil.company_id,
    })
    .from(clientCertifiedUntil)
    .where(inArray(clientCertifiedUntil.certificate_id, sorted));
  const found = new Map(rows.map((r) => [r.id, { until: r.until, company_id: r.company_id }]));
  return new Map(sorted.map((id) => [id, found.get(id) ?? null]));
}

/** The clients' last ACTIVE expiries, read from their schemes (the clients locked); absent: none. */
async function lastActiveExpiries(tx: Executor, ids: string[]): Promise<Map<string, Certified>> {
  const rows = await tx
    .select({
      id: schemes.certificate_id,
      until: sql<string>`max(${schemes.expired_date})`,
      company_id: schemes.company_id,
    })
    .from(schemes)
    .where(and(inArray(schemes.certificate_id, ids), eq(schemes.status, 'ACTIVE')))
    .groupBy(schemes.certificate_id, schemes.company_id);
  return new Map(rows.map((r) => [r.id, { until: r.until, company_id: r.company_id }]));
}

/**
 * Moves clients' figures from `stored` to `next` (null: not certified by any scheme): the certified
 * counts by (company, day) summed and upserted once, the figures deleted and upserted once.
 */
async function setCertifiedMany(
  tx: Executor,
  stored: Map<string, Certified | null>,
  next: Map<string, Certified | null>,
): Promise<void> {
  const deltas = new Map<string, { row: { company_id: string; until: string }; n: number }>();
  const gone: string[] = [];
  const set: { certificate_id: string; company_id: string; until: string }[] = [];
  for (const [id, to] of next) {
    const from = stored.get(id) ?? null;
    if (from && to && from.until === to.until && from.company_id === to.company_id) continue;
    if (from) tally(deltas, { company_id: from.company_id, until: from.until }, -1);
    if (!to) {
      if (from) gone.push(id);
      continue;
    }
    tally(deltas, { company_id: to.company_id, until: to.until }, 1);
    set.push({ certificate_id: id, company_id: to.company_id, until: to.until });
  }
  const counts = [...deltas.values()].filter((e) => e.n !== 0).map((e) => ({ ...e.row, n: e.n }));
  if (counts.length)
    await tx
      .insert(certifiedClientCounts)
      .select(recordSet(certifiedClientCounts, counts))
      .onConflictDoUpdate({
        target: [certifiedClientCounts.company_id, certifiedClientCounts.until],
        set: { n: sql`${certifiedClientCounts.n} + excluded.n` },
      });
  if (gone.length)
    await tx.delete(clientCertifiedUntil).where(inArray(clientCertifiedUntil.certificate_id, gone));
  if (set.length)
    await tx
      .insert(clientCertifiedUntil)
      .select(recordSet(clientCertifiedUntil, set))
      .onConflictDoUpdate({
        target: clientCertifiedUntil.certificate_id,
        set: { company_id: sql`excluded.company_id`, until: sql`excluded.until` },
      });
}

/** Adds `delta` to the figure under `key` (one entry per key; the parts name the row). */
function tally<R extends object>(into: Map<string, { row: R; n: number }>, row: R, delta: number): void {
  const key = JSON.stringify(Object.values(row));
  const entry = into.get(key);
  if (entry) entry.n += delta;
  else into.set(key, { row, n: delta });
}

/** The scheme count rows a scheme adds to (its company, status, expiry, issue date). */
function schemeKeys(row: SchemeRow) {
  return {
    counts: { company_id: row.company_id, status: row.status, expired_date: row.expired_date },
    statuses: { company_id: row.company_id, status: row.status },
    issues: { company_id: row.company_id, issue_date: row.issue_date, status: row.status },
  };
}

/**
 * The scheme counts of many writes (a batch, or one write): what each write moves, summed by row,
 * then one upsert a table; then the clients whose certified figure may move, each once: locked in
 * id order, and moved to the later of its figure and its new ACTIVE schemes' expiries when the
 * batch only added ACTIVE schemes to it, else to the last ACTIVE expiry its schemes now hold (the
 * batch's rows are all written before the steps run).
 */
async function countSchemes(
  tx: Executor,
  writes: readonly { before: SchemeRow | null; after: SchemeRow | null }[],
): Promise<void> {
  const counts = new Map<string, { row: ReturnType<typeof schemeKeys>['counts']; n: number }>();
  const statuses = new Map<string, { row: ReturnType<typeof schemeKeys>['statuses']; n: number }>();
  const issues = new Map<string, { row: ReturnType<typeof schemeKeys>['issues']; n: number }>();
  const add = (row: SchemeRow, delta: 1 | -1) => {
    const keys = schemeKeys(row);
    tally(counts, keys.counts, delta);
    tally(statuses, keys.statuses, delta);
    tally(issues, keys.issues, delta);
  };
  /** Per client whose figure may move: the latest expiry of ACTIVE schemes added, or 'read' (any other change). */
  const clients = new Map<string, Certified | 'read'>();
  for (const { before, after } of writes) {
    const sameKey =
      before &&
      after &&
      before.company_id === after.company_id &&
      before.status === after.status &&
      before.issue_date === after.issue_date &&
      before.expired_date === after.expired_date;
    if (!sameKey) {
      if (before) add(before, -1);
      if (after) add(after, 1);
    }
    const sameClient = before?.certificate_id === after?.certificate_id;
    // Only a change of an ACTIVE scheme's client, status, expiry or company moves a client's figure.
    const sameCertified =
      sameClient &&
      before?.status === after?.status &&
      before?.expired_date === after?.expired_date &&
      before?.company_id === after?.company_id;
    if (!(before?.status === 'ACTIVE' || after?.status === 'ACTIVE') || sameCertified) continue;
    for (const id of [before?.certificate_id, after?.certificate_id]) {
      if (id === undefined) continue;
      // A new ACTIVE scheme can only move its client's last day later: no need to read the others.
      const added = !before && after?.status === 'ACTIVE' && after.certificate_id === id;
      const seen = clients.get(id);
      if (!added || seen === 'read') clients.set(id, 'read');
      else if (!seen || seen.until < after.expired_date)
        clients.set(id, { until: after.expired_date, company_id: after.company_id });
    }
  }
  const moved = <R extends object>(m: Map<string, { row: R; n: number }>) =>
    [...m.values()].filter((e) => e.n !== 0).map((e) => ({ ...e.row, n: e.n }));
  const rows = { counts: moved(counts), statuses: moved(statuses), issues: moved(issues) };
  if (rows.counts.length)
    await tx
      .insert(schemeCounts)
      .select(recordSet(schemeCounts, rows.counts))
      .onConflictDoUpdate({
        target: [schemeCounts.company_id, schemeCounts.status, schemeCounts.expired_date],
        set: { n: sql`${schemeCounts.n} + excluded.n` },
      });
  if (rows.statuses.length)
    await tx
      .insert(schemeStatusCounts)
      .select(recordSet(schemeStatusCounts, rows.statuses))
      .onConflictDoUpdate({
        target: [schemeStatusCounts.company_id, schemeStatusCounts.status],
        set: { n: sql`${schemeStatusCounts.n} + excluded.n` },
      });
  if (rows.issues.length)
    await tx
      .insert(schemeIssueCounts)
      .select(recordSet(schemeIssueCounts, rows.issues))
      .onConflictDoUpdate({
        target: [schemeIssueCounts.company_id, schemeIssueCounts.issue_date, schemeIssueCounts.status],
        set: { n: sql`${schemeIssueCounts.n} + excluded.n` },
      });
  if (!clients.size) return;
  const ids = [...clients.keys()].sort();
  const stored = await lockClients(tx, ids);
  const toRead = ids.filter((id) => clients.get(id) === 'read');
  const read = toRead.length ? await lastActiveExpiries(tx, toRead) : new Map<string, Certified>();
  const next = new Map<string, Certified | null>();
  for (const id of ids) {
    const current = stored.get(id) ?? null;
    const added = clients.get(id)!;
    next.set(
      id,
      added !== 'read' ? (current && current.until >= added.until ? current : added) : (read.get(id) ?? null),
    );
  }
  await setCertifiedMany(tx, stored, next);
}

// ---------------------------------------------------------------------------------------------
// Training certificates
// ---------------------------------------------------------------------------------------------

/**
 * The training counts of writes (one, or a batch's), set-wise: what each write adds and takes
 * (a write that keeps the company and the name moves nothing), summed per company and person (the
 * person computed by the database: `personOf`) and upserted with one statement; a person is in a
 * company (and overall) when their count ends above zero, so the companies' and the overall person
 * figures move by how many crossed zero, as one write after another would move them.
 */
async function countTrainingMany(
  tx: Executor,
  writes: readonly { before: TrainingRow | null; after: TrainingRow | null }[],
): Promise<void> {
  const deltas: { company_id: string; name: string; delta: number }[] = [];
  for (const { before, after } of writes) {
    if (before && after && before.company_id === after.company_id && before.name === after.name) continue;
    if (before) deltas.push({ company_id: before.company_id, name: before.name, delta: -1 });
    if (after) deltas.push({ company_id: after.company_id, name: after.name, delta: 1 });
  }
  if (!deltas.length) return;
  const result: unknown = await tx.execute(sql`
      with d as (
        select company_id, ${personOf(sql`${sql.identifier('name')}`)} as person, sum(delta)::int as delta
        from json_to_recordset(${JSON.stringify(deltas)}::json) as t(company_id uuid, name text, delta int)
        group by 1, 2
      ), up as (
        insert into ${trainingPersonCounts} (company_id, person, n)
        select company_id, person, delta from d order by 1, 2
        on conflict (company_id, person) do update set n = ${trainingPersonCounts.n} + excluded.n
        returning company_id, person, n
      )
      select up.company_id, up.person, up.n, d.delta from up join d using (company_id, person)`);
  const moved = (result as { rows: { company_id: string; person: string; n: number; delta: number }[] }).rows;
  /** +1 when a count went from zero to above, -1 the other way, else 0. */
  const crossed = (n: number, delta: number) => Number(n > 0) - Number(n - delta > 0);
  const companies = new Map<string, { certificates: number; persons: number }>();
  const persons = new Map<string, number>();
  for (const row of moved) {
    const c = companies.get(row.company_id) ?? { certificates: 0, persons: 0 };
    c.certificates += row.delta;
    c.persons += crossed(row.n, row.delta);
    companies.set(row.company_id, c);
    persons.set(row.person, (persons.get(row.person) ?? 0) + row.delta);
  }
  await tx
    .insert(trainingCounts)
    .select(
      recordSet(
        trainingCounts,
        [...companies].sort(([a], [b]) => (a < b ? -1 : 1)).map(([company_id, c]) => ({ company_id, ...c })),
      ),
    )
    .onConflictDoUpdate({
      target: trainingCounts.company_id,
      set: {
        certificates: sql`${trainingCounts.certificates} + excluded.certificates`,
        persons: sql`${trainingCounts.persons} + excluded.persons`,
      },
    });
  const totals = await tx
    .insert(trainingPersonTotals)
    .select(
      recordSet(
        trainingPersonTotals,
        [...persons].sort(([a], [b]) => (a < b ? -1 : 1)).map(([person, n]) => ({ person, n })),
      ),
    )
    .onConflictDoUpdate({
      target: trainingPersonTotals.person,
      set: { n: sql`${trainingPersonTotals.n} + excluded.n` },
    })
    .returning({ person: trainingPersonTotals.person, n: trainingPersonTotals.n });
  const allDelta = totals.reduce((sum, t) => sum + crossed(t.n, persons.get(t.person)!), 0);
  if (allDelta !== 0)
    await tx
      .insert(registerTotals)
      .values({ name: TRAINING_PERSONS, n: allDelta })
      .onConflictDoUpdate({
        target: registerTotals.name,
        set: { n: sql`${registerTotals.n} + ${allDelta}` },
      });
}

/**
 * The after-write step (AFTER_WRITE_STEPS): schemes and training certificates move the counts.
 * It takes the WriteEvent by its shape, so that this file needs no import of after-write.ts (which
 * lists it): no import cycle. WriteEvent pairs the entity 'scheme' with scheme rows and
 * 'training-certificate' with training rows, hence the two narrowings below.
 */
export async function countRegister(
  ctx: Pick<ServiceContext, 'tx'>,
  event: { entity: string; before: object | null; after: object | null },
): Promise<void> {
  if (event.entity === 'scheme') {
    await countSchemes(ctx.tx, [
      { before: event.before as SchemeRow | null, after: event.after as SchemeRow | null },
    ]);
  } else if (event.entity === 'training-certificate') {
    await countTrainingMany(ctx.tx, [
      { before: event.before as TrainingRow | null, after: event.after as TrainingRow | null },
    ]);
  }
}

/**
 * The step's batch form (services/after-write.ts `afterWriteMany`): the scheme writes of a batch
 * counted together (one upsert a count table, each client's figure once), and the training
 * certificates likewise (`countTrainingMany`).
 */
export async function countRegisterMany(
  ctx: Pick<ServiceContext, 'tx'>,
  events: readonly { entity: string; before: object | null; after: object | null }[],
): Promise<void> {
  const schemeWrites = events
    .filter((e) => e.entity === 'scheme')
    .map((e) => ({ before: e.before as SchemeRow | null, after: e.after as SchemeRow | null }));
  if (schemeWrites.length) await countSchemes(ctx.tx, schemeWrites);
  const trainingWrites = events
    .filter((e) => e.entity === 'training-certificate')
    .map((e) => ({ before: e.before as TrainingRow | null, after: e.after as TrainingRow | null }));
  if (trainingWrites.length) await countTrainingMany(ctx.tx, trainingWrites);
}

// ---------------------------------------------------------------------------------------------
// Rebuild
// ---------------------------------------------------------------------------------------------

/** The tables this file keeps: derived from the records, so a backup leaves them out and a restore rebuilds them. */
export const REGISTER_COUNT_TABLES = [
  schemeCounts,
  schemeStatusCounts,
  schemeIssueCounts,
  clientCertifiedUntil,
  certifiedClientCounts,
  trainingPersonCounts,
  trainingPersonTotals,
  trainingCounts,
  registerTotals,
] as const;

/**
 * Every count again from the records, in `exec` (run it in the bulk load's transaction): for a path
 * that writes rows without the services (a test's fixtures, a
 * restore). A few statements, each one pass over a table.
 */
export async function rebuildRegisterCounts(exec: Executor): Promise<void> {
  for (const table of REGISTER_COUNT_TABLES) await exec.delete(table);
  await exec.execute(sql`
    insert into ${schemeCounts} (company_id, status, expired_date, n)
    select company_id, status, expired_date, count(*) from ${schemes} group by 1, 2, 3`);
  await exec.execute(sql`
    insert into ${schemeStatusCounts} (company_id, status, n)
    select company_id, status, sum(n) from ${schemeCounts} group by 1, 2`);
  await exec.execute(sql`
    insert into ${schemeIssueCounts} (company_id, issue_date, status, n)
    select company_id, issue_date, status, count(*) from ${schemes} group by 1, 2, 3`);
  await exec.execute(sql`
    insert into ${clientCertifiedUntil} (certificate_id, company_id, until)
    select certificate_id, company_id, max(expired_date) from ${schemes}
    where status = 'ACTIVE' group by 1, 2`);
  await exec.execute(sql`
    insert into ${certifiedClientCounts} (company_id, until, n)
    select company_id, until, count(*) from ${clientCertifiedUntil} group by 1, 2`);
  await exec.execute(sql`
    insert into ${trainingPersonCounts} (company_id, person, n)
    select company_id, lower(trim(name)), count(*) from ${trainingCertificates} group by 1, 2`);
  await exec.execute(sql`
    insert into ${trainingPersonTotals} (person, n)
    select person, sum(n) from ${trainingPersonCounts} group by 1`);
  await exec.execute(sql`
    insert into ${trainingCounts} (company_id, certificates, persons)
    select company_id, sum(n), count(*) from ${trainingPersonCounts} group by 1`);
  await exec.execute(sql`
    insert into ${registerTotals} (name, n)
    select ${TRAINING_PERSONS}, count(*) from ${trainingPersonTotals}`);
}
