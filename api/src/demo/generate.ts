/**
 * The demo data set (README "Demo data"): three certification bodies with their
 * accreditation bodies and standards, clients with schemes in every status, training certificates,
 * the audit rows a scheme's status history is derived from, and users with limited roles and scopes.
 *
 * Deterministic: the same seed and the same "today" give the same data. Rows are generated in
 * memory a batch at a time and written with one set-based statement per batch
 * (`insert ... select * from json_populate_recordset(...)`), so
 * the benchmark size (100,000 clients, 300,000 schemes) takes minutes, not hours.
 */
import { count, ne, sql } from 'drizzle-orm';
import {
  addDays,
  addMonths,
  addValidity,
  CYCLE_RULES,
  daysBetween,
  MODULE_KEYS,
  type PermissionKey,
  type SchemeStatus,
  type ValidForType,
} from '@sertifikasi/shared-contracts';
import {
  type SignedFields,
  schemeSignedFields,
  trainingSignedFields,
} from '@sertifikasi/shared-contracts/credential';
import type { Executor } from '../db';
import type { Clock } from '../lib/clock';
import { createSemaphore } from '../lib/semaphore';
import { companies, permissions, rolePermissions, roles, userCompanies, users } from '../db/schema';
import { type Argon2Cost, hashPassword } from '../lib/crypto';
import { rebuildDerived } from '../services/derived';
import type { WriteSource } from '../services/context';
import { type CheckKind, qrPngBase64 } from '../services/qr';
import { SCHEME_AUDIT_ENTITY } from '../services/scheme-history';
import { ADMIN_ROLE_NAME } from '../services/seed';
import { activeKey, type SigningKey, signedCheckUrl } from '../services/signing';
import {
  ACCREDITATION_BODIES,
  AUDIT_NOTES,
  type BodySeed,
  CERTIFICATION_BODIES,
  COMPANY_FORMS,
  DEGREES,
  FIRST_NAMES,
  INDUSTRIES,
  LAST_NAMES,
  NAME_FIRST,
  NAME_SECOND,
  PLACES,
  STANDARDS,
  STATUS_NOTES,
  STREETS,
  TITLES,
  TRAINING_NOTES,
  TRAINING_VENUES,
  TRAININGS,
} from './data';
import { badgeSvg, certificateLogoSvg, initialsOf, logoSvg, signatureSvg, storeSvg } from './images';
import { type Random, randomSource } from './random';

/** Where the demo's audit rows say they came from. */
const DEMO_SOURCE: WriteSource = 'demo';

/** The year and the day of the month of a date `YYYY-MM-DD`. */
const yearOf = (date: string): number => Number(date.slice(0, 4));
const dayOf = (date: string): number => Number(date.slice(8, 10));

export const DEMO_SIZES = {
  small: { clients: 240, schemes: 520, trainings: 300, logos: 240 },
  large: { clients: 100_000, schemes: 300_000, trainings: 100_000, logos: 300 },
} as const;
export type DemoSize = keyof typeof DEMO_SIZES;
export const isDemoSize = (value: string): value is DemoSize => value in DEMO_SIZES;

export interface DemoVolume {
  clients: number;
  schemes: number;
  trainings: number;
  /** Clients that get a logo of their own (the rest show the default image). */
  logos: number;
}

/** Scheme kinds written first, whatever the size, so every status and case is present. */
const FORCED_KINDS = [
  'overdue',
  'expiring-past',
  'overdue',
  'expiring-future',
  'SUSPENDED',
  'WITHDRAWN',
  'DRAFT',
  'NOACTIVE',
  'expired',
  'reactivated',
  'draft-activated',
  'expiring-past',
  'expiring-future',
  'active',
] as const;

/** The numbers of rows for a size, times `scale` (at least the forced cases). */
export function demoVolume(size: DemoSize, scale = 1): DemoVolume {
  const base = DEMO_SIZES[size];
  const n = (v: number, min: number) => Math.max(min, Math.round(v * scale));
  const clients = n(base.clients, 3);
  return {
    clients,
    schemes: Math.max(n(base.schemes, FORCED_KINDS.length), clients),
    trainings: n(base.trainings, 3),
    logos: Math.min(clients, n(base.logos, 3)),
  };
}

export interface DemoOptions {
  volume: DemoVolume;
  seed: number;
  /** Password of every demo user. */
  password: string;
  argon2: Argon2Cost;
  /** The app's clock: "now", and today in the deployment's time zone (the data set is built around it). */
  clock: Clock;
  /** The public address the QR codes point at (the config's `publicBaseUrl`). */
  publicBaseUrl: string;
  /** Rows per insert statement. */
  batchRows?: number;
  log?: (line: string) => void;
}

export interface DemoUser {
  username: string;
  name: string;
  role: string;
  companies: string[];
}

