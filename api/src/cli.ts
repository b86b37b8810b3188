import { eq, sql } from 'drizzle-orm';
import { ValidationError } from 'yup';
import { passwordField } from '@sertifikasi/shared-contracts';
import { type Config, loadConfig } from './config';
import { writeBackupFile } from './services/backup';
import { restoreBackup, RestoreRefusedError } from './services/restore';
import { openDatabase } from './db';
import { users } from './db/schema';
import { migrate } from './db/migrate';
import { randomPassword } from './lib/crypto';
import { readPassword } from './lib/password-input';
import { DemoRefusedError, DemoUsageError, runDemoCommand } from './demo';
import { systemActor } from './services/context';
import { createClock } from './lib/clock';
import { seedPermissions } from './services/seed';
import { rotateKey } from './services/signing';
import { preparePassword, resetPassword } from './modules/users/users.service';

const usage = `Usage:
  npm run migrate --workspace api                             apply pending migrations (deploy step)
  npm run reset-admin --workspace api -- <username>            set a new password: typed at the prompt
                                                              (not shown), or the first line of stdin
  npm run reset-admin --workspace api -- <username> --random   set a random password, printed once
  npm run backup --workspace api -- <file>                    write a backup of the database (DATABASE_URL
                                                              or DATA_DIR) to <file>, while it runs
  npm run restore --workspace api -- <file>                   load a backup into an empty database
  npm run demo --workspace api [-- --size small|large] [--scale <n>] [--seed <n>]
                                                              fill an empty database with demo data
                                                              (users' password: DEMO_PASSWORD, or printed once)
  npm run rotate-key --workspace api                          sign with a new key from now on; the old one is
                                                              retired (still published, still verifies)`;

/**
 * The new password for reset-admin: never an argument (arguments show in \`ps\` and shell history).
 * Typed twice at a terminal, or the first line of standard input; held to the rules of any user's
 * password. With --random, a generated one.
 */
async function newPassword(random: boolean): Promise<string> {
  if (random) return randomPassword();
  const tty = !!process.stdin.isTTY;
  const password = await readPassword(process.stdin, process.stderr, 'New password: ');
  try {
    passwordField().validateSync(password);
  } catch (err) {
    if (err instanceof ValidationError) throw new Error(`Password refused: ${err.message}`);
    throw err;
  }
  if (tty && (await readPassword(process.stdin, process.stderr, 'Repeat it: ')) !== password) {
    throw new Error('The two passwords differ; nothing was changed.');
  }
  return password;
}

class UsageError extends Error {}

/** rotate-key (docs/rules.md#signed-certificates): a new signing key; the old one retired, still published. */
async function rotateKeyCommand(config: ReturnType<typeof loadConfig>) {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { kid, retired } = await rotateKey(database.db, createClock(config.timeZone).now());
    console.log(
      `Signing with the new key ${kid} from now on.${retired.length ? ` Retired (still published): ${retired.join(', ')}.` : ''}`,
    );
  } finally {
    await database.close();
  }
}

/** `backup <file>` and `restore <file>` (docs/rules.md#backup). */
async function backupCommand(command: 'backup' | 'restore', config: Config, args: string[]) {
  const [file, ...extra] = args;
  if (!file || extra.length) throw new UsageError(`${command} takes one argument: the file.`);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === 'backup') {
      // A secret (docs/rules.md#backup): 0600, written beside `file` and renamed when complete.
      await writeBackupFile(database.db, file, createClock(config.timeZone).now());
      console.log(`Backup written to ${file}.`);
      return;
    }
    const { counts, migrations } = await restoreBackup(database, file);
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(
      `Restored ${rows} rows into ${Object.keys(counts).length} tables (migration ${migrations.at(-1)}); row counts match the backup.\n` +
        'Sessions are not restored: everyone signs in again, with the passwords they had.',
    );
  } finally {
    await database.close();
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig();
  if (command === 'demo') return runDemoCommand(config, args, process.env);
  if (command === 'rotate-key') return rotateKeyCommand(config);
  if (command === 'backup' || command === 'restore') return backupCommand(command, config, args);
  if (command !== 'migrate' && command !== 'reset-admin') {
    console.error(usage);
    process.exit(64);
  }
  const random = args.includes('--random');
  const rest = args.filter((a) => a !== '--random');
  if (rest.length > 1) {
    throw new UsageError(
      'reset-admin no longer takes the password on the command line (it would show in ps and the shell history): type it at the prompt or pipe it on standard input.',
    );
  }
  const username = rest[0] ?? config.adminUsername;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === 'migrate') {
      const applied = await migrate(database);
      await seedPermissions(database.db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
      return;
    }
    const [user] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, username.toLowerCase()));
    if (!user) throw new Error(`No user named "${username}".`);
    const password = await newPassword(random);
    const prepared = await preparePassword(config, password);
    const clock = createClock(config.timeZone);
    const reset = await database.db.transaction((tx) =>
      resetPassword({ tx, actor: systemActor('cli'), clock, config }, username, prepared),
    );
    console.log(
      `Password of "${reset.username}" reset${random ? ` to: ${password}` : ''}. Their sessions were ended.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  const usageError = err instanceof UsageError || err instanceof DemoUsageError;
  if (usageError) console.error(usage);
  process.exit(
    usageError ? 64 : err instanceof DemoRefusedError || err instanceof RestoreRefusedError ? 3 : 1,
  );
});
