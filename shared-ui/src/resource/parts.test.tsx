/**
 * The resource screen's parts on their own: list state in the address, sortable columns, row
 * actions, the form modal and the delete confirmation.
 *
 * Long file: four short subjects over the one made-up list ('Akreditasi') and fake API they share.
 */
import { useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import * as yup from 'yup';
import { MESSAGES, toListResponse, V, type PermissionKey } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { AppThemeProvider, hideToast, ToastHost } from '@sertifikasi/shared-ui/core';
import DownloadIcon from '@mui/icons-material/Download';
import { TextInput } from '../form/TextInput';
import { fakeApi, type Answer, type Call } from '../test/fakeApi';
import { DeleteDialog } from './DeleteDialog';
import { RecordFormModal, useFormModal } from './RecordFormModal';
import { ResourceScreen } from './ResourceScreen';
import type { ResourceConfig } from './types';

// These tests click through whole lists (MUI tables with tooltips): on a busy 2-core machine one can
// take longer than the default 20 s. A limit on waiting, not on speed.
jest.setTimeout(60_000);

interface Akreditasi {
  id: string;
  name: string;
  code: string;
  company: { name: string } | null;
}
interface Values {
  name: string;
}

const row = (i: number): Akreditasi => ({
  id: `id-${i}`,
  name: `Badan ${String(i).padStart(3, '0')}`,
  code: `K${i}`,
  company: { name: 'PT Alpha' },
});
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => row(i + 1));

/** The list endpoint: search over name, `sort=name&order=asc|desc`, page and paginate, like the API. */
const listOf =
  (rows: Akreditasi[]) =>
  (call: Call): Answer => {
    const page = Number(call.params.get('page'));
    const per = Number(call.params.get('paginate'));
    const search = (call.params.get('search') ?? '').toLowerCase();
    let found = rows.filter((r) => r.name.toLowerCase().includes(search));
    if (call.params.get('sort') === 'name') {
      found = [...found].sort((a, b) => a.name.localeCompare(b.name));
      if (call.params.get('order') === 'desc') found.reverse();
    }
    return { body: toListResponse(found.slice((page - 1) * per, page * per), found.length, page, per) };
  };

const config: ResourceConfig<Akreditasi, Values> = {
  title: 'Akreditasi',
  entityLabel: 'Akreditasi',
  endpoint: 'accredited',
  module: 'accredited',
  searchPlaceholder: 'Cari Akreditasi',
  companyScoped: true,
  columns: [
    { header: 'Nama', sortKey: 'name', render: (r) => <strong>{r.name}</strong> },
    { header: 'Kode', render: (r) => r.code },
  ],
  detail: { href: (r) => `/accredited/${r.id}` },
  form: {
    initialValues: (r) => ({ name: r?.name ?? '' }),
    schema: () => yup.object({ name: yup.string().required(V.required('Nama')) }),
    Fields: () => <TextInput name="name" label="Nama" required />,
  },
};

const LIST = 'GET /api/accredited';
const ALL_ACTIONS: PermissionKey[] = [
  'accredited',
  'accredited:create',
  'accredited:edit',
  'accredited:delete',
];

function signIn(roles: PermissionKey[] = ALL_ACTIONS) {
  authStore.setState({
    token: 'token',
    roles,
    company_ids: 'ALL',
    companies: [
      { id: 'c-alpha', name: 'PT Alpha' },
      { id: 'c-beta', name: 'PT Beta' },
    ],
    company_id: 'ALL',
  });
}

beforeEach(() => {
  signIn();
  act(() => hideToast());
});

function Address() {
  const location = useLocation();
  return <output aria-label="Alamat">{location.pathname + location.search}</output>;
}

function DetailPage() {
  return (
    <>
      <h1>Detail Akreditasi</h1>
      <Address />
    </>
  );
}