export interface DemoResult {
  today: string;
  companies: { id: string; name: string }[];
  users: DemoUser[];
  rows: {
    accreditedBodies: number;
    certificationTypes: number;
    clients: number;
    schemes: number;
    trainings: number;
    auditRows: number;
    images: number;
  };
  /** Schemes by stored status. */
  statuses: Record<SchemeStatus, number>;
}

/** The database already holds data: the demo writes nothing. */
export class DemoRefusedError extends Error {}

/**
 * Refuses a database that holds anything besides the first start's seed (the permission catalogue,
 * the Administrator role and one user).
 */
export async function assertEmptyForDemo(exec: Executor): Promise<void> {
  const [c] = await exec.select({ n: count() }).from(companies);
  const [u] = await exec.select({ n: count() }).from(users);
  const [r] = await exec.select({ n: count() }).from(roles).where(ne(roles.name, ADMIN_ROLE_NAME));
  const found: string[] = [];
  if (c!.n > 0) found.push(`${c!.n} compan${c!.n === 1 ? 'y' : 'ies'}`);
  if (u!.n > 1) found.push(`${u!.n} users`);
  if (r!.n > 0) found.push(`${r!.n} role${r!.n === 1 ? '' : 's'} besides ${ADMIN_ROLE_NAME}`);
  if (found.length) {
    throw new DemoRefusedError(
      `The database already holds data (${found.join(', ')}): the demo data set only goes into an empty ` +
        'database (after the first start, only the administrator). Nothing was written.',
    );
  }
}

interface Body {
  seed: BodySeed;
  id: string;
  types: { id: string; code: string; name: string; valid_for: number; valid_for_type: ValidForType }[];
  accredited: string[];
  /** The staff user whose name is on this company's audit rows. */
  staff: { id: string; username: string };
  counters: { scheme: number; training: number; client: number };
}

interface Client {
  id: string;
  name: string;
  body: number;
  /** Offset into the body's standards, so one client's schemes are of different standards. */
  typeStart: number;
  schemes: number;
}

type Kind = (typeof FORCED_KINDS)[number] | 'SUSPENDED' | 'WITHDRAWN' | 'DRAFT' | 'NOACTIVE';

const KIND_WEIGHTS: [Kind, number][] = [
  ['active', 51],
  ['overdue', 7],
  ['expiring-past', 2],
  ['expiring-future', 2],
  ['expired', 3],
  ['reactivated', 3],
  ['draft-activated', 5],
  ['SUSPENDED', 7],
  ['WITHDRAWN', 5],
  ['DRAFT', 6],
  ['NOACTIVE', 9],
];

const VALIDITY_VARIANTS: [number, ValidForType][] = [
  [1, 'YEAR'],
  [36, 'MONTH'],
  [18, 'MONTH'],
  [730, 'DAY'],
];

/** Roles of the demo users: what each may do (docs/rules.md#permissions). */
const CERT_MODULES = ['accredited', 'certification', 'company-certificate', 'training-certificate'] as const;
const REPORT_KEYS = MODULE_KEYS.filter((k) => k.startsWith('report-'));
export const DEMO_ROLES: { name: string; keys: PermissionKey[] }[] = [
  {
    name: 'Staf Sertifikasi',
    keys: [
      'statistik',
      'audit-schedule',
      ...CERT_MODULES.flatMap((m) => [m, `${m}:create`, `${m}:edit`] as PermissionKey[]),
    ],
  },
  {
    name: 'Manajer',
    keys: ['statistik', 'audit-schedule', ...REPORT_KEYS, 'company-certificate', 'training-certificate'],
  },
];

/** Demo users: staff scoped to one company each, a manager scoped to two. */
const DEMO_USERS = [
  { username: 'staf.msn', name: 'Rina Wulandari', role: 'Staf Sertifikasi', bodies: [0] },
  { username: 'staf.gqc', name: 'Agus Setiawan', role: 'Staf Sertifikasi', bodies: [1] },
  { username: 'staf.cps', name: 'Dewi Anggraini', role: 'Staf Sertifikasi', bodies: [2] },
  { username: 'manajer', name: 'Bambang Hartono', role: 'Manajer', bodies: [0, 1] },
] as const;

const personName = (rnd: Random, formal: boolean): string => {
  const first = rnd.pick(FIRST_NAMES);
  const last = rnd.pick(LAST_NAMES);
  const core = rnd.chance(0.2) ? `${first} ${rnd.pick(FIRST_NAMES)} ${last}` : `${first} ${last}`;
  return formal ? `${rnd.pick(TITLES)}${core}${rnd.pick(DEGREES)}` : core;
};

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/^(pt|cv|koperasi|yayasan) /, '')
    .replace(/ tbk$/, '')
    .replace(/[^a-z0-9]+/g, '');

const minDate = (a: string, b: string) => (a < b ? a : b);
const maxDate = (a: string, b: string) => (a > b ? a : b);

const digits = (rnd: Random, n: number) => Array.from({ length: n }, () => rnd.int(10)).join('');

