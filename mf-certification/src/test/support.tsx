/**
 * What this module's screen tests share besides the faked network (`@sertifikasi/shared-ui/test`): a
 * signed-in user, rendering, records.
 */
import { act, configure, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PERMISSION_KEYS, type PermissionKey } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { AppThemeProvider, hideToast, ToastHost } from '@sertifikasi/shared-ui';
import { screens } from '../routes';

export const C1 = '00000000-0000-4000-8000-0000000000c1';
export const C2 = '00000000-0000-4000-8000-0000000000c2';
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Signs in a user holding `roles` (every permission by default) with the header on `companyId`. */
export function signIn({
  roles = [...PERMISSION_KEYS],
  companyId = 'ALL',
}: { roles?: PermissionKey[]; companyId?: string } = {}) {
  authStore.setState({
    token: 'T'.repeat(43),
    roles,
    company_ids: 'ALL',
    companies: [
      { id: C1, name: 'PT Mutu Nusantara' },
      { id: C2, name: 'PT Samudra Inspeksi' },
    ],
    company_id: companyId,
  });
}

type ScreenPath = keyof typeof screens;

/** Renders this module's screen for `path` at the address `at` (default: the path itself). */
export function show(path: ScreenPath, at: string = path) {
  const Screen = screens[path];
  return render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path={path} element={<Screen />} />
        </Routes>
      </MemoryRouter>
      <ToastHost />
    </AppThemeProvider>,
  );
}

// Forms of twenty fields with a yup schema take their time in jsdom on a busy 2-core machine: wait
// longer for what the page shows, and give a test longer. (Nothing here measures speed.)
configure({ asyncUtilTimeout: 5000 });
jest.setTimeout(60_000);

afterEach(() => {
  act(() => hideToast());
});

const stamp = { created_at: '2026-01-05T03:00:00.000Z', updated_at: '2026-01-05T03:00:00.000Z' };
export const company = (id = C1) => ({ id, name: id === C1 ? 'PT Mutu Nusantara' : 'PT Samudra Inspeksi' });

export const accreditationBody = (over: Partial<Record<string, unknown>> = {}) => ({
  id: uuid(11),
  company_id: C1,
  company: company(C1),
  name: 'Komite Akreditasi Nasional',
  acronym: 'KAN',
  icon: 'kan.png',
  ...stamp,
  ...over,
});

export const certificationType = (over: Partial<Record<string, unknown>> = {}) => ({
  id: uuid(21),
  company_id: C1,
  company: company(C1),
  name: 'ISO 9001:2015',
  category: 'Sistem Manajemen Mutu',
  code: 'QMS',
  position: 1,
  valid_for: null,
  valid_for_type: null,
  icon: 'iso9001.png',
  student_count: 0,
  ...stamp,
  ...over,
});

export const client = (over: Partial<Record<string, unknown>> = {}) => ({
  id: uuid(31),
  company_id: C1,
  company: company(C1),
  name: 'PT Baja Perkasa',
  certificate_number: 'KL-001',
  region: 'Jawa Barat',
  logo: 'baja.png',
  name_en: null,
  address: null,
  city: null,
  province: null,
  postcode: null,
  country: 'ID',
  scope: null,
  ea_code: null,
  nace_code: null,
  president: null,
  management_representative: null,
  foundation_day: null,
  employees_number: null,
  employees_active: null,
  phone: null,
  handphone: null,
  fax: null,
  email: null,
  website: null,
  send_reminders: 'true',
  ...stamp,
  ...over,
});

export const training = (over: Partial<Record<string, unknown>> = {}) => ({
  id: uuid(41),
  company_id: C1,
  company: company(C1),
  name: 'Rina Wulandari',
  certificate_number: 'TR/2026/001',
  training: 'Auditor Internal ISO 9001',
  location: 'Bandung',
  date: '2026-03-17',
  desc: null,
  qrcode: null,
  ...stamp,
  ...over,
});

export const scheme = (over: Partial<Record<string, unknown>> = {}) => ({
  id: uuid(51),
  company_id: C1,
  certificate_id: uuid(31),
  certificate_number: 'KL-001',
  client_name: 'PT Baja Perkasa',
  certification_id: uuid(21),
  cert_name: 'ISO 9001:2015',
  accredited_id: null,
  accredited: null,
  cert_number: 'QMS/2026/001',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  issue_date: '2026-01-05',
  issue_date2: null,
  valid_for: 3,
  valid_for_type: 'YEAR',
  valid_date: null,
  expired_date: '2029-01-05',
  surveillance_date: '2027-01-05',
  decision_date: null,
  original_issue_date: null,
  surveillance_overdue: false,
  days_left: 1137,
  is_accredited: 'false',
  desc: null,
  scope: null,
  sector_codes: [],
  sites: [],
  revision: 0,
  qrcode: null,
  ...stamp,
  ...over,
});

export const clientDetail = (
  over: Partial<Record<string, unknown>> = {},
  settings: { simple_dates?: 'true' | 'false' } = {},
) => ({
  ...client(),
  company: {
    ...company(C1),
    simple_dates: settings.simple_dates ?? 'false',
    public_certificate_download: 'false',
  },
  schema: [scheme()],
  ...over,
});

/** A 1 x 1 PNG, base64, as the API answers a QR. */
export const QR_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
