/**
 * `npm run demo --workspace api [-- --size small|large] [--scale <n>] [--seed <n>]`: fills an empty
 * database with the demo data set (generate.ts and its phases), with the server's settings (DATABASE_URL or
 * DATA_DIR). Migrates and makes the first administrator first when needed, as a server start does.
 */
import { sql } from 'drizzle-orm';
import { ValidationError } from 'yup';
import { passwordField } from '@sertifikasi/shared-contracts';
import type { Config } from '../config';
import { type Database, openDatabase } from '../db';
import { certifiedClientCounts, schemeCounts, schemeCycleDueCounts, schemeIssueCounts } from '../db/schema';
import { migrate } from '../db/migrate';
import { type Clock, createClock } from '../lib/clock';
import { randomPassword } from '../lib/crypto';
import { seedAdministrator, seedPermissions } from '../services/seed';
import {
  assertEmptyForDemo,
  DEMO_SIZES,
  type DemoResult,
  demoVolume,
  isDemoSize,
  writeDemo,
} from './generate';
import type { DemoVolume } from './writer';

export { assertEmptyForDemo, DemoRefusedError, demoVolume, writeDemo, DEMO_SIZES } from './generate';
export { DEMO_ROLES } from './bodies';
export type { DemoResult, DemoSize } from './generate';
export type { DemoVolume } from './writer';

/** Seed of the demo data set unless --seed says otherwise: same seed and day, same data. */
export const DEFAULT_DEMO_SEED = 20_241_117;

export class DemoUsageError extends Error {}

export interface DemoArgs {
  size: keyof typeof DEMO_SIZES;
  scale: number;
  seed: number;
}

export function parseDemoArgs(args: string[]): DemoArgs {
  const out: DemoArgs = { size: 'small', scale: 1, seed: DEFAULT_DEMO_SEED };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split('=', 2) as [string, string | undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new DemoUsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--size') {
      const v = value();
      if (!isDemoSize(v))
        throw new DemoUsageError(`--size is one of ${Object.keys(DEMO_SIZES).join(', ')}, not "${v}"`);
      out.size = v;
    } else if (flag === '--scale') {
      const v = value();
      const n = Number(v);
      if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0) || n > 10)
        throw new DemoUsageError(`--scale is a number above 0 and at most 10, not "${v}"`);
      out.scale = n;
    } else if (flag === '--seed') {
      const v = value();
      if (!/^\d{1,9}$/.test(v)) throw new DemoUsageError(`--seed is a whole number, not "${v}"`);
      out.seed = Number(v);
    } else {
      throw new DemoUsageError(`unknown option "${args[i]}"`);
    }
  }
  return out;
}

/** DEMO_PASSWORD (held to the rules of any password), else a generated one to print once. */
export function demoPassword(env: NodeJS.ProcessEnv): { password: string; generated: boolean } {
  const given = env.DEMO_PASSWORD;
  if (given === undefined || given === '') return { password: randomPassword(), generated: true };
  try {
    return { password: passwordField().validateSync(given), generated: false };
  } catch (err) {
    if (err instanceof ValidationError)
      throw new DemoUsageError(`DEMO_PASSWORD is not valid: ${err.message}`);
    throw err;
  }
}

export function describeDemo(result: DemoResult, password: { password: string; generated: boolean }): string {
  const s = result.statuses;
  const lines = [
    `Demo data written (today is ${result.today}):`,
    `  ${result.companies.length} certification bodies: ${result.companies.map((c) => c.name).join(', ')}`,
    `  ${result.rows.accreditationBodies} accreditation bodies, ${result.rows.certificationTypes} certification types`,
    `  ${result.rows.clients} clients, ${result.rows.schemes} schemes (ACTIVE ${s.ACTIVE}, SUSPENDED ${s.SUSPENDED}, ` +
      `WITHDRAWN ${s.WITHDRAWN}, DRAFT ${s.DRAFT}, NOACTIVE ${s.NOACTIVE}), ${result.rows.auditRows} audit rows`,
    `  ${result.rows.trainings} training certificates, ${result.rows.images} images`,
    `  ${result.rows.sites} client sites, ${result.rows.auditors} auditors, ${result.rows.plannedAudits} planned audits`,
    'Demo users (sign in at the portal):',
    ...result.users.map(
      (u) => `  ${u.username.padEnd(10)} ${u.role.padEnd(17)} ${u.companies.join(', ')}  (${u.name})`,
    ),
    password.generated
      ? `  Password of every demo user: ${password.password} (generated, shown once; set DEMO_PASSWORD to choose it)`
      : '  Password of every demo user: the one in DEMO_PASSWORD',
  ];
  return lines.join('\n');
}