/** What every phase of the demo writer shares: the transaction, the random source, the clock, the batch writer. */
interface DemoWriter {
  exec: Executor;
  rnd: Random;
  clock: Clock;
  today: string;
  yesterday: string;
  volume: DemoVolume;
  batchRows: number;
  /** The key that signs the QR codes, and the public address they point at. */
  key: SigningKey;
  publicBaseUrl: string;
  /** Images stored so far. */
  images: number;
  store: (svg: string, label: string) => Promise<string>;
  insertRows: (table: string, rows: object[]) => Promise<void>;
  phase: (what: string) => void;
  /** An instant on `date` during office hours, never after now. */
  at: (date: string) => string;
  /** A date from a to b (both included; a when b is earlier). */
  dateBetween: (a: string, b: string) => string;
}

function demoWriter(exec: Executor, opts: DemoOptions, key: SigningKey): DemoWriter {
  const rnd = randomSource(opts.seed);
  const { clock } = opts;
  const nowMs = clock.now().getTime();
  const today = clock.today(clock.now());
  const batchRows = opts.batchRows ?? 2000;
  const log = opts.log ?? (() => undefined);
  // One image at a time, as an app with the default IMAGE_CONCURRENCY runs them.
  const imageWork = createSemaphore(1);
  /** Milliseconds spent in insert statements since the last phase line. */
  let insertMs = 0;
  let phaseStart = performance.now();
  const writer: DemoWriter = {
    exec,
    rnd,
    clock,
    today,
    yesterday: addDays(today, -1),
    volume: opts.volume,
    batchRows,
    key,
    publicBaseUrl: opts.publicBaseUrl,
    images: 0,
    store: async (svg, label) => {
      writer.images++;
      return storeSvg(exec, svg, label, imageWork);
    },
    // One statement per batch: the rows as JSON, turned into the table's row type by the database.
    insertRows: async (table, rows) => {
      for (let i = 0; i < rows.length; i += batchRows) {
        const json = JSON.stringify(rows.slice(i, i + batchRows));
        const started = performance.now();
        const name = sql.identifier(table);
        await exec.execute(
          sql`insert into ${name} select * from json_populate_recordset(null::${name}, ${json}::json)`,
        );
        insertMs += performance.now() - started;
      }
    },
    phase: (what) => {
      const t = performance.now();
      const inserts = (insertMs / 1000).toFixed(1);
      log(
        `  ${what} (${((t - phaseStart) / 1000).toFixed(1)} s, of which ${inserts} s in insert statements)`,
      );
      phaseStart = t;
      insertMs = 0;
    },
    at: (date) => {
      const t = clock.instantAt(date, rnd.between(8, 16), rnd.int(60)).getTime();
      return new Date(Math.min(t, nowMs - 60_000 - rnd.int(3_600_000))).toISOString();
    },
    dateBetween: (a, b) => addDays(a, rnd.int(Math.max(0, daysBetween(a, b)) + 1)),
  };
  return writer;
}

/** QR images made at once: the PNGs are encoded off the event loop (libvips), a few side by side. */
const QR_CONCURRENCY = 4;

/**
 * Gives each row its signed QR code (docs/rules.md#signed-certificates), as the after-write step
 * does for a record written through the services: one signing key for the whole batch, the PNGs a
 * few at a time. `fieldsOf` answers null for a row that keeps no QR.
 */
async function signQrs<T extends { qrcode: string | null }>(
  w: DemoWriter,
  kind: CheckKind,
  rows: T[],
  fieldsOf: (row: T, index: number) => SignedFields | null,
): Promise<number> {
  const todo = rows.flatMap((row, index) => {
    const fields = fieldsOf(row, index);
    return fields ? [{ row, url: signedCheckUrl(w.publicBaseUrl, kind, w.key, fields) }] : [];
  });
  for (let i = 0; i < todo.length; i += QR_CONCURRENCY) {
    await Promise.all(
      todo.slice(i, i + QR_CONCURRENCY).map(async ({ row, url }) => {
        row.qrcode = await qrPngBase64(url);
      }),
    );
  }
  return todo.length;
}

/** The demo roles with their permissions; answers their ids by name. */
async function writeRoles(w: DemoWriter): Promise<Map<string, string>> {
  const permissionRows = await w.exec.select().from(permissions);
  const permissionId = new Map(permissionRows.map((p) => [p.name, p.id]));
  const roleIds = new Map<string, string>();
  for (const role of DEMO_ROLES) {
    const id = w.rnd.uuid();
    roleIds.set(role.name, id);
    const stamp = w.at(addDays(w.today, -400));
    await w.exec
      .insert(roles)
      .values({ id, name: role.name, created_at: new Date(stamp), updated_at: new Date(stamp) });
    await w.exec
      .insert(rolePermissions)
      .values(role.keys.map((k) => ({ role_id: id, permission_id: permissionId.get(k)! })));
  }
  return roleIds;
}