/** The list at /accredited and a detail page behind it, in one router (so Back can be pressed). */
function renderApp(screenConfig: ResourceConfig<Akreditasi, Values> = config, at = '/accredited') {
  const router = createMemoryRouter(
    [
      {
        path: '/accredited',
        element: (
          <>
            <ResourceScreen config={screenConfig} />
            <Address />
          </>
        ),
      },
      { path: '/accredited/:id', element: <DetailPage /> },
    ],
    { initialEntries: [at] },
  );
  const user = userEvent.setup();
  render(
    <AppThemeProvider>
      <RouterProvider router={router} />
      <ToastHost />
    </AppThemeProvider>,
  );
  return { user, router };
}

const address = () => screen.getByRole('status', { name: 'Alamat' }).textContent;
const lastParams = (api: { calls: Call[] }) => Object.fromEntries(api.calls.at(-1)!.params);
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('list state in the address', () => {
  it('opens at the page, size, search and order the address names, and asks the API for them', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(300)) });
    renderApp(config, '/accredited?page=2&paginate=50&search=badan&sort=name&order=desc');
    expect(await screen.findByText('Badan 250')).toBeInTheDocument();
    expect(api.calls).toHaveLength(1);
    expect(lastParams(api)).toEqual({
      page: '2',
      paginate: '50',
      search: 'badan',
      sort: 'name',
      order: 'desc',
      company_id: 'ALL',
    });
    expect(screen.getByRole('searchbox', { name: 'Cari Akreditasi' })).toHaveValue('badan');
    expect(screen.getByRole('combobox', { name: 'Data per halaman' })).toHaveValue('50');
    expect(screen.getByRole('columnheader', { name: 'Nama' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('Menampilkan 51 - 100 dari 300 data')).toBeInTheDocument();
  });

  it('returns from a Detail page to the same page, search and order', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(90)) });
    const { user, router } = renderApp();
    await screen.findByText('Badan 001');

    await user.type(screen.getByRole('searchbox', { name: 'Cari Akreditasi' }), ' 0');
    // The search reaches the address (trimmed) 500 ms after the last key.
    await waitFor(() => expect(address()).toBe('/accredited?search=0'), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Nama' }));
    await user.click(screen.getByRole('button', { name: 'Nama' }));
    await waitFor(() => expect(address()).toBe('/accredited?search=0&sort=name&order=desc'));
    await screen.findByText('Badan 090');
    await user.click(screen.getByRole('button', { name: 'Halaman 2' }));
    await screen.findByText('Badan 070');
    expect(address()).toBe('/accredited?search=0&sort=name&order=desc&page=2');

    await user.click(
      within(screen.getByText('Badan 070').closest('tr')!).getByRole('link', { name: 'Detail' }),
    );
    expect(await screen.findByRole('heading', { name: 'Detail Akreditasi' })).toBeInTheDocument();
    const before = api.calls.length;

    await act(() => router.navigate(-1));
    expect(await screen.findByText('Badan 070')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Cari Akreditasi' })).toHaveValue('0');
    expect(screen.getByRole('button', { name: 'Halaman 2' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls.slice(before).map((c) => Object.fromEntries(c.params))).toEqual([
      { page: '2', paginate: '20', search: '0', sort: 'name', order: 'desc', company_id: 'ALL' },
    ]);
  });

  it('replaces the address as the list changes, so Back leaves the list', async () => {
    fakeApi({ [LIST]: listOf(rowsOf(60)) });
    const { user, router } = renderApp(config, '/accredited');
    await screen.findByText('Badan 001');
    await user.click(screen.getByRole('button', { name: 'Halaman 2' }));
    await screen.findByText('Badan 021');
    await user.click(screen.getByRole('button', { name: 'Halaman 3' }));
    await screen.findByText('Badan 041');
    // One history entry for the list, whatever was clicked.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('follows the address when it changes under the list (a menu link to the bare list)', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(60)) });
    const { router } = renderApp(config, '/accredited?search=badan+05&page=1');
    await screen.findByText('Badan 050');
    await act(() => router.navigate('/accredited'));
    await screen.findByText('Badan 001');
    expect(screen.getByRole('searchbox', { name: 'Cari Akreditasi' })).toHaveValue('');
    expect(lastParams(api)).toMatchObject({ page: '1', search: '' });
  });

  it('goes back to page 1 with one call when the header company changes', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(60)) });
    renderApp(config, '/accredited?page=3');
    await screen.findByText('Badan 041');
    const before = api.calls.length;
    act(() => authStore.getState().setCompany('c-beta'));
    await screen.findByText('Badan 001');
    await waitFor(() => expect(address()).toBe('/accredited'));
    expect(api.calls.slice(before).map((c) => Object.fromEntries(c.params))).toEqual([
      { page: '1', paginate: '20', search: '', company_id: 'c-beta' },
    ]);
  });
});

