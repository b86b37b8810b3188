import { eq, sql } from 'drizzle-orm';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { users } from './db/schema';
import { migrate } from './db/migrate';
import { hashPassword, randomPassword } from './lib/crypto';
import { audit } from './services/audit';
import { revokeUserSessions } from './services/sessions';
import { seedPermissions } from './services/seed';

const usage = `Usage:
  npm run migrate --workspace api                               apply pending migrations (deploy step)
  npm run reset-admin --workspace api -- <username> [password]   set a new password (random when omitted)`;

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig();
  if (command !== 'migrate' && command !== 'reset-admin') {
    console.error(usage);
    process.exit(64);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === 'migrate') {
      const applied = await migrate(database);
      await seedPermissions(database.db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
      return;
    }
    const username = args[0] ?? config.adminUsername;
    const password = args[1] ?? randomPassword();
    if (password.length < 8) throw new Error('The password needs at least 8 characters.');
    const [user] = await database.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.username})`, username.toLowerCase()));
    if (!user) throw new Error(`No user named "${username}".`);
    const hash = await hashPassword(password, config.argon2);
    await database.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ password_hash: hash, is_active: true, updated_at: new Date() })
        .where(eq(users.id, user.id));
      await revokeUserSessions(tx, user.id);
      await audit(tx, null, {
        action: 'update',
        entity: 'user',
        entityId: user.id,
        before: { is_active: user.is_active },
        after: { is_active: true, password: 'reset by reset-admin' },
      });
    });
    console.log(
      `Password of "${user.username}" reset${args[1] ? '' : ` to: ${password}`}. Their sessions were ended.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