/** The certification bodies with their images; `userIds` are the demo users' ids (staff named on audit rows). */
async function writeBodies(w: DemoWriter, userIds: string[]): Promise<Body[]> {
  const bodies: Body[] = [];
  for (const [i, seed] of CERTIFICATION_BODIES.entries()) {
    const id = w.rnd.uuid();
    const director = personName(w.rnd, true);
    const created = new Date(w.at(addDays(w.today, -1200 + i * 7)));
    await w.exec.insert(companies).values({
      id,
      name: seed.name,
      email: seed.email,
      phone: seed.phone,
      address: seed.address,
      website: seed.website,
      logo: await w.store(logoSvg(seed.initials, seed.colour), 'Logo'),
      logo_cert: await w.store(certificateLogoSvg(seed.initials, seed.name, seed.colour), 'Logo sertifikat'),
      ttd_cert: await w.store(signatureSvg(director), 'Tanda tangan sertifikat'),
      simple_dates: seed.simple_dates,
      public_certificate_download: seed.public_certificate_download,
      created_at: created,
      updated_at: created,
    });
    const staffIndex = DEMO_USERS.findIndex((u) => u.role === 'Staf Sertifikasi' && u.bodies[0] === i);
    bodies.push({
      seed,
      id,
      types: [],
      accredited: [],
      staff: { id: userIds[staffIndex]!, username: DEMO_USERS[staffIndex]!.username },
      counters: { scheme: 0, training: 0, client: 0 },
    });
  }
  return bodies;
}

/** Each body's accreditation bodies and standards; answers how many of each were written. */
async function writeCatalogues(
  w: DemoWriter,
  bodies: Body[],
): Promise<{ accreditedBodies: number; certificationTypes: number }> {
  const accreditedRows: object[] = [];
  const typeRows: object[] = [];
  for (const body of bodies) {
    for (const short of body.seed.accreditations) {
      const a = ACCREDITATION_BODIES.find((x) => x.short === short)!;
      const id = w.rnd.uuid();
      const stamp = w.at(addDays(w.today, -1100));
      body.accredited.push(id);
      accreditedRows.push({
        id,
        company_id: body.id,
        name: a.name,
        icon: await w.store(badgeSvg(a.short, a.colour), 'Logo akreditasi'),
        created_at: stamp,
        updated_at: stamp,
      });
    }
    for (const [position, code] of body.seed.standards.entries()) {
      const s = STANDARDS.find((x) => x.code === code)!;
      const id = w.rnd.uuid();
      const stamp = w.at(addDays(w.today, -1100));
      body.types.push({ id, code, name: s.name, valid_for: s.valid_for, valid_for_type: s.valid_for_type });
      typeRows.push({
        id,
        company_id: body.id,
        name: s.name,
        category: s.category,
        code: s.code,
        position: position + 1,
        valid_for: s.valid_for,
        valid_for_type: s.valid_for_type,
        icon: await w.store(badgeSvg(s.label, s.colour), 'Icon sertifikat'),
        created_at: stamp,
        updated_at: stamp,
      });
    }
  }
  await w.insertRows('accredited_bodies', accreditedRows);
  await w.insertRows('certification_types', typeRows);
  return { accreditedBodies: accreditedRows.length, certificationTypes: typeRows.length };
}

/** The demo users and their company scopes. */
async function writeUsers(
  w: DemoWriter,
  opts: DemoOptions,
  userIds: string[],
  roleIds: Map<string, string>,
  bodies: Body[],
): Promise<void> {
  const passwordHash = await hashPassword(opts.password, opts.argon2);
  for (const [i, u] of DEMO_USERS.entries()) {
    const stamp = new Date(w.at(addDays(w.today, -380 + i)));
    await w.exec.insert(users).values({
      id: userIds[i]!,
      name: u.name,
      username: u.username,
      password_hash: passwordHash,
      roles_id: roleIds.get(u.role)!,
      scope_all: false,
      is_active: true,
      created_at: stamp,
      updated_at: stamp,
    });
    await w.exec
      .insert(userCompanies)
      .values(u.bodies.map((b) => ({ user_id: userIds[i]!, company_id: bodies[b]!.id })));
  }
}

