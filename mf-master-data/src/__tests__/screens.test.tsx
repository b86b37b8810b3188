import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { type Answer, fakeApi, renderInApp } from '@sertifikasi/shared-ui/test';
import { screens } from '../routes';

const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const ROLE = '00000000-0000-4000-8000-0000000000aa';
const list = <T,>(data: T[]) => ({
  total: data.length,
  per_page: 20,
  data,
  current_page: 1,
  last_page: 1,
  from: 1,
  to: data.length,
});
const permissions = PERMISSION_KEYS.map((name, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name,
}));

/** user-info as the API answers it for the signed-in administrator: the companies of the store. */
function userInfoRoute() {
  const { roles, company_ids, companies } = authStore.getState();
  return {
    'GET /api/user-info': {
      user: { id: 'u-admin', name: 'Admin', username: 'admin', roles_id: null, is_active: 'true' },
      roles,
      company_ids,
      companies,
    },
  };
}

/**
 * The shared network fake with the signed-in administrator's user-info; each route answers its body
 * (201 for a create, 200 otherwise). Returns the calls made.
 */
function fakeRoutes(routes: Record<string, unknown>) {
  const table = Object.entries({ ...userInfoRoute(), ...routes }).map(([key, body]) => {
    const create = key.startsWith('POST ') && !key.startsWith('POST /api/company/');
    return [key, { status: create ? 201 : 200, body }];
  });
  return fakeApi(Object.fromEntries(table) as Record<string, Answer>).calls;
}

function show(path: '/user' | '/roles' | '/company') {
  const Screen = screens[path];
  renderInApp(<Screen />);
}

beforeEach(() => {
  authStore.setState({
    token: 'T'.repeat(43),
    roles: [...PERMISSION_KEYS],
    company_ids: 'ALL',
    companies: [
      { id: C1, name: 'PT Satu' },
      { id: C2, name: 'PT Dua' },
    ],
    company_id: 'ALL',
  });
});

describe('Users screen', () => {
  const user = {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Budi Santoso',
    username: 'budi',
    roles_id: null,
    roles: null,
    company_ids: [C1],
    is_active: 'false',
    created_at: '',
    updated_at: '',
  };

  it('lists name, username, role or "-", and the status badge', async () => {
    fakeRoutes({ 'GET /api/user': list([user]), 'GET /api/select/roles': [] });
    show('/user');
    const row = (await screen.findByText('Budi Santoso')).closest('tr')!;
    expect(within(row).getByText('budi')).toBeInTheDocument();
    expect(within(row).getByText('-')).toBeInTheDocument();
    expect(within(row).getByText('Tidak Aktif')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Cari User')).toBeInTheDocument();
  });

  it('creates a user with a role, chosen companies as a JSON string, and the status', async () => {
    const calls = fakeRoutes({
      'GET /api/user': list([]),
      'GET /api/select/roles': [{ id: ROLE, name: 'Operator' }],
      'POST /api/user': user,
    });
    show('/user');
    await userEvent.click(await screen.findByRole('button', { name: /^Tambah/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah User' });
    await userEvent.type(within(dialog).getByLabelText(/Nama User/), 'Budi Santoso');
    await userEvent.type(within(dialog).getByLabelText(/^Username/), 'budi');
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'budi@lsp.test');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'password-123');
    await within(dialog).findByRole('option', { name: 'Operator' });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /Akses User/ }), 'Operator');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Semua Perusahaan (ALL)' }));
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Perusahaan yang boleh diakses/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'PT Dua' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/user')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.json).toEqual({
      name: 'Budi Santoso',
      username: 'budi',
      email: 'budi@lsp.test',
      password: 'password-123',
      roles_id: ROLE,
      company_ids: JSON.stringify([C2]),
      is_active: 'true',
    });
    expect(await screen.findByText('Berhasil menambahkan data')).toBeInTheDocument();
  });

  it('leaves a blank password out when editing', async () => {
    const calls = fakeRoutes({
      'GET /api/user': list([{ ...user, roles_id: ROLE, roles: { id: ROLE, name: 'Operator' } }]),
      'GET /api/select/roles': [{ id: ROLE, name: 'Operator' }],
      [`PUT /api/user/${user.id}`]: user,
    });
    show('/user');
    await userEvent.click(await screen.findByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')!.json as Record<string, unknown>;
    expect(body).not.toHaveProperty('password');
    expect(body).toMatchObject({ username: 'budi', company_ids: JSON.stringify([C1]), is_active: 'false' });
  });
});

