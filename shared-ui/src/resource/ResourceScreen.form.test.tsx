/** The resource screen's writes: add, edit, delete, afterChange and multipart records (the world: test/barang.tsx). */
import { act, screen, waitFor, within } from '@testing-library/react';
import { MESSAGES } from '@sertifikasi/shared-contracts';
import { hideToast } from '@sertifikasi/shared-ui/core';
import { deferred, fakeApi, type Answer } from '../test/fakeApi';
import {
  addBarang,
  ALL_ACTIONS,
  barang,
  barangConfig,
  bodyRows,
  LIST,
  listOf,
  multipartConfig,
  renderScreen,
  rowOf,
  rowsOf,
  signIn,
} from '../test/barang';

beforeEach(() => {
  signIn();
  act(() => hideToast());
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