/** The clients, spread over the bodies by their share; the first `volume.logos` get a logo. */
async function writeClients(w: DemoWriter, bodies: Body[]): Promise<Client[]> {
  const { rnd, today, volume, batchRows } = w;
  const shares = bodies.map((b, i) => [i, b.seed.share] as const);
  const clients: Client[] = [];
  let clientRows: object[] = [];
  for (let i = 0; i < volume.clients; i++) {
    // The first few go round the bodies, so even a tiny data set has clients everywhere.
    const b = i < 3 * bodies.length ? i % bodies.length : rnd.weighted(shares);
    const body = bodies[b]!;
    const industry = rnd.pick(INDUSTRIES);
    const place = rnd.pick(PLACES);
    const form = rnd.weighted(COMPANY_FORMS);
    const core = `${rnd.pick(NAME_FIRST)} ${rnd.pick(NAME_SECOND)}`;
    const third = rnd.chance(0.6)
      ? ` ${rnd.pick(industry.nameWords)}`
      : rnd.chance(0.3)
        ? ` ${place.city.split(' ').pop()}`
        : '';
    const name = form === 'PT Tbk' ? `PT ${core}${third} Tbk` : `${form} ${core}${third}`;
    const domain = `${slug(name)}${rnd.chance(0.7) ? '.co.id' : '.com'}`;
    const id = rnd.uuid();
    const created = w.at(addDays(today, -rnd.between(30, 1400)));
    const employees = rnd.weighted([
      [rnd.between(10, 49), 30],
      [rnd.between(50, 249), 45],
      [rnd.between(250, 2500), 25],
    ] as const);
    const street =
      place.estate && rnd.chance(0.5)
        ? `${place.estate} Blok ${String.fromCharCode(65 + rnd.int(8))}-${rnd.between(1, 40)}`
        : `${rnd.pick(STREETS)} No. ${rnd.between(1, 250)}`;
    clients.push({ id, name, body: b, typeStart: rnd.int(body.types.length), schemes: 0 });
    clientRows.push({
      id,
      company_id: body.id,
      certificate_number: body.seed.clientNumber(++body.counters.client),
      region: place.province,
      name,
      logo: null as string | null,
      address: `${street}, ${place.city}, ${place.province} ${place.postal}`,
      scope: industry.scope,
      ea_code: industry.ea,
      nace_code: industry.nace,
      president: personName(rnd, true),
      management_representative: personName(rnd, true),
      foundation_day: addDays(today, -rnd.between(3 * 365, 45 * 365)),
      employees_number: employees,
      employees_active: Math.max(1, Math.round(employees * (0.8 + rnd.next() * 0.2))),
      phone: `(${place.areaCode}) ${digits(rnd, 3)} ${digits(rnd, 4)}`,
      handphone: rnd.chance(0.8)
        ? `08${rnd.pick(['11', '12', '13', '21', '22', '52', '55', '56', '57', '77', '78', '81', '96'])}-${digits(rnd, 4)}-${digits(rnd, 4)}`
        : null,
      fax: rnd.chance(0.3) ? `(${place.areaCode}) ${digits(rnd, 3)} ${digits(rnd, 4)}` : null,
      email: rnd.chance(0.9)
        ? `${rnd.pick(['info', 'admin', 'kontak', 'qhse', 'mr', 'legal'])}@${domain}`
        : null,
      website: rnd.chance(0.75) ? `https://www.${domain}` : null,
      qrcode: null,
      // A bulk load writes every column (no database default applies): reminders on, as for a new client.
      send_reminders: true,
      created_at: created,
      updated_at: created,
    });
    if (i < volume.logos) {
      const row = clientRows[clientRows.length - 1] as { logo: string | null };
      row.logo = await w.store(
        logoSvg(initialsOf(name), rnd.pick(STANDARDS).colour, rnd.chance(0.5) ? 'circle' : 'tile'),
        'Logo',
      );
    }
    if (clientRows.length >= batchRows) {
      await w.insertRows('client_certificates', clientRows);
      clientRows = [];
    }
  }
  await w.insertRows('client_certificates', clientRows);
  w.phase(`${volume.clients} clients (${Math.min(volume.logos, volume.clients)} with a logo)`);
  return clients;
}

/** What a scheme of a kind went through: its issue date and its statuses, oldest first. */
interface SchemeStory {
  issue: string;
  history: { status: SchemeStatus; desc: string | null }[];
  /** A surveillance was missed. */
  overdue: boolean;
}

/**
 * The story of a scheme of `kind` around today: `validity` is its validity, `vDays` that in days,
 * `survMonths` the months between surveillances.
 */