describe('sortable columns', () => {
  it('asks sort=<key>&order=asc, then desc, from page 1, and marks the header', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(45).reverse()) });
    const { user } = renderApp(config, '/accredited?page=2');
    await screen.findByText('Badan 025');
    expect(lastParams(api)).not.toHaveProperty('sort');
    const header = screen.getByRole('columnheader', { name: 'Nama' });
    expect(header).not.toHaveAttribute('aria-sort');
    // Only a column with a sortKey is a button.
    expect(within(screen.getByRole('columnheader', { name: 'Kode' })).queryByRole('button')).toBeNull();

    await user.click(within(header).getByRole('button', { name: 'Nama' }));
    await waitFor(() => expect(names()[0]).toBe('Badan 001'));
    expect(lastParams(api)).toMatchObject({ page: '1', sort: 'name', order: 'asc' });
    expect(header).toHaveAttribute('aria-sort', 'ascending');

    await user.click(within(header).getByRole('button', { name: 'Nama' }));
    await waitFor(() => expect(names()[0]).toBe('Badan 045'));
    expect(lastParams(api)).toMatchObject({ page: '1', sort: 'name', order: 'desc' });
    expect(header).toHaveAttribute('aria-sort', 'descending');
  });

  it('renders custom cells', async () => {
    fakeApi({ [LIST]: listOf(rowsOf(1)) });
    renderApp();
    const name = await screen.findByText('Badan 001');
    expect(name.tagName).toBe('STRONG');
  });
});

describe('row actions as a list', () => {
  it('shows built-ins in the configured order with their labels, and own actions by permission', async () => {
    const downloads: string[] = [];
    const withActions: ResourceConfig<Akreditasi, Values> = {
      ...config,
      actions: [
        { action: 'edit', label: 'Edit' },
        'detail',
        {
          key: 'download',
          label: 'Unduh',
          icon: <DownloadIcon fontSize="small" />,
          onClick: (r) => downloads.push(r.id),
          permission: 'accredited:edit',
        },
        { key: 'site', label: 'Situs', href: (r) => `/site/${r.code}`, hidden: (r) => r.id === 'id-2' },
        'delete',
      ],
    };
    fakeApi({ [LIST]: listOf(rowsOf(2)) });
    const { user } = renderApp(withActions);
    await screen.findByText('Badan 001');
    const first = screen.getByText('Badan 001').closest('tr')!;
    const cell = within(first).getAllByRole('cell').at(-1)!;
    expect([...cell.querySelectorAll('a, button')].map((el) => el.getAttribute('aria-label'))).toEqual([
      'Edit',
      'Detail',
      'Unduh',
      'Situs',
      'Hapus',
    ]);
    expect(within(cell).getByRole('link', { name: 'Situs' })).toHaveAttribute('href', '/site/K1');
    const second = screen.getByText('Badan 002').closest('tr')!;
    expect(within(second).queryByRole('link', { name: 'Situs' })).not.toBeInTheDocument();

    await user.click(within(cell).getByRole('button', { name: 'Unduh' }));
    expect(downloads).toEqual(['id-1']);
    await user.click(within(cell).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByRole('dialog', { name: 'Ubah Akreditasi' })).toBeInTheDocument();
  });

  it('leaves out what the user may not do, and the action column when nothing is left', async () => {
    signIn(['accredited', 'accredited:delete']);
    const own: ResourceConfig<Akreditasi, Values> = {
      ...config,
      actions: [
        'edit',
        { key: 'x', label: 'Unduh', onClick: () => undefined, permission: 'accredited:edit' },
        'delete',
      ],
    };
    fakeApi({ [LIST]: listOf(rowsOf(1)) });
    renderApp(own);
    const first = (await screen.findByText('Badan 001')).closest('tr')!;
    expect(within(first).queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: 'Unduh' })).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Hapus' })).toBeInTheDocument();

    act(() => signIn(['accredited']));
    expect(screen.queryByRole('columnheader', { name: 'Aksi' })).not.toBeInTheDocument();
  });
});

