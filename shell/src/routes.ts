import type { PermissionKey } from '@sertifikasi/shared-contracts';

/** Federation names of the remotes (their folders are the same with '-' for '_'). */
export type RemoteName = 'mf_master_data' | 'mf_certification' | 'mf_reports' | 'mf_public_check';

export interface RouteDef {
  path: string;
  title: string;
  /** Needs sign-in; `permission` also needs that key. */
  auth: boolean;
  permission?: PermissionKey;
  /** The remote that renders it; absent for the shell's own pages. */
  remote?: RemoteName;
  /** Full-width layout without header, footer or padding. */
  bare?: boolean;
}

/** Every route of SPEC.md section 2, with its permission and title. */
export const ROUTES: RouteDef[] = [
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
  { path: '/statistik', title: 'Statistik', auth: true, permission: 'statistik', remote: 'mf_reports' },
  {
    path: '/company',
    title: 'Profil Perusahaan',
    auth: true,
    permission: 'company',
    remote: 'mf_master_data',
  },
  { path: '/roles', title: 'Akses User', auth: true, permission: 'roles', remote: 'mf_master_data' },
  { path: '/user', title: 'User', auth: true, permission: 'user', remote: 'mf_master_data' },
  {
    path: '/certification',
    title: 'Sertifikat',
    auth: true,
    permission: 'certification',
    remote: 'mf_certification',
  },
  {
    path: '/accredited',
    title: 'Akreditasi',
    auth: true,
    permission: 'accredited',
    remote: 'mf_certification',
  },
  {
    path: '/company-certificate',
    title: 'Sertifikasi Perusahaan',
    auth: true,
    permission: 'company-certificate',
    remote: 'mf_certification',
  },
  {
    path: '/company-certificate/:id',
    title: 'Detail Sertifikasi Perusahaan',
    auth: true,
    permission: 'company-certificate',
    remote: 'mf_certification',
  },
  {
    path: '/training-certificate',
    title: 'Sertifikasi Pelatihan',
    auth: true,
    permission: 'training-certificate',
    remote: 'mf_certification',
  },
  {
    path: '/training-certificate/:id',
    title: 'Detail Sertifikasi Pelatihan',
    auth: true,
    permission: 'training-certificate',
    remote: 'mf_certification',
  },
  {
    path: '/report-company-certificate',
    title: 'Laporan Sertifikasi Perusahaan',
    auth: true,
    permission: 'report-company-certificate',
    remote: 'mf_reports',
  },
  {
    path: '/report-company-certificate-scheme',
    title: 'Laporan Skema Sertifikasi Perusahaan',
    auth: true,
    permission: 'report-company-certificate-scheme',
    remote: 'mf_reports',
  },
  {
    path: '/report-training-certificate',
    title: 'Laporan Sertifikasi Pelatihan',
    auth: true,
    permission: 'report-training-certificate',
    remote: 'mf_reports',
  },
  { path: '/notfound', title: 'Not Found', auth: true },
];

export const LANDING = '/statistik';