function schemeStory(
  w: DemoWriter,
  kind: Kind,
  validity: { validFor: number; validForType: ValidForType; vDays: number; survMonths: number },
): SchemeStory {
  const { rnd, today } = w;
  const { validFor, validForType, vDays, survMonths } = validity;
  const day = dayOf(today);
  const monthEnd = dayOf(addDays(addMonths(`${today.slice(0, 7)}-01`, 1), -1));
  const inMonth = (d: number) => `${today.slice(0, 7)}-${String(d).padStart(2, '0')}`;
  const beforeToday = (lo: number, hi: number) => addDays(today, -rnd.between(lo, Math.max(lo, hi)));
  let issue: string;
  let history: SchemeStory['history'];
  let overdue = false;
  switch (kind) {
    case 'overdue':
      if (vDays - 40 > survMonths * 31 + 5) {
        issue = beforeToday(survMonths * 31 + 5, vDays - 40);
        overdue = true;
      } else issue = beforeToday(7, vDays - 40);
      history = [{ status: 'ACTIVE', desc: null }];
      break;
    case 'expiring-past':
    case 'expiring-future': {
      const d = kind === 'expiring-past' ? rnd.between(1, day - 1) : rnd.between(day, monthEnd);
      issue = addValidity(inMonth(d), -validFor, validForType);
      history = [{ status: 'ACTIVE', desc: null }];
      break;
    }
    case 'expired':
      issue = addValidity(beforeToday(35, 400), -validFor, validForType);
      history = [{ status: 'ACTIVE', desc: null }];
      break;
    case 'reactivated':
      issue = beforeToday(150, vDays - 40);
      history = [
        { status: 'ACTIVE', desc: null },
        { status: 'SUSPENDED', desc: rnd.pick(STATUS_NOTES.SUSPENDED) },
        { status: 'ACTIVE', desc: null },
      ];
      break;
    case 'draft-activated':
      issue = beforeToday(7, vDays - 40);
      history = [
        { status: 'DRAFT', desc: rnd.pick(STATUS_NOTES.DRAFT) },
        { status: 'ACTIVE', desc: null },
      ];
      break;
    case 'SUSPENDED':
      issue = beforeToday(90, vDays - 10);
      history = [
        { status: 'ACTIVE', desc: null },
        { status: 'SUSPENDED', desc: rnd.pick(STATUS_NOTES.SUSPENDED) },
      ];
      break;
    case 'WITHDRAWN':
      issue = beforeToday(180, vDays + 200);
      history = [
        { status: 'ACTIVE', desc: null },
        ...(rnd.chance(0.5)
          ? [{ status: 'SUSPENDED' as const, desc: rnd.pick(STATUS_NOTES.SUSPENDED) }]
          : []),
        { status: 'WITHDRAWN', desc: rnd.pick(STATUS_NOTES.WITHDRAWN) },
      ];
      break;
    case 'NOACTIVE':
      issue = beforeToday(Math.max(60, vDays - 200), vDays + 500);
      history = [
        { status: 'ACTIVE', desc: null },
        { status: 'NOACTIVE', desc: rnd.pick(STATUS_NOTES.NOACTIVE) },
      ];
      break;
    case 'DRAFT':
      issue = beforeToday(0, 30);
      history = [{ status: 'DRAFT', desc: rnd.pick(STATUS_NOTES.DRAFT) }];
      break;
    default:
      issue = beforeToday(7, vDays - 40);
      history = [{ status: 'ACTIVE', desc: null }];
  }
  return { issue, history, overdue };
}

/**
 * The schemes, in every status and case, with the audit rows their status history is read from and
 * the surveillance audits done. Some active schemes carry their signed QR; the others show
 * 'Generate QR', as schemes do before the staff make one.
 */
