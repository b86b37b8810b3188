import type { PermissionKey } from '@sertifikasi/shared-contracts';
import { can } from '@sertifikasi/shared-auth';
import { t } from './i18n/id';

export interface MenuLink {
  label: string;
  to: string;
  permission: PermissionKey;
}
export interface MenuGroup {
  label: string;
  links: MenuLink[];
}

/** The side menu of SPEC.md section 2 (labels as corrected by DECISIONS.md section 4). */
export const MENU: MenuGroup[] = [
  {
    label: t.menu.masterData,
    links: [
      { label: 'Akses User', to: '/roles', permission: 'roles' },
      { label: 'User', to: '/user', permission: 'user' },
      { label: 'Perusahaan', to: '/company', permission: 'company' },
    ],
  },
  {
    label: t.menu.certification,
    links: [
      { label: 'Akreditasi', to: '/accredited', permission: 'accredited' },
      { label: 'Sertifikat', to: '/certification', permission: 'certification' },
      { label: 'Sertifikasi Perusahaan', to: '/company-certificate', permission: 'company-certificate' },
      { label: 'Sertifikasi Pelatihan', to: '/training-certificate', permission: 'training-certificate' },
    ],
  },
  {
    label: t.menu.reports,
    links: [
      {
        label: 'Laporan Sertifikasi Perusahaan',
        to: '/report-company-certificate',
        permission: 'report-company-certificate',
      },
      {
        label: 'Laporan Skema Sertifikasi Perusahaan',
        to: '/report-company-certificate-scheme',
        permission: 'report-company-certificate-scheme',
      },
      {
        label: 'Laporan Sertifikasi Pelatihan',
        to: '/report-training-certificate',
        permission: 'report-training-certificate',
      },
    ],
  },
];

/** The groups and links a user may see: a link needs its key, a group any allowed link. */
export function visibleMenu(roles: readonly string[]): MenuGroup[] {
  return MENU.map((g) => ({ ...g, links: g.links.filter((l) => can(roles, l.permission)) })).filter(
    (g) => g.links.length > 0,
  );
}
