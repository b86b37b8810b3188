import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import * as yup from 'yup';
import { MESSAGES, toListResponse, V, type PermissionKey } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { AppThemeProvider, hideToast, ToastHost } from '@sertifikasi/shared-ui/core';
import { CompanyInput } from '../form/CompanyInput';
import { ImageInput } from '../form/ImageInput';
import { TextInput } from '../form/TextInput';
import { deferred, fakeApi, type Answer, type Call } from '../test/fakeApi';
import { emulateBoxWidths } from '../test/viewport';
import { ResourceScreen } from './ResourceScreen';
import type { FormMode, ResourceConfig, ResourceFieldsProps } from './types';

// ---------------------------------------------------------------------------------------------------
// A made-up entity, described the way the modules describe theirs.

interface Barang {
  id: string;
  name: string;
  code: string;
  logo: string | null;
  company_id: string;
  company: { name: string } | null;
}

interface BarangValues {
  name: string;
  code: string;
  company_id: string;
  logo?: string;
  logo_file?: File | null;
}

const schema = (mode: FormMode) =>
  yup.object({
    name: yup.string().required(V.required('Nama')),
    // Required when adding only: the screen must pick the schema by mode.
    code: mode === 'create' ? yup.string().required(V.required('Kode')) : yup.string(),
    company_id: yup.string(),
    logo: yup.string().nullable(),
    logo_file: yup.mixed().nullable(),
  });

function BarangFields({ mode }: ResourceFieldsProps<Barang>) {
  return (
    <>
      <TextInput name="name" label="Nama" required />
      <TextInput name="code" label="Kode" required={mode === 'create'} />
      <CompanyInput />
    </>
  );
}

const barangConfig: ResourceConfig<Barang, BarangValues> = {
  title: 'Daftar Barang',
  entityLabel: 'Barang',
  endpoint: 'barang',
  module: 'accredited',
  searchPlaceholder: 'Cari Barang',
  columns: [
    { header: 'Nama', render: (b) => b.name },
    { header: 'Kode', render: (b) => b.code },
  ],
  form: {
    initialValues: (b) => ({ name: b?.name ?? '', code: b?.code ?? '', company_id: b?.company_id ?? '' }),
    schema,
    Fields: BarangFields,
  },
};

const scopedConfig: ResourceConfig<Barang, BarangValues> = { ...barangConfig, companyScoped: true };

function LogoFields(props: ResourceFieldsProps<Barang>) {
  return (
    <>
      <BarangFields {...props} />
      <ImageInput name="logo" label="Logo" />
    </>
  );
}

const multipartConfig: ResourceConfig<Barang, BarangValues> = {
  ...barangConfig,
  companyScoped: true,
  form: {
    ...barangConfig.form,
    initialValues: (b) => ({
      name: b?.name ?? '',
      code: b?.code ?? '',
      company_id: b?.company_id ?? '',
      logo: b?.logo ?? '',
      logo_file: null,
    }),
    Fields: LogoFields,
    multipart: true,
  },
};

// ---------------------------------------------------------------------------------------------------
// The world around the screen: the signed-in user and the API.

const COMPANIES = [
  { id: 'c-alpha', name: 'PT Alpha' },
  { id: 'c-beta', name: 'PT Beta' },
];
const ALL_ACTIONS: PermissionKey[] = [
  'accredited',
  'accredited:create',
  'accredited:edit',
  'accredited:delete',
];

function signIn(roles: PermissionKey[] = ALL_ACTIONS, companyId: string | null = 'ALL') {
  authStore.setState({
    token: 'token',
    roles,
    company_ids: 'ALL',
    companies: COMPANIES,
    company_id: companyId,
  });
}

const barang = (i: number): Barang => ({
  id: `id-${i}`,
  name: `Barang ${i}`,
  code: `B${i}`,
  logo: i === 1 ? 'logo-1.png' : null,
  company_id: 'c-alpha',
  company: { name: 'PT Alpha' },
});
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => barang(i + 1));