describe('the form modal and delete confirmation on their own', () => {
  function Standalone({ onSaved, onDeleted }: { onSaved: (r: unknown) => void; onDeleted: () => void }) {
    const modal = useFormModal<Akreditasi>();
    const [target, setTarget] = useState<Akreditasi | null>(null);
    return (
      <>
        <button onClick={() => modal.openEdit(row(7))}>Ubah Profile</button>
        <button onClick={() => setTarget(row(7))}>Hapus Data</button>
        <RecordFormModal
          modal={modal}
          form={{ ...config.form!, multipart: true }}
          endpoint="accredited"
          entityLabel="Akreditasi"
          titles={{ edit: 'Ubah Profile Akreditasi' }}
          onSaved={onSaved}
        />
        <DeleteDialog
          target={target}
          path={(r) => `accredited/${r.id}`}
          onClose={() => setTarget(null)}
          onDeleted={onDeleted}
        />
      </>
    );
  }

  it('saves multipart with _method=PUT, puts 422 errors on the fields, then closes with the toast', async () => {
    let attempt = 0;
    const api = fakeApi({
      'POST /api/accredited/id-7': () =>
        ++attempt === 1
          ? {
              status: 422,
              body: {
                code: 'validation',
                message: 'Data tidak valid',
                errors: { name: 'Nama sudah dipakai' },
              },
            }
          : { body: { ...row(7), name: 'Baru' } },
    });
    const saved: unknown[] = [];
    const user = userEvent.setup();
    render(
      <AppThemeProvider>
        <Standalone onSaved={(r) => saved.push(r)} onDeleted={() => undefined} />
        <ToastHost />
      </AppThemeProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Ubah Profile' }));
    const dialog = screen.getByRole('dialog', { name: 'Ubah Profile Akreditasi' });
    const name = within(dialog).getByRole('textbox', { name: 'Nama' });
    expect(name).toHaveValue('Badan 007');
    await user.clear(name);
    await user.type(name, 'Baru');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Nama sudah dipakai')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Data tidak valid');
    const form = api.calls[0]!.form!;
    expect(form.get('_method')).toBe('PUT');
    expect(form.get('name')).toBe('Baru');

    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.updated);
    expect(saved).toEqual([{ ...row(7), name: 'Baru' }]);
  });

  it("keeps the confirmation open with the API's refusal, and deletes on a second try", async () => {
    let attempt = 0;
    fakeApi({
      'DELETE /api/accredited/id-7': () =>
        ++attempt === 1
          ? { body: { success: false, message: MESSAGES.inUseOrder } }
          : { body: { success: true, message: 'ok' } },
    });
    const deleted = jest.fn();
    const user = userEvent.setup();
    render(
      <AppThemeProvider>
        <Standalone onSaved={() => undefined} onDeleted={deleted} />
        <ToastHost />
      </AppThemeProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Hapus Data' }));
    const dialog = screen.getByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' });
    await user.click(within(dialog).getByRole('button', { name: 'Yakin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.inUseOrder);
    expect(dialog).toBeInTheDocument();
    expect(deleted).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Yakin' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.deleted);
    expect(deleted).toHaveBeenCalledTimes(1);
  });
});
