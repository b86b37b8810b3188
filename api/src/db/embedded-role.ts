import pg from 'pg';

/**
 * The role the API connects to the embedded server as: it logs in and owns the app's database and
 * everything in it, and is no superuser (docs/rules.md#embedded-postgresql). The superuser made by
 * initdb is kept for what only it may do here: making the role and the database, and handing over
 * what an earlier version made as the superuser.
 */
export const APP_ROLE = 'sertifikasi_app';

export interface Login {
  port: number;
  user: string;
  password: string;
}

export function client(login: Login, database: string, connectionTimeoutMillis?: number): pg.Client {
  const c = new pg.Client({
    host: '127.0.0.1',
    port: login.port,
    user: login.user,
    password: login.password,
    database,
    ...(connectionTimeoutMillis ? { connectionTimeoutMillis } : {}),
  });
  c.on('error', () => undefined);
  return c;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Schemas of the system: never handed over. */
const SYSTEM_SCHEMA = `(n.nspname in ('pg_catalog', 'information_schema', 'pg_toast')
  or n.nspname like 'pg\\_temp\\_%' or n.nspname like 'pg\\_toast\\_temp\\_%')`;

/** Whether the object (catalog, oid) belongs to an extension or follows another object. */
const DEPENDENT = (catalog: string, oid: string, kinds: string) =>
  `exists (select 1 from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${oid}
    and d.deptype in (${kinds}))`;

/**
 * ALTER ... OWNER statements for everything in the current database not yet owned by `role`:
 * schemas, tables, views, sequences (those of a column follow their table), routines, types and
 * domains. Members of an extension stay the extension's (pg_trgm's functions are PUBLIC to run).
 */
const HANDOVER = `
with app as (select oid from pg_roles where rolname = $1)
select format('alter schema %I owner to %I', n.nspname, $1) as statement
  from pg_namespace n, app
 where n.nspowner <> app.oid and n.nspowner <> 'pg_database_owner'::regrole and not ${SYSTEM_SCHEMA}
   and not ${DEPENDENT('pg_namespace', 'n.oid', `'e'`)}
union all
select format('alter %s %s owner to %I',
         case c.relkind when 'S' then 'sequence' when 'v' then 'view'
           when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end,
         c.oid::regclass, $1)
  from pg_class c join pg_namespace n on n.oid = c.relnamespace, app
 where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and c.relowner <> app.oid and not ${SYSTEM_SCHEMA}
   and not ${DEPENDENT('pg_class', 'c.oid', `'e'`)}
   and not (c.relkind = 'S' and ${DEPENDENT('pg_class', 'c.oid', `'a', 'i'`)})
union all
select format('alter routine %s owner to %I', p.oid::regprocedure, $1)
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace, app
 where p.proowner <> app.oid and not ${SYSTEM_SCHEMA}
   and not ${DEPENDENT('pg_proc', 'p.oid', `'e'`)}
union all
select format('alter %s %s owner to %I', case t.typtype when 'd' then 'domain' else 'type' end,
         t.oid::regtype, $1)
  from pg_type t join pg_namespace n on n.oid = t.typnamespace, app
 where t.typowner <> app.oid and not ${SYSTEM_SCHEMA}
   and (t.typtype in ('e', 'd', 'r')
        or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))
   and not ${DEPENDENT('pg_type', 't.oid', `'e', 'i'`)}`;

/**
 * Makes the app's role (when missing) with its password, makes it own the app's database (made
 * when missing), and hands it every object in it (a database of an earlier version, where the app
 * was the superuser). Run as the superuser at every start: nothing to do costs one query.
 */
export async function ensureAppRole(
  superuser: Login,
  app: { user: string; password: string },
  database: string,
) {
  const admin = client(superuser, 'postgres');
  await admin.connect();
  try {
    const role = ident(app.user);
    const found = await admin.query('select 1 from pg_roles where rolname = $1', [app.user]);
    if (!found.rowCount) await admin.query(`create role ${role}`);
    await admin.query(
      `alter role ${role} with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls ` +
        `password ${admin.escapeLiteral(app.password)}`,
    );
    const db = await admin.query<{ owner: string }>(
      'select pg_get_userbyid(datdba) as owner from pg_database where datname = $1',
      [database],
    );
    if (!db.rowCount) await admin.query(`create database ${ident(database)} owner ${role}`);
    else if (db.rows[0]?.owner !== app.user) {
      await admin.query(`alter database ${ident(database)} owner to ${role}`);
    }
  } finally {
    await admin.end();
  }
  const inDb = client(superuser, database);
  await inDb.connect();
  try {
    const { rows } = await inDb.query<{ statement: string }>(HANDOVER, [app.user]);
    if (rows.length) {
      await inDb.query('begin');
      for (const { statement } of rows) await inDb.query(statement);
      await inDb.query('commit');
    }
  } finally {
    await inDb.end();
  }
}