/** The list endpoint over `rows`, honouring page and paginate like the API. */
const listOf =
  (rows: Barang[]) =>
  (call: Call): Answer => {
    const page = Number(call.params.get('page'));
    const per = Number(call.params.get('paginate'));
    return { body: toListResponse(rows.slice((page - 1) * per, page * per), rows.length, page, per) };
  };

const LIST = 'GET /api/barang';

function renderScreen(config: ResourceConfig<Barang, BarangValues> = barangConfig) {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <AppThemeProvider>
        <ResourceScreen config={config} />
        <ToastHost />
      </AppThemeProvider>
    </MemoryRouter>,
  );
  return user;
}

/** The body rows of the table (the header row left out). */
const bodyRows = () => screen.getAllByRole('row').slice(1);
const rowOf = (name: string) => screen.getByText(name).closest('tr')!;
const columnHeaders = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
const pageButtons = () =>
  within(screen.getByRole('navigation', { name: 'Navigasi halaman' }))
    .getAllByRole('button', { name: /^Halaman \d+$/ })
    .map((b) => Number(b.textContent));

beforeEach(() => {
  signIn();
  act(() => hideToast());
});

// ---------------------------------------------------------------------------------------------------

/** Opens 'Tambah Barang', fills Nama and Kode and presses 'Simpan Data'; returns the dialog. */
async function addBarang(user: ReturnType<typeof userEvent.setup>, name: string, code: string) {
  await user.click(screen.getByRole('button', { name: 'Tambah Barang' }));
  const dialog = screen.getByRole('dialog', { name: 'Tambah Barang' });
  await user.type(within(dialog).getByRole('textbox', { name: 'Nama' }), name);
  await user.type(within(dialog).getByRole('textbox', { name: 'Kode' }), code);
  await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
  return dialog;
}