export interface FillOptions {
  volume: DemoVolume;
  seed: number;
  password: string;
  /** The clock the data set is built around; default: the system time in `config.timeZone`. */
  clock?: Clock;
  log?: (line: string) => void;
}

/**
 * Writes the demo data set into an opened (migrated) database in one transaction, then refreshes
 * the planner's statistics. The demo command and the benchmarks both fill databases with this.
 */
export async function fillDemoDatabase(
  database: Database,
  config: Pick<Config, 'argon2' | 'timeZone' | 'publicBaseUrl'>,
  opts: FillOptions,
): Promise<DemoResult & { seconds: { write: number; analyze: number } }> {
  const log = opts.log ?? (() => undefined);
  const started = performance.now();
  const result = await database.db.transaction((tx) =>
    writeDemo(tx, {
      volume: opts.volume,
      seed: opts.seed,
      password: opts.password,
      argon2: config.argon2,
      publicBaseUrl: config.publicBaseUrl,
      clock: opts.clock ?? createClock(config.timeZone),
      log,
    }),
  );
  const written = performance.now();
  // The register counts were updated once per record written, all in the one transaction: every
  // row left thousands of dead versions, which vacuum frees but does not give back, so the tables
  // stayed 20 to 80 times their size (scheme_cycle_due_counts: 4,824 rows in 2,540 pages) and every
  // total summed over them read the empty pages. A live system writes them a transaction at a
  // time, where vacuum keeps them small. Rewritten compact here (a second or two).
  for (const table of [schemeCounts, schemeIssueCounts, certifiedClientCounts, schemeCycleDueCounts]) {
    await database.db.execute(sql`vacuum full ${table}`);
  }
  // Fresh statistics now, so the first searches are planned well (autovacuum would come later).
  await database.db.execute(sql`vacuum analyze`);
  const seconds = { write: (written - started) / 1000, analyze: (performance.now() - written) / 1000 };
  log(`  committed in ${seconds.write.toFixed(1)} s; vacuum analyze ${seconds.analyze.toFixed(1)} s`);
  return { ...result, seconds };
}

/** The demo command. Throws DemoRefusedError (nothing written) on a database that holds data. */
export async function runDemoCommand(config: Config, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const options = parseDemoArgs(args);
  const password = demoPassword(env);
  const volume = demoVolume(options.size, options.scale);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(database);
    if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
    await seedPermissions(database.db);
    const seed = await seedAdministrator(database.db, {
      username: config.adminUsername,
      password: config.adminPassword,
      cost: config.argon2,
    });
    if (seed.generatedPassword) {
      console.log(
        `First start: sign in as "${config.adminUsername}" with the generated password ${seed.generatedPassword} (shown once; change it in your profile)`,
      );
    }
    await assertEmptyForDemo(database.db);
    console.log(
      `Writing the ${options.size} demo data set (${database.kind}; ${volume.clients} clients, ` +
        `${volume.schemes} schemes, ${volume.trainings} training certificates; seed ${options.seed})...`,
    );
    const result = await fillDemoDatabase(database, config, {
      volume,
      seed: options.seed,
      password: password.password,
      log: (line) => console.log(line),
    });
    console.log(describeDemo(result, password));
  } finally {
    await database.close();
  }
}
