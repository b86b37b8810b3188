/** The resource screen: its list, search, permissions, wide tables and company scope (the world: test/barang.tsx). */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { MESSAGES, toListResponse } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { hideToast } from '@sertifikasi/shared-ui/core';
import { deferred, fakeApi, type Answer } from '../test/fakeApi';
import { emulateBoxWidths } from '../test/viewport';
import {
  addBarang,
  barang,
  barangConfig,
  bodyRows,
  columnHeaders,
  LIST,
  listOf,
  pageButtons,
  renderScreen,
  rowOf,
  rowsOf,
  scopedConfig,
  signIn,
} from '../test/barang';
import { ResourceScreen } from './ResourceScreen';

beforeEach(() => {
  signIn();
  act(() => hideToast());
});

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