describe('ResourceScreen: the list', () => {
  it('asks for page 1 of 20, shows the loading box until the answer, then the rows and the summary', async () => {
    const answer = deferred<Answer>();
    const api = fakeApi({ [LIST]: () => answer.promise });
    renderScreen();

    expect(screen.getByRole('heading', { name: 'Daftar Barang' })).toBeInTheDocument();
    expect(screen.getByText('Mempersiapkan Data')).toBeInTheDocument();
    await waitFor(() => expect(api.calls).toHaveLength(1));
    const params = Object.fromEntries(api.calls[0]!.params);
    expect(params).toEqual({ page: '1', paginate: '20', search: '' });

    await act(async () => answer.resolve(listOf(rowsOf(42))(api.calls[0]!)));
    expect(await screen.findByText('Barang 1')).toBeInTheDocument();
    expect(screen.queryByText('Mempersiapkan Data')).not.toBeInTheDocument();
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByText('Menampilkan 1 - 20 dari 42 data')).toBeInTheDocument();
  });

  it("reads 'lebih dari 10.000' when a search matched more rows than the API counts", async () => {
    // The API counts a search's matches up to 10,000 (docs/rules.md#large-registers).
    fakeApi({ [LIST]: { body: toListResponse(rowsOf(20), 10_001, 1, 20, true) } });
    renderScreen();
    expect(await screen.findByText('Barang 1')).toBeInTheDocument();
    expect(screen.getByText('Menampilkan 1 - 20 dari lebih dari 10.000 data')).toBeInTheDocument();
    expect(pageButtons()).toEqual([1, 2, 3, 4, 5]);
    expect(screen.getByRole('button', { name: 'Halaman berikutnya' })).toBeInTheDocument();
  });

  it("shows 'Opps, Data Masih Kosong' for an empty list, without pagination", async () => {
    fakeApi({ [LIST]: listOf([]) });
    renderScreen();
    expect(await screen.findByText('Opps, Data Masih Kosong')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Navigasi halaman' })).not.toBeInTheDocument();
    expect(screen.queryByText(/^Menampilkan/)).not.toBeInTheDocument();
  });

  it("toasts 'Maaf, ada kesalahan pada sistem' when the list fails, and stops loading", async () => {
    fakeApi({ [LIST]: { status: 500, body: { code: 'internal', message: 'x' } } });
    renderScreen();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Peringatan');
    expect(alert).toHaveTextContent(MESSAGES.systemError);
    expect(screen.queryByText('Mempersiapkan Data')).not.toBeInTheDocument();
    expect(screen.getByText('Opps, Data Masih Kosong')).toBeInTheDocument();
  });

  it('shows the page window of ±4, previous only after page 1 and next only before the last page', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(20 * 12 + 5)) }); // 13 pages
    const user = renderScreen();
    await screen.findByText('Barang 1');

    expect(pageButtons()).toEqual([1, 2, 3, 4, 5]);
    expect(screen.getByRole('button', { name: 'Halaman 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('button', { name: 'Halaman sebelumnya' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Halaman berikutnya' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Halaman 5' }));
    await screen.findByText('Barang 81');
    expect(api.calls.at(-1)!.params.get('page')).toBe('5');
    expect(pageButtons()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(screen.getByText('Menampilkan 81 - 100 dari 245 data')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Halaman berikutnya' }));
    await screen.findByText('Barang 101');
    expect(pageButtons()).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(screen.getByRole('button', { name: 'Halaman sebelumnya' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Halaman 10' }));
    await screen.findByText('Barang 181');
    expect(pageButtons()).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);

    await user.click(screen.getByRole('button', { name: 'Halaman 13' }));
    await screen.findByText('Barang 245');
    expect(pageButtons()).toEqual([9, 10, 11, 12, 13]);
    expect(screen.queryByRole('button', { name: 'Halaman berikutnya' })).not.toBeInTheDocument();
    expect(screen.getByText('Menampilkan 241 - 245 dari 245 data')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Halaman sebelumnya' }));
    await screen.findByText('Barang 221');
    expect(api.calls.at(-1)!.params.get('page')).toBe('12');
  });

  it('asks for the chosen page size (20, 50, 100, 200) from page 1', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(130)) });
    const user = renderScreen();
    await screen.findByText('Barang 1');
    await user.click(screen.getByRole('button', { name: 'Halaman 3' }));
    await screen.findByText('Barang 41');

    const size = screen.getByRole('combobox', { name: 'Data per halaman' });
    expect(
      within(size)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['20', '50', '100', '200']);
    await user.selectOptions(size, '50');
    await screen.findByText('Barang 50');
    expect(Object.fromEntries(api.calls.at(-1)!.params)).toMatchObject({ page: '1', paginate: '50' });
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getByText('Menampilkan 1 - 50 dari 130 data')).toBeInTheDocument();
  });

  describe('search', () => {
    beforeEach(() => {
      jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    });
    afterEach(() => {
      jest.useRealTimers();
    });

    it('asks once, 500 ms after the last key, for page 1 of the search', async () => {
      const api = fakeApi({ [LIST]: listOf(rowsOf(60)) });
      const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
      render(
        <MemoryRouter>
          <ResourceScreen config={barangConfig} />
        </MemoryRouter>,
      );
      await screen.findByText('Barang 1');
      await user.click(screen.getByRole('button', { name: 'Halaman 2' }));
      await screen.findByText('Barang 21');
      const before = api.calls.length;

      const box = screen.getByRole('searchbox', { name: 'Cari Barang' });
      expect(box).toHaveAttribute('placeholder', 'Cari Barang');
      await user.type(box, 'bar');
      act(() => jest.advanceTimersByTime(499));
      expect(api.calls).toHaveLength(before);

      act(() => jest.advanceTimersByTime(1));
      await waitFor(() => expect(api.calls).toHaveLength(before + 1));
      expect(Object.fromEntries(api.calls.at(-1)!.params)).toEqual({
        page: '1',
        paginate: '20',
        search: 'bar',
      });

      // Nothing more arrives later, and a trailing space asks for nothing new.
      await user.type(box, ' ');
      act(() => jest.advanceTimersByTime(2000));
      await screen.findByText('Barang 1');
      expect(api.calls).toHaveLength(before + 1);
    });
  });
});

