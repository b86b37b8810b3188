/**
 * The one registry of the portal's routes (docs/rules.md#screens, labels with the
 * corrected spellings) and of its micro-frontends. The shell's router and side menu, every remote's `screens`
 * and the API's list of remotes derive from here: a new screen is one entry below, and a remote that
 * misses one of its paths fails to compile (`Record<PathsOf<'mf_x'>, ComponentType>`).
 *
 * No React and no MUI here: the shell, every remote (mf-public-check included) and the API import it.
 */
import type { PermissionKey } from './permissions';
import remotesJson from './remotes.json';

/** The side menu's groups, in order, with their labels. */
export const MENU_GROUPS = [
  { key: 'master-data', label: 'Master Data' },
  { key: 'certification', label: 'Sertifikasi' },
  { key: 'reports', label: 'Laporan' },
] as const;
export type MenuGroupKey = (typeof MENU_GROUPS)[number]['key'];

export interface RouteMenu {
  /** The group the link sits in; none: a top-level link (the statistics icon link). */
  group?: MenuGroupKey;
  /** The link's text. */
  label: string;
}

export interface RouteDef {
  /** react-router path, `:param` for parameters. */
  path: string;
  /** Page title (shown in the header, and as '<title> - Sistem Sertifikasi' in the tab). */
  title: string;
  /** Needs sign-in; `permission` also needs that key. */
  auth: boolean;
  permission?: PermissionKey;
  /** Federation name of the remote that renders it; absent for the shell's own pages. */
  remote?: string;
  /** Full-width layout without header, footer or padding. */
  bare?: boolean;
  /** A link in the side menu (shown when the user holds `permission`). */
  menu?: RouteMenu;
  /** Named routes (e.g. 'company-certificate-detail'). */
  name?: string;
}

/** Every route of docs/rules.md#screens, in menu order within each group. */
export const ROUTES = [
  { path: '/login', title: 'Login', auth: false, bare: true },
  {
    path: '/check-certification-company',
    title: 'Cek Sertifikat Perusahaan',
    auth: false,
    bare: true,
    remote: 'mf_public_check',
  },
  {
    path: '/check-certification-training',
    title: 'Cek Sertifikat Pelatihan',
    auth: false,
    bare: true,
    remote: 'mf_public_check',
  },
  { path: '/profile', title: 'Pengaturan Profil', auth: true },
  {
    path: '/statistik',
    title: 'Statistik',
    auth: true,
    permission: 'statistik',
    remote: 'mf_reports',
    menu: { label: 'Statistik' },
  },
  {
    path: '/roles',
    title: 'Akses User',
    auth: true,
    permission: 'roles',
    remote: 'mf_master_data',
    menu: { group: 'master-data', label: 'Akses User' },
  },
  {
    path: '/user',
    title: 'User',
    auth: true,
    permission: 'user',
    remote: 'mf_master_data',
    menu: { group: 'master-data', label: 'User' },
  },
  {
    path: '/company',
    title: 'Profil Perusahaan',
    auth: true,
    permission: 'company',
    remote: 'mf_master_data',
    menu: { group: 'master-data', label: 'Perusahaan' },
  },
  {
    path: '/webhook',
    title: 'Webhook',
    auth: true,
    permission: 'webhook',
    remote: 'mf_master_data',
    menu: { group: 'master-data', label: 'Webhook' },
  },
  {
    path: '/notification-log',
    title: 'Log Notifikasi',
    auth: true,
    permission: 'notification-log',
    remote: 'mf_master_data',
    menu: { group: 'master-data', label: 'Log Notifikasi' },
  },
  {
    path: '/auditor',
    title: 'Auditor',
    auth: true,
    permission: 'auditor',
    remote: 'mf_master_data',
    menu: { group: 'master-data', label: 'Auditor' },
  },
  {
    path: '/accredited',
    title: 'Akreditasi',
    auth: true,
    permission: 'accredited',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Akreditasi' },
  },
  {
    path: '/certification',
    title: 'Sertifikat',
    auth: true,
    permission: 'certification',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Sertifikat' },
  },
  {
    path: '/company-certificate',
    title: 'Sertifikasi Perusahaan',
    auth: true,
    permission: 'company-certificate',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Sertifikasi Perusahaan' },
  },
  {
    path: '/company-certificate/:id',
    title: 'Detail Sertifikasi Perusahaan',
    auth: true,
    permission: 'company-certificate',
    remote: 'mf_certification',
    name: 'company-certificate-detail',
  },
  {
    path: '/training-certificate',
    title: 'Sertifikasi Pelatihan',
    auth: true,
    permission: 'training-certificate',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Sertifikasi Pelatihan' },
  },
  {
    path: '/training-certificate/:id',
    title: 'Detail Sertifikasi Pelatihan',
    auth: true,
    permission: 'training-certificate',
    remote: 'mf_certification',
    name: 'training-certificate-detail',
  },
  {
    path: '/audit-schedule',
    title: 'Jadwal Audit',
    auth: true,
    permission: 'audit-schedule',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Jadwal Audit' },
  },
  {
    path: '/planned-audit',
    title: 'Rencana Audit',
    auth: true,
    permission: 'audit-plan',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Rencana Audit' },
  },
  {
    path: '/auditor-calendar',
    title: 'Kalender Auditor',
    auth: true,
    permission: 'audit-plan',
    remote: 'mf_certification',
    menu: { group: 'certification', label: 'Kalender Auditor' },
  },
  {
    path: '/report-company-certificate',
    title: 'Laporan Sertifikasi Perusahaan',
    auth: true,
    permission: 'report-company-certificate',
    remote: 'mf_reports',
    menu: { group: 'reports', label: 'Laporan Sertifikasi Perusahaan' },
  },
  {
    path: '/report-company-certificate-scheme',
    title: 'Laporan Skema Sertifikasi Perusahaan',
    auth: true,
    permission: 'report-company-certificate-scheme',
    remote: 'mf_reports',
    menu: { group: 'reports', label: 'Laporan Skema Sertifikasi Perusahaan' },
  },
  {
    path: '/report-training-certificate',
    title: 'Laporan Sertifikasi Pelatihan',
    auth: true,
    permission: 'report-training-certificate',
    remote: 'mf_reports',
    menu: { group: 'reports', label: 'Laporan Sertifikasi Pelatihan' },
  },
  {
    path: '/iaf-certsearch',
    title: 'IAF CertSearch',
    auth: true,
    permission: 'iaf-certsearch',
    remote: 'mf_reports',
    menu: { group: 'reports', label: 'IAF CertSearch' },
  },
  { path: '/notfound', title: 'Not Found', auth: true },
] as const satisfies readonly RouteDef[];