describe('Access roles screen', () => {
  it('lists names with user counts, and "Akses Penuh" selects every permission', async () => {
    const calls = fakeRoutes({
      'GET /api/roles': list([
        { id: ROLE, name: 'Operator', permission: [], user_count: 1200, created_at: '', updated_at: '' },
      ]),
      'GET /api/select/permission': permissions,
      'POST /api/roles': {
        id: ROLE,
        name: 'Penuh',
        permission: [],
        user_count: 0,
        created_at: '',
        updated_at: '',
      },
    });
    show('/roles');
    const row = (await screen.findByText('Operator')).closest('tr')!;
    expect(within(row).getByText('1.200')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Tambah/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Akses User' });
    await userEvent.type(within(dialog).getByLabelText(/Nama Akses/), 'Penuh');
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: 'User - Ubah' }));
    expect(within(dialog).getByRole('checkbox', { name: 'User - Ubah' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Akses Penuh' }));
    expect(within(dialog).getByRole('checkbox', { name: 'Statistik - Lihat' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.json as { name: string; permission: string[] };
    expect(body.name).toBe('Penuh');
    expect([...body.permission].sort()).toEqual(permissions.map((p) => p.id).sort());
  });
});

describe('Companies screen', () => {
  it('lists name with logo, phone, email, website and saves as multipart with the logo file', async () => {
    const company = {
      id: C1,
      name: 'PT Satu',
      email: null,
      phone: '021-555',
      address: null,
      website: 'https://satu.co.id',
      logo: 'logo.png',
      logo_cert: null,
      ttd_cert: null,
      simple_dates: 'false',
      public_certificate_download: 'true',
      student_count: 0,
      created_at: '',
      updated_at: '',
    };
    const calls = fakeRoutes({ 'GET /api/company': list([company]), 'POST /api/company': company });
    show('/company');
    const row = (await screen.findByText('PT Satu')).closest('tr')!;
    expect(within(row).getByText('021-555')).toBeInTheDocument();
    expect(within(row).getByText('-')).toBeInTheDocument();
    expect(within(row).getByText('https://satu.co.id')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Tambah/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Perusahaan' });
    // Indonesian throughout; the public page's English button is named only as a quote.
    expect(
      within(dialog).getByRole('switch', {
        name: 'Cek publik hanya menampilkan tanggal terbit dan tanggal kedaluwarsa',
      }),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('switch', { name: 'Cek publik menyediakan unduhan sertifikat (PDF)' }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/Issue Date|Expire Date/)).not.toBeInTheDocument();
    expect(
      within(dialog).getByText("Tombol 'Download Certificate' di halaman cek sertifikat perusahaan."),
    ).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Nama Perusahaan/), 'PT Baru');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Website wajib diisi')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Website/), 'https://baru.co.id');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type=file]')!, file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers.get('content-type')).toMatch(/multipart\/form-data/);
    const form = post.form!;
    expect(form.get('name')).toBe('PT Baru');
    expect(form.get('website')).toBe('https://baru.co.id');
    expect(form.get('logo_file')).toBeInstanceOf(Blob);
    // The header's company list (user-info) is asked for again once the company is saved.
    await screen.findByText('Berhasil menambahkan data');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/user-info')).toHaveLength(1));
  });
});