describe('ResourceScreen: add and edit', () => {
  it("opens 'Tambah Barang' as a dialog, shows the schema's Indonesian errors on the fields, and returns focus", async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(3)) });
    const user = renderScreen();
    await screen.findByText('Barang 1');

    const add = screen.getByRole('button', { name: 'Tambah Barang' });
    await user.click(add);
    const dialog = screen.getByRole('dialog', { name: 'Tambah Barang' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    expect(within(dialog).getByRole('textbox', { name: 'Nama' })).toHaveAttribute('name', 'name');

    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Nama wajib diisi')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Nama' })).toHaveAccessibleDescription(
      'Nama wajib diisi',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Kode' })).toHaveAccessibleDescription(
      'Kode wajib diisi',
    );
    expect(api.callsTo('POST', '/api/barang')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Tutup' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(add).toHaveFocus();
  });

  it("saves a new record as JSON, shows 'Menyimpan...' meanwhile, then closes, toasts and reloads", async () => {
    const saved = deferred<Answer>();
    const api = fakeApi({ [LIST]: listOf(rowsOf(3)), 'POST /api/barang': () => saved.promise });
    const user = renderScreen();
    await screen.findByText('Barang 1');
    const lists = api.callsTo('GET', '/api/barang').length;

    const dialog = await addBarang(user, 'Meja', 'M1');

    const saving = await within(dialog).findByRole('button', { name: 'Menyimpan...' });
    expect(saving).toBeDisabled();
    expect(api.callsTo('POST', '/api/barang')[0]!.json).toEqual({ name: 'Meja', code: 'M1', company_id: '' });

    await act(async () => saved.resolve({ status: 201, body: barang(9) }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Berhasil');
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.created);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.callsTo('GET', '/api/barang')).toHaveLength(lists + 1));

    // The form starts empty again.
    await user.click(screen.getByRole('button', { name: 'Tambah Barang' }));
    expect(screen.getByRole('textbox', { name: 'Nama' })).toHaveValue('');
  });

  it("opens 'Ubah Barang' with the row's values, validates with the edit schema and PUTs the record", async () => {
    const api = fakeApi({
      [LIST]: listOf(rowsOf(3)),
      'PUT /api/barang/*': (call) => ({ body: { ...barang(2), ...(call.json as object) } }),
    });
    const user = renderScreen();
    await screen.findByText('Barang 2');

    await user.click(within(rowOf('Barang 2')).getByRole('button', { name: 'Ubah' }));
    const dialog = screen.getByRole('dialog', { name: 'Ubah Barang' });
    const name = within(dialog).getByRole('textbox', { name: 'Nama' });
    expect(name).toHaveValue('Barang 2');
    const code = within(dialog).getByRole('textbox', { name: 'Kode' });
    await user.clear(code); // optional when editing
    await user.clear(name);
    await user.type(name, 'Barang Dua');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.updated);
    const [put] = api.callsTo('PUT', '/api/barang/id-2');
    expect(put!.json).toEqual({ name: 'Barang Dua', code: '', company_id: 'c-alpha' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("puts a 422's field errors on the fields and shows its message, keeping the dialog open", async () => {
    fakeApi({
      [LIST]: listOf(rowsOf(1)),
      'POST /api/barang': {
        status: 422,
        body: { code: 'validation', message: MESSAGES.validation, errors: { name: 'Nama sudah dipakai' } },
      },
    });
    const user = renderScreen();
    await screen.findByText('Barang 1');
    const dialog = await addBarang(user, 'Barang 1', 'B1');

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.validation);
    expect(within(dialog).getByRole('textbox', { name: 'Nama' })).toHaveAccessibleDescription(
      'Nama sudah dipakai',
    );
    expect(within(dialog).getByRole('button', { name: 'Simpan Data' })).toBeEnabled();
    expect(screen.getByRole('dialog', { name: 'Tambah Barang' })).toBeInTheDocument();
  });

  it("toasts 'Maaf, ada kesalahan pada sistem' when saving fails otherwise, and lets the user retry", async () => {
    fakeApi({
      [LIST]: listOf(rowsOf(1)),
      'POST /api/barang': { status: 500, body: { code: 'internal', message: 'x' } },
    });
    const user = renderScreen();
    await screen.findByText('Barang 1');
    const dialog = await addBarang(user, 'Meja', 'M1');

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.systemError);
    expect(within(dialog).getByRole('button', { name: 'Simpan Data' })).toBeEnabled();
    expect(within(dialog).getByRole('textbox', { name: 'Nama' })).toHaveValue('Meja');
  });
});