async function writeSchemes(
  w: DemoWriter,
  bodies: Body[],
  clients: Client[],
): Promise<{ auditRows: number; qrs: number; statuses: Record<SchemeStatus, number> }> {
  const { rnd, today, yesterday, volume, batchRows } = w;
  const statuses: Record<SchemeStatus, number> = {
    ACTIVE: 0,
    SUSPENDED: 0,
    WITHDRAWN: 0,
    DRAFT: 0,
    NOACTIVE: 0,
  };
  let auditRows = 0;
  let auditsDone = 0;
  let schemeBatch: { qrcode: string | null }[] = [];
  /** The signed fields of the batch's schemes that get a QR (by position), null for the others. */
  let schemeQrFields: (SignedFields | null)[] = [];
  let auditBatch: object[] = [];
  let auditDoneBatch: object[] = [];
  let qrs = 0;
  const flushSchemes = async () => {
    qrs += await signQrs(w, 'company', schemeBatch, (_, i) => schemeQrFields[i] ?? null);
    await w.insertRows('schemes', schemeBatch);
    await w.insertRows('audit_log', auditBatch);
    await w.insertRows('scheme_audits', auditDoneBatch);
    schemeBatch = [];
    schemeQrFields = [];
    auditBatch = [];
    auditDoneBatch = [];
  };
  const day = dayOf(today);

  for (let i = 0; i < volume.schemes; i++) {
    const client = i < volume.clients ? clients[i]! : clients[rnd.int(clients.length)]!;
    const body = bodies[client.body]!;
    const type = body.types[(client.typeStart + client.schemes++) % body.types.length]!;
    let kind: Kind = i < FORCED_KINDS.length ? FORCED_KINDS[i]! : rnd.weighted(KIND_WEIGHTS);
    if (kind === 'expiring-past' && day === 1) kind = 'expiring-future';
    const [validFor, validForType] = rnd.chance(0.1)
      ? rnd.pick(VALIDITY_VARIANTS)
      : ([type.valid_for, type.valid_for_type] as const);
    const vDays = daysBetween(addValidity(today, -validFor, validForType), today);
    /** Surveillance every 12 months (6 when the certificate is shorter than 15 months). */
    const survMonths = vDays >= 450 ? 12 : 6;
    const { issue, history, overdue } = schemeStory(w, kind, { validFor, validForType, vDays, survMonths });
    const expired = addValidity(issue, validFor, validForType);
    const current = history[history.length - 1]!;

    // Surveillance: the next one due (or, when overdue, the last one missed), before expiry.
    let surveillance: string | null = null;
    if (!body.seed.simple_dates && current.status !== 'DRAFT') {
      const due = (k: number) => addValidity(issue, k * survMonths, 'MONTH');
      let k = 1;
      if (overdue) {
        while (due(k + 1) < today) k++;
        surveillance = due(k) < today ? due(k) : null;
      } else {
        while (due(k) < today) k++;
        surveillance = due(k) < expired ? due(k) : null;
      }
    }
    const accredited = body.accredited.length > 0 && rnd.chance(0.65);

    // When each status took effect: created on (or shortly after) the issue date; a draft before it.
    const created =
      history[0]!.status === 'DRAFT' && history.length > 1
        ? addDays(issue, -rnd.between(1, 10))
        : issue >= yesterday
          ? issue
          : w.dateBetween(issue, minDate(addDays(issue, 14), yesterday));
    const eventDates = [created];
    for (let h = 1; h < history.length; h++) {
      const prev = eventDates[h - 1]!;
      const left = history.length - h;
      const latest = addDays(yesterday, -(left - 1));
      // A suspension of the last 200 days: its six-month limit is past for some, near for others.
      const earliest =
        h === 1 && kind === 'draft-activated'
          ? issue
          : kind === 'SUSPENDED'
            ? maxDate(addDays(prev, 1), addDays(today, -200))
            : addDays(prev, 1);
      const target =
        kind === 'draft-activated'
          ? minDate(addDays(issue, 5), latest)
          : kind === 'NOACTIVE'
            ? minDate(expired, latest)
            : latest;
      eventDates.push(earliest >= target ? earliest : w.dateBetween(earliest, target));
    }
    const eventTimes = eventDates.map(w.at);
    for (let h = 1; h < eventTimes.length; h++) {
      if (eventTimes[h]! <= eventTimes[h - 1]!)
        eventTimes[h] = new Date(Date.parse(eventTimes[h - 1]!) + 60_000).toISOString();
    }

    // The certification cycle (docs/product.md): the decision a few days before the issue date, and
    // a surveillance audit done near each twelve-month mark already past (until the recertification
    // takes over, 90 days before the expiry). An overdue scheme missed its last one (late); the
    // others are due at their next mark, some within 30 days.
    const id = rnd.uuid();
    const decision = current.status === 'DRAFT' ? null : addDays(issue, -rnd.between(0, 7));
    if (decision && history.some((s) => s.status === 'ACTIVE')) {
      const recertFrom = addDays(expired, -CYCLE_RULES.recertificationDays);
      const marks: string[] = [];
      for (let k = 1; ; k++) {
        const mark = addMonths(decision, k * CYCLE_RULES.surveillanceMonths);
        if (mark >= today || mark >= recertFrom) break;
        marks.push(mark);
      }
      if (kind === 'overdue') marks.pop();
      for (const mark of marks) {
        const date = minDate(addDays(mark, -rnd.between(0, 20)), yesterday);
        auditDoneBatch.push({
          id: rnd.uuid(),
          scheme_id: id,
          company_id: body.id,
          kind: 'SURVEILLANCE',
          date,
          notes: rnd.chance(0.3) ? rnd.pick(AUDIT_NOTES) : null,
          created_at: w.at(date),
          updated_at: w.at(date),
        });
        auditsDone++;
      }
    }
    const seq = ++body.counters.scheme;
    const certNumber = body.seed.schemeNumber(type.code, yearOf(issue), seq);
    const scheme = {
      id,
      company_id: body.id,
      certificate_id: client.id,
      certification_id: type.id,
      accredited_id: accredited ? rnd.pick(body.accredited) : null,
      cert_number: certNumber,
      status: current.status,
      issue_date: issue,
      issue_date2: null,
      valid_for: validFor,
      valid_for_type: validForType,
      valid_date: null,
      expired_date: expired,
      surveillance_date: surveillance,
      decision_date: decision,
      is_accredited: accredited,
      description: current.desc,
      qrcode: null as string | null,
      created_at: eventTimes[0]!,
      updated_at: eventTimes[eventTimes.length - 1]!,
    };
    statuses[current.status]++;
    schemeBatch.push(scheme);
    // Every third scheme out of draft has had its QR made ('Generate QR'); the others still offer it.
    schemeQrFields.push(
      current.status !== 'DRAFT' && seq % 3 === 0
        ? schemeSignedFields({
            cert_number: certNumber,
            name: client.name,
            standard: type.name,
            issue_date: issue,
            expired_date: expired,
          })
        : null,
    );

    // The scheme as the API answers it (wire names: desc, flags as strings), at each change.
    const answer = (h: number) => ({
      ...scheme,
      qrcode: null,
      description: undefined,
      is_accredited: accredited ? 'true' : 'false',
      status: history[h]!.status,
      desc: history[h]!.desc,
      updated_at: eventTimes[h],
    });
    for (let h = 0; h < history.length; h++) {
      auditBatch.push({
        id: rnd.uuid(),
        at: eventTimes[h],
        actor_id: body.staff.id,
        actor_username: body.staff.username,
        action: h === 0 ? 'create' : 'update',
        entity: SCHEME_AUDIT_ENTITY,
        entity_id: id,
        company_id: body.id,
        before: h === 0 ? null : answer(h - 1),
        after: answer(h),
        request_id: null,
        source: DEMO_SOURCE,
      });
      auditRows++;
    }
    if (schemeBatch.length >= batchRows) await flushSchemes();
  }
  await flushSchemes();
  w.phase(
    `${volume.schemes} schemes (${qrs} with a QR), ${auditRows} audit rows and ${auditsDone} audits done`,
  );
  return { auditRows, qrs, statuses };
}

