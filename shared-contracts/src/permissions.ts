/**
 * Permission catalogue (docs/rules.md#permissions): the twelve module keys of docs/rules.md#permissions
 * the notification keys ('Log Notifikasi', 'Webhook'), the audit planning keys ('Auditor',
 * 'Rencana Audit') and 'IAF CertSearch', plus
 * `<module>:create|edit|delete` for every module whose screen has those buttons. A permission's
 * `name` IS its key.
 */
export const MODULE_KEYS = [
  'statistik',
  'roles',
  'user',
  'company',
  'accredited',
  'certification',
  'company-certificate',
  'training-certificate',
  'report-company-certificate',
  'report-company-training',
  'report-company-certificate-scheme',
  'report-training-certificate',
  'audit-schedule',
  'notification-log',
  'webhook',
  'auditor',
  'audit-plan',
  'iaf-certsearch',
] as const;
export type ModuleKey = (typeof MODULE_KEYS)[number];

/** Modules whose screens have Tambah / Ubah / Hapus actions. */
export const ACTION_MODULES = [
  'roles',
  'user',
  'company',
  'accredited',
  'certification',
  'company-certificate',
  'training-certificate',
] as const satisfies readonly ModuleKey[];
export type ActionModule = (typeof ACTION_MODULES)[number];

export const ACTIONS = ['create', 'edit', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

export type PermissionKey = ModuleKey | `${ActionModule}:${Action}`;

export const PERMISSION_KEYS: readonly PermissionKey[] = [
  ...MODULE_KEYS,
  ...ACTION_MODULES.flatMap((m) => ACTIONS.map((a) => `${m}:${a}` as const)),
];

export function isPermissionKey(value: string): value is PermissionKey {
  return (PERMISSION_KEYS as readonly string[]).includes(value);
}

/** The key for an action on a module, e.g. `can('user', 'edit')` -> 'user:edit'. */
export function actionKey(module: ActionModule, action: Action): PermissionKey {
  return `${module}:${action}`;
}

/** Default role keys of a signed-in user without a role (docs/rules.md#entities). */
export const DEFAULT_ROLE_KEYS: readonly PermissionKey[] = ['statistik'];

/** Indonesian labels for the role form's permission grid (module x Lihat/Tambah/Ubah/Hapus). */
export const MODULE_LABELS: Record<ModuleKey, string> = {
  statistik: 'Statistik',
  roles: 'Akses User',
  user: 'User',
  company: 'Perusahaan',
  accredited: 'Akreditasi',
  certification: 'Sertifikat',
  'company-certificate': 'Sertifikasi Perusahaan',
  'training-certificate': 'Sertifikasi Pelatihan',
  'report-company-certificate': 'Laporan Sertifikasi Perusahaan',
  'report-company-training': 'Laporan (grup)',
  'report-company-certificate-scheme': 'Laporan Skema Sertifikasi Perusahaan',
  'report-training-certificate': 'Laporan Sertifikasi Pelatihan',
  'audit-schedule': 'Jadwal Audit',
  'notification-log': 'Log Notifikasi',
  webhook: 'Webhook',
  auditor: 'Auditor',
  'audit-plan': 'Rencana Audit',
  'iaf-certsearch': 'IAF CertSearch',
};

export const ACTION_LABELS: Record<Action | 'view', string> = {
  view: 'Lihat',
  create: 'Tambah',
  edit: 'Ubah',
  delete: 'Hapus',
};

/** Label shown for a permission key, e.g. 'User - Ubah'. */
export function permissionLabel(key: PermissionKey): string {
  const [module, action] = key.split(':') as [ModuleKey, Action | undefined];
  return `${MODULE_LABELS[module]} - ${ACTION_LABELS[action ?? 'view']}`;
}