export type AppRoute = (typeof ROUTES)[number];
export type RoutePath = AppRoute['path'];
/** Federation names of the remotes that own a route. */
export type RemoteName = Extract<AppRoute, { remote: string }>['remote'];
/** The paths a remote owns: its `screens` is `Record<PathsOf<'mf_x'>, ComponentType>`. */
export type PathsOf<R extends RemoteName> = Extract<AppRoute, { remote: R }>['path'];

/** Where signing in lands. */
export const LANDING = '/statistik' satisfies RoutePath;

export interface RemoteDef {
  /** Top-level folder, also its URL: /modules/<folder>/. */
  folder: string;
  /** Module Federation name. */
  name: RemoteName;
}

const remoteNames = new Set<string>(ROUTES.flatMap((r) => ('remote' in r ? [r.remote] : [])));
function isRemoteName(name: string): name is RemoteName {
  return remoteNames.has(name);
}

/**
 * Every micro-frontend (remotes.json, which the build script and the lint config read too): its
 * folder and federation name. A name no route uses stops the import, so the two lists cannot drift.
 */
export const REMOTES: readonly RemoteDef[] = remotesJson.map(({ folder, name }) => {
  if (!isRemoteName(name)) throw new Error(`remotes.json: ${name} owns no route in ROUTES`);
  return { folder, name };
});

/** The registry entry of a path (as declared, e.g. '/company-certificate/:id'). */
export function routeOf(path: RoutePath): AppRoute {
  return ROUTES.find((r) => r.path === path)!;
}

/** The routes a remote renders. */
export function routesOf(remote: RemoteName): AppRoute[] {
  return ROUTES.filter((r) => 'remote' in r && r.remote === remote);
}

type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * A link to a route with its parameters filled in (encoded):
 * `routeLink('/company-certificate/:id', { id })` -> '/company-certificate/3f2a...'.
 */
export function routeLink<P extends RoutePath>(path: P, params: Record<ParamsOf<P>, string>): string {
  const values = params as Record<string, string>;
  return path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
}