/** The training certificates, each with its signed QR: numbers rise with the date within each company. */
async function writeTrainings(w: DemoWriter, bodies: Body[]): Promise<void> {
  const { rnd, today, volume, batchRows } = w;
  const shares = bodies.map((b, i) => [i, b.seed.share] as const);
  let trainingBatch: ({
    certificate_number: string;
    name: string;
    training: string;
    date: string;
    qrcode: string | null;
  } & Record<string, unknown>)[] = [];
  const flushTrainings = async () => {
    await signQrs(w, 'training', trainingBatch, trainingSignedFields);
    await w.insertRows('training_certificates', trainingBatch);
    trainingBatch = [];
  };
  const span = 3 * 365;
  for (let i = 0; i < volume.trainings; i++) {
    const b = i < bodies.length ? i : rnd.weighted(shares);
    const body = bodies[b]!;
    const offered = TRAININGS.filter((t) => t.standard === null || body.seed.standards.includes(t.standard));
    const training = rnd.pick(offered);
    const date = addDays(
      today,
      -Math.floor(((volume.trainings - 1 - i) * span) / Math.max(1, volume.trainings)) - rnd.int(2),
    );
    const day0 = minDate(date, today);
    const stamp = w.at(w.dateBetween(day0, addDays(day0, 5) < today ? addDays(day0, 5) : today));
    const place = rnd.pick(TRAINING_VENUES);
    trainingBatch.push({
      id: rnd.uuid(),
      company_id: body.id,
      certification_id: training.standard
        ? (body.types.find((t) => t.code === training.standard)?.id ?? null)
        : null,
      certificate_number: body.seed.trainingNumber(yearOf(day0), ++body.counters.training),
      name: personName(rnd, false),
      training: training.name,
      location: place.includes('MSN') ? place.replace('MSN', body.seed.initials) : place,
      date: day0,
      description: rnd.chance(0.3) ? rnd.pick(TRAINING_NOTES) : null,
      qrcode: null as string | null,
      created_at: stamp,
      updated_at: stamp,
    });
    if (trainingBatch.length >= batchRows) await flushTrainings();
  }
  await flushTrainings();
  w.phase(`${volume.trainings} training certificates, each with its signed QR`);
}

/**
 * Fills an empty database with the demo data set inside `exec` (a transaction, so a failure leaves
 * nothing behind). Refuses (DemoRefusedError) a database that already holds data. The rows go in
 * set-wise, without the services, so what the services would add is added here: the signed QR codes
 * (as the after-write step makes them), audit rows marked `demo`, and then the register counts and
 * list versions, rebuilt once.
 */
export async function writeDemo(exec: Executor, opts: DemoOptions): Promise<DemoResult> {
  await assertEmptyForDemo(exec);
  // Trigram (GIN) indexes take new rows into a pending list first: a larger one (this transaction
  // only) makes bulk inserts several times cheaper; it is merged into the index at commit or vacuum.
  await exec.execute(sql`set local gin_pending_list_limit = '64MB'`);
  const w = demoWriter(exec, opts, await activeKey(exec));
  // Roles and user ids first: audit rows name the company's staff user.
  const roleIds = await writeRoles(w);
  const userIds = DEMO_USERS.map(() => w.rnd.uuid());
  const bodies = await writeBodies(w, userIds);
  const catalogues = await writeCatalogues(w, bodies);
  await writeUsers(w, opts, userIds, roleIds, bodies);
  w.phase(`${bodies.length} certification bodies, their accreditation bodies, standards, roles and users`);
  const clients = await writeClients(w, bodies);
  const { auditRows, statuses } = await writeSchemes(w, bodies, clients);
  await writeTrainings(w, bodies);
  // The register counts are made once from the rows above and the list versions renewed.
  await rebuildDerived(exec, w.clock);
  w.phase('register counts and list versions');

  return {
    today: w.today,
    companies: bodies.map((b) => ({ id: b.id, name: b.seed.name })),
    users: DEMO_USERS.map((u) => ({
      username: u.username,
      name: u.name,
      role: u.role,
      companies: u.bodies.map((b) => bodies[b]!.seed.name),
    })),
    rows: {
      ...catalogues,
      clients: w.volume.clients,
      schemes: w.volume.schemes,
      trainings: w.volume.trainings,
      auditRows,
      images: w.images,
    },
    statuses,
  };
}