describe('ResourceScreen: delete', () => {
  it("asks 'Kamu yakin untuk menghapus data ini': Batalkan keeps the row, Yakin deletes, toasts and reloads", async () => {
    let rows = rowsOf(3);
    const api = fakeApi({
      [LIST]: (call) => listOf(rows)(call),
      'DELETE /api/barang/*': (call) => {
        rows = rows.filter((r) => `/api/barang/${r.id}` !== call.path);
        return { body: { success: true, message: MESSAGES.deleted } };
      },
    });
    const user = renderScreen();
    await screen.findByText('Barang 2');

    await user.click(within(rowOf('Barang 2')).getByRole('button', { name: 'Hapus' }));
    let confirm = screen.getByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' });
    await user.click(within(confirm).getByRole('button', { name: 'Batalkan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByText('Barang 2')).toBeInTheDocument();

    await user.click(within(rowOf('Barang 2')).getByRole('button', { name: 'Hapus' }));
    confirm = screen.getByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' });
    await user.click(within(confirm).getByRole('button', { name: 'Yakin' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.deleted);
    expect(api.callsTo('DELETE', '/api/barang/id-2')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Barang 2')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyRows()).toHaveLength(2);
  });

  it('keeps the confirmation open and toasts the message when the API refuses the delete', async () => {
    fakeApi({
      [LIST]: listOf(rowsOf(2)),
      'DELETE /api/barang/*': { body: { success: false, message: MESSAGES.inUseOrder } },
    });
    const user = renderScreen();
    await screen.findByText('Barang 1');
    await user.click(within(rowOf('Barang 1')).getByRole('button', { name: 'Hapus' }));
    const confirm = screen.getByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' });
    await user.click(within(confirm).getByRole('button', { name: 'Yakin' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Peringatan');
    expect(alert).toHaveTextContent(MESSAGES.inUseOrder);
    expect(confirm).toBeInTheDocument();
    expect(within(confirm).getByRole('button', { name: 'Yakin' })).toBeEnabled();
    expect(screen.getByText('Barang 1')).toBeInTheDocument();
  });

  it("toasts 'Maaf, ada kesalahan pada sistem' when the delete fails", async () => {
    fakeApi({
      [LIST]: listOf(rowsOf(1)),
      'DELETE /api/barang/*': { status: 500, body: { code: 'internal', message: 'x' } },
    });
    const user = renderScreen();
    await screen.findByText('Barang 1');
    await user.click(screen.getByRole('button', { name: 'Hapus' }));
    await user.click(screen.getByRole('button', { name: 'Yakin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.systemError);
    expect(screen.getByRole('button', { name: 'Yakin' })).toBeEnabled();
  });
});

describe('ResourceScreen: afterChange', () => {
  it('runs after a record is added or deleted, not after a refusal or a cancel', async () => {
    const afterChange = jest.fn();
    let rows = rowsOf(2);
    fakeApi({
      [LIST]: (call) => listOf(rows)(call),
      'POST /api/barang': { status: 201, body: barang(9) },
      'DELETE /api/barang/id-1': { body: { success: false, message: MESSAGES.inUseOrder } },
      'DELETE /api/barang/id-2': () => {
        rows = rows.filter((r) => r.id !== 'id-2');
        return { body: { success: true, message: MESSAGES.deleted } };
      },
    });
    const user = renderScreen({ ...barangConfig, afterChange });
    await screen.findByText('Barang 2');

    await addBarang(user, 'Meja', 'M1');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.created);
    expect(afterChange).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    act(() => hideToast());

    await user.click(within(rowOf('Barang 1')).getByRole('button', { name: 'Hapus' }));
    await user.click(screen.getByRole('button', { name: 'Batalkan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(rowOf('Barang 1')).getByRole('button', { name: 'Hapus' }));
    await user.click(screen.getByRole('button', { name: 'Yakin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.inUseOrder);
    expect(afterChange).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Batalkan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    act(() => hideToast());

    await user.click(within(rowOf('Barang 2')).getByRole('button', { name: 'Hapus' }));
    await user.click(screen.getByRole('button', { name: 'Yakin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.deleted);
    expect(afterChange).toHaveBeenCalledTimes(2);
  });
});

describe('ResourceScreen: permissions', () => {
  it('shows no Tambah button and no action column to a user who may only look', async () => {
    signIn(['accredited']);
    fakeApi({ [LIST]: listOf(rowsOf(2)) });
    renderScreen();
    await screen.findByText('Barang 1');
    expect(screen.queryByRole('button', { name: /^Tambah/ })).not.toBeInTheDocument();
    expect(columnHeaders()).toEqual(['Nama', 'Kode']);
    expect(screen.queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hapus' })).not.toBeInTheDocument();
  });

  it('gates Tambah by create, Ubah by edit and Hapus by delete; the action column shows with edit or delete', async () => {
    signIn(['accredited', 'accredited:delete']);
    fakeApi({ [LIST]: listOf(rowsOf(2)) });
    renderScreen();
    await screen.findByText('Barang 1');
    expect(columnHeaders()).toEqual(['Nama', 'Kode', 'Aksi']);
    expect(screen.queryByRole('button', { name: /^Tambah/ })).not.toBeInTheDocument();
    expect(within(rowOf('Barang 1')).queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
    expect(within(rowOf('Barang 1')).getByRole('button', { name: 'Hapus' })).toBeInTheDocument();

    act(() => signIn(['accredited', 'accredited:create', 'accredited:edit']));
    expect(screen.getByRole('button', { name: 'Tambah Barang' })).toBeInTheDocument();
    expect(within(rowOf('Barang 1')).getByRole('button', { name: 'Ubah' })).toBeInTheDocument();
    expect(within(rowOf('Barang 1')).queryByRole('button', { name: 'Hapus' })).not.toBeInTheDocument();
  });

  it('always shows a configured Detail action, as a link to the record page', async () => {
    signIn(['accredited']);
    fakeApi({ [LIST]: listOf(rowsOf(2)) });
    renderScreen({ ...barangConfig, detail: { href: (b) => `/barang/${b.id}` } });
    await screen.findByText('Barang 1');
    expect(columnHeaders()).toEqual(['Nama', 'Kode', 'Aksi']);
    expect(within(rowOf('Barang 2')).getByRole('link', { name: 'Detail' })).toHaveAttribute(
      'href',
      '/barang/id-2',
    );
  });
});

describe('ResourceScreen: a table wider than the screen', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it("scrolls in its own box, says 'Geser untuk melihat kolom lain' and keeps the actions on the right edge", async () => {
    restore = emulateBoxWidths(900, 358); // the table is wider than its box on a 390 px phone
    fakeApi({ [LIST]: listOf(rowsOf(2)) });
    renderScreen();
    await screen.findByText('Barang 1');
    expect(screen.getByText('Geser untuk melihat kolom lain')).toBeInTheDocument();

    const table = screen.getByRole('table');
    const box = table.parentElement!;
    expect(getComputedStyle(box).overflowX).toBe('auto');
    for (const cell of [
      screen.getByRole('columnheader', { name: 'Aksi' }),
      within(rowOf('Barang 1')).getByRole('button', { name: 'Hapus' }).closest('td')!,
    ]) {
      expect(getComputedStyle(cell).position).toBe('sticky');
      expect(getComputedStyle(cell).right).toBe('0px');
    }
  });

  it('shows no hint when the table fits', async () => {
    restore = emulateBoxWidths(800, 800);
    fakeApi({ [LIST]: listOf(rowsOf(2)) });
    renderScreen();
    await screen.findByText('Barang 1');
    expect(screen.queryByText('Geser untuk melihat kolom lain')).not.toBeInTheDocument();
  });

  it('shows the hint once new rows make the table wider than its box', async () => {
    let width = 300;
    const scroll = jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => width);
    const client = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(358);
    restore = () => {
      scroll.mockRestore();
      client.mockRestore();
    };
    fakeApi({ [LIST]: listOf([]) });
    const user = renderScreen();
    await screen.findByText('Opps, Data Masih Kosong');
    expect(screen.queryByText('Geser untuk melihat kolom lain')).not.toBeInTheDocument();

    width = 900;
    fakeApi({ [LIST]: listOf(rowsOf(3)), 'POST /api/barang': { status: 201, body: barang(3) } });
    await addBarang(user, 'Barang 3', 'B3');
    expect(await screen.findByText('Barang 3')).toBeInTheDocument();
    expect(await screen.findByText('Geser untuk melihat kolom lain')).toBeInTheDocument();
  });
});

describe('ResourceScreen: company scope', () => {
  it('sends company_id, shows the Perusahaan column only for ALL, and reloads from page 1 on a new company', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(45)) });
    const user = renderScreen(scopedConfig);
    await screen.findByText('Barang 1');
    expect(api.calls.at(-1)!.params.get('company_id')).toBe('ALL');
    expect(columnHeaders()).toEqual(['Nama', 'Perusahaan', 'Kode', 'Aksi']);
    expect(within(rowOf('Barang 1')).getByRole('cell', { name: 'PT Alpha' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Halaman 2' }));
    await screen.findByText('Barang 21');
    const before = api.calls.length;

    act(() => authStore.getState().setCompany('c-beta'));
    await screen.findByText('Barang 1');
    // Every call since the switch asks for page 1 of the new company (none for the old company or
    // for page 2): compared as plain objects so that a failure prints the parameters.
    const since = api.calls.slice(before).map((c) => Object.fromEntries(c.params));
    expect(since.length).toBeGreaterThan(0);
    for (const params of since) {
      expect(params).toEqual({ page: '1', paginate: '20', search: '', company_id: 'c-beta' });
    }
    expect(columnHeaders()).toEqual(['Nama', 'Kode', 'Aksi']);
  });

  it('does not send company_id for a list that is not company-owned, but still reloads on a new company', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(2)) });
    renderScreen();
    await screen.findByText('Barang 1');
    expect(api.calls.at(-1)!.params.has('company_id')).toBe(false);
    expect(columnHeaders()).toEqual(['Nama', 'Kode', 'Aksi']);
    act(() => authStore.getState().setCompany('c-beta'));
    await waitFor(() => expect(api.calls).toHaveLength(2));
  });

  it('asks for the company in the form with ALL (searchable), and sends the selected one otherwise', async () => {
    const api = fakeApi({ [LIST]: listOf(rowsOf(1)), 'POST /api/barang': { status: 201, body: barang(5) } });
    const user = renderScreen(scopedConfig);
    await screen.findByText('Barang 1');

    await user.click(screen.getByRole('button', { name: 'Tambah Barang' }));
    let dialog = screen.getByRole('dialog', { name: 'Tambah Barang' });
    const company = within(dialog).getByRole('combobox', { name: 'Perusahaan' });
    expect(company).toHaveAttribute('name', 'company_id');
    await user.type(company, 'Bet');
    await user.click(await screen.findByRole('option', { name: 'PT Beta' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Nama' }), 'Kursi');
    await user.type(within(dialog).getByRole('textbox', { name: 'Kode' }), 'K1');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await screen.findByRole('alert');
    expect(api.callsTo('POST', '/api/barang')[0]!.json).toEqual({
      name: 'Kursi',
      code: 'K1',
      company_id: 'c-beta',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    act(() => authStore.getState().setCompany('c-alpha'));
    await screen.findByText('Barang 1');
    await user.click(screen.getByRole('button', { name: 'Tambah Barang' }));
    dialog = screen.getByRole('dialog', { name: 'Tambah Barang' });
    expect(within(dialog).queryByRole('combobox', { name: 'Perusahaan' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Nama' }), 'Lemari');
    await user.type(within(dialog).getByRole('textbox', { name: 'Kode' }), 'L1');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/barang')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/barang')[1]!.json).toEqual({
      name: 'Lemari',
      code: 'L1',
      company_id: 'c-alpha',
    });
  });
});

describe('ResourceScreen: multipart records', () => {
  const file = new File(['png'], 'logo-baru.png', { type: 'image/png' });

  beforeAll(() => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
  });

  it('previews the stored image, sends the chosen file as <field>_file, and updates with POST + _method=PUT', async () => {
    signIn(ALL_ACTIONS, 'c-alpha');
    const api = fakeApi({ [LIST]: listOf(rowsOf(2)), 'POST /api/barang/*': { body: barang(1) } });
    const user = renderScreen(multipartConfig);
    await screen.findByText('Barang 1');

    await user.click(within(rowOf('Barang 1')).getByRole('button', { name: 'Ubah' }));
    const dialog = screen.getByRole('dialog', { name: 'Ubah Barang' });
    expect(within(dialog).getByRole('img', { name: 'Pratinjau Logo' })).toHaveAttribute(
      'src',
      '/images/logo-1.png',
    );
    const input = within(dialog).getByLabelText('Logo');
    expect(input).toHaveAttribute('name', 'logo_file');
    expect(input).toHaveAttribute('accept', expect.stringContaining('image/png'));
    await user.upload(input, file);
    expect(within(dialog).getByRole('img', { name: 'Pratinjau Logo' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.updated);
    const [post] = api.callsTo('POST', '/api/barang/id-1');
    const form = post!.form!;
    expect(form.get('_method')).toBe('PUT');
    expect(form.get('name')).toBe('Barang 1');
    expect(form.get('logo')).toBe('logo-1.png');
    expect(form.get('company_id')).toBe('c-alpha');
    const sent = form.get('logo_file') as File;
    expect(sent.name).toBe('logo-baru.png');
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it("adds with a POST to the endpoint; 'Hapus Gambar' sends an empty image name", async () => {
    signIn(ALL_ACTIONS, 'c-alpha');
    const api = fakeApi({ [LIST]: listOf(rowsOf(2)), 'POST /api/barang': { status: 201, body: barang(3) } });
    const user = renderScreen(multipartConfig);
    await screen.findByText('Barang 1');

    await user.click(screen.getByRole('button', { name: 'Tambah Barang' }));
    const dialog = screen.getByRole('dialog', { name: 'Tambah Barang' });
    expect(within(dialog).getByText('Belum ada gambar')).toBeInTheDocument();
    await user.upload(within(dialog).getByLabelText('Logo'), file);
    await user.click(within(dialog).getByRole('button', { name: 'Hapus Gambar' }));
    expect(within(dialog).queryByRole('img', { name: 'Pratinjau Logo' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Nama' }), 'Rak');
    await user.type(within(dialog).getByRole('textbox', { name: 'Kode' }), 'R1');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.created);
    const form = api.callsTo('POST', '/api/barang')[0]!.form!;
    expect(form.has('_method')).toBe(false);
    expect(form.get('logo')).toBe('');
    expect(form.has('logo_file')).toBe(false);
    expect(form.get('company_id')).toBe('c-alpha');
  });
});
