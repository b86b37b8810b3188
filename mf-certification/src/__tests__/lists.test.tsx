import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, listOf } from '@sertifikasi/shared-ui/test';
import {
  accreditationBody,
  C1,
  C2,
  certificationType,
  client,
  show,
  signIn,
  training,
} from '../test/support';

/** Types into a field at once (a paste): many fields typed key by key are slow on a busy machine. */
async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });

async function openAdd(title: string) {
  await userEvent.click(await screen.findByRole('button', { name: /^Tambah/ }));
  return screen.findByRole('dialog', { name: title });
}

async function saveAndWait(dialog: HTMLElement, done: () => boolean) {
  await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
  await waitFor(() => expect(done()).toBe(true));
}

describe('Akreditasi', () => {
  it('lists name with logo and, for ALL, the company; searched by "Cari Akreditasi"', async () => {
    signIn();
    fakeApi({ 'GET /api/accredited': { body: listOf([accreditationBody()]) } });
    show('/accredited');
    const row = (await screen.findByText('Komite Akreditasi Nasional')).closest('tr')!;
    expect(within(row).getByText('PT Mutu Nusantara')).toBeInTheDocument();
    expect(row.querySelector('img')).toHaveAttribute('src', '/images/kan.png');
    expect(headers()).toEqual(['Nama', 'Perusahaan', 'Singkatan', 'Aksi']);
    expect(within(row).getByText('KAN')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Cari Akreditasi')).toBeInTheDocument();
  });

  it('sorts by name: ascending, then descending', async () => {
    signIn();
    const api = fakeApi({ 'GET /api/accredited': { body: listOf([accreditationBody()]) } });
    show('/accredited');
    await screen.findByText('Komite Akreditasi Nasional');
    const nameHeader = screen.getByRole('columnheader', { name: 'Nama' });
    await userEvent.click(within(nameHeader).getByRole('button', { name: 'Nama' }));
    await waitFor(() => expect(api.calls.at(-1)!.params.get('sort')).toBe('name'));
    expect(api.calls.at(-1)!.params.get('order')).toBe('asc');
    await userEvent.click(within(nameHeader).getByRole('button', { name: 'Nama' }));
    await waitFor(() => expect(api.calls.at(-1)!.params.get('order')).toBe('desc'));
    expect(screen.getByRole('columnheader', { name: 'Nama' })).toHaveAttribute('aria-sort', 'descending');
  });

  it('hides the Perusahaan column and asks for the header company', async () => {
    signIn({ companyId: C2 });
    const api = fakeApi({ 'GET /api/accredited': { body: listOf([accreditationBody()]) } });
    show('/accredited');
    await screen.findByText('Komite Akreditasi Nasional');
    expect(headers()).toEqual(['Nama', 'Singkatan', 'Aksi']);
    expect(api.callsTo('GET', '/api/accredited')[0]!.params.get('company_id')).toBe(C2);
  });

  it("asks for the logo and the company, then posts name, company and logo as 'Tambah Akreditasi'", async () => {
    signIn();
    const api = fakeApi({
      'GET /api/accredited': { body: listOf([]) },
      'POST /api/accredited': { status: 201, body: accreditationBody() },
    });
    show('/accredited');
    const dialog = await openAdd('Tambah Akreditasi');
    await fill(within(dialog).getByLabelText(/^Nama/), 'KAN');
    await fill(within(dialog).getByLabelText(/^Singkatan/), 'KAN');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Logo wajib diisi')).toBeInTheDocument();
    expect(within(dialog).getByText('Perusahaan wajib diisi')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/accredited')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('combobox', { name: /Perusahaan/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'PT Samudra Inspeksi' }));
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type=file]')!, png());
    await saveAndWait(dialog, () => api.callsTo('POST', '/api/accredited').length === 1);
    const form = api.callsTo('POST', '/api/accredited')[0]!.form!;
    expect(form.get('name')).toBe('KAN');
    expect(form.get('acronym')).toBe('KAN');
    expect(form.get('company_id')).toBe(C2);
    expect((form.get('icon_file') as File).name).toBe('logo.png');
    expect(await screen.findByText('Berhasil menambahkan data')).toBeInTheDocument();
  });

  it("edits as 'Ubah Akreditasi' without a new logo", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      'GET /api/accredited': { body: listOf([accreditationBody()]) },
      [`POST /api/accredited/${accreditationBody().id}`]: { body: accreditationBody({ name: 'KAN Baru' }) },
    });
    show('/accredited');
    await screen.findByText('Komite Akreditasi Nasional');
    await userEvent.click(screen.getByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Akreditasi' });
    const name = within(dialog).getByLabelText(/^Nama/);
    await userEvent.clear(name);
    await fill(name, 'KAN Baru');
    await saveAndWait(dialog, () => api.calls.some((c) => c.method === 'POST'));
    const form = api.calls.find((c) => c.method === 'POST')!.form!;
    expect(form.get('_method')).toBe('PUT');
    expect(form.get('name')).toBe('KAN Baru');
    expect(form.get('icon')).toBe('kan.png');
    expect(form.has('icon_file')).toBe(false);
  });

  it("'Hapus Gambar' in 'Ubah Akreditasi' saves without the logo; a new one still asks for it", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      'GET /api/accredited': { body: listOf([accreditationBody()]) },
      [`POST /api/accredited/${accreditationBody().id}`]: { body: accreditationBody({ icon: null }) },
    });
    show('/accredited');
    await screen.findByText('Komite Akreditasi Nasional');
    await userEvent.click(screen.getByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Akreditasi' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hapus Gambar' }));
    await saveAndWait(dialog, () => api.calls.some((c) => c.method === 'POST'));
    const form = api.calls.find((c) => c.method === 'POST')!.form!;
    expect(form.get('icon')).toBe('');
    expect(form.has('icon_file')).toBe(false);
    expect(screen.queryByText('Logo wajib diisi')).not.toBeInTheDocument();

    // A new record: a logo chosen and then removed again is no logo.
    const add = await openAdd('Tambah Akreditasi');
    await fill(within(add).getByLabelText(/^Nama/), 'KAN');
    await userEvent.upload(add.querySelector<HTMLInputElement>('input[type=file]')!, png());
    await userEvent.click(within(add).getByRole('button', { name: 'Hapus Gambar' }));
    await userEvent.click(within(add).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(add).findByText('Logo wajib diisi')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/accredited')).toHaveLength(0);
  });
});

describe('Sertifikat', () => {
  it("lists 'Nama' with icon, 'Perusahaan' (ALL), 'Kode', 'No. Urut'; 'Cari Sertifikat'", async () => {
    signIn();
    fakeApi({ 'GET /api/certification': { body: listOf([certificationType()]) } });
    show('/certification');
    const row = (await screen.findByText('ISO 9001:2015')).closest('tr')!;
    expect(headers()).toEqual(['Nama', 'Perusahaan', 'Kode', 'No. Urut', 'Aksi']);
    expect(within(row).getByText('QMS')).toBeInTheDocument();
    expect(within(row).getByText('1')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Cari Sertifikat')).toBeInTheDocument();
  });

  it("requires the icon on 'Tambah Sertifikat' and posts every field with the header's company", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      'GET /api/certification': { body: listOf([]) },
      'POST /api/certification': { status: 201, body: certificationType() },
    });
    show('/certification');
    expect(headers()).toEqual(['Nama', 'Kode', 'No. Urut', 'Aksi']);
    const dialog = await openAdd('Tambah Sertifikat');
    expect(within(dialog).queryByRole('combobox', { name: /Perusahaan/ })).not.toBeInTheDocument();
    await fill(within(dialog).getByLabelText(/Nama Sertifikat/), 'ISO 14001:2015');
    await fill(within(dialog).getByLabelText(/Kategori/), 'Lingkungan');
    await fill(within(dialog).getByLabelText(/^Kode/), 'EMS');
    await fill(within(dialog).getByLabelText(/No. Urut/), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Icon wajib diisi')).toBeInTheDocument();
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type=file]')!, png());
    await saveAndWait(dialog, () => api.callsTo('POST', '/api/certification').length === 1);
    const form = api.callsTo('POST', '/api/certification')[0]!.form!;
    expect(Object.fromEntries([...form.entries()].filter(([k]) => k !== 'icon_file'))).toEqual({
      company_id: C1,
      name: 'ISO 14001:2015',
      category: 'Lingkungan',
      code: 'EMS',
      position: '2',
      icon: '',
    });
    expect(form.get('icon_file')).toBeInstanceOf(File);
  });
});

describe('Sertifikasi Perusahaan', () => {
  it('lists Nama Klien with logo, Perusahaan (ALL), Nomor Sertifikat, Region with Ubah, Detail, Hapus', async () => {
    signIn();
    fakeApi({ 'GET /api/company-certificate': { body: listOf([client()]) } });
    show('/company-certificate');
    const row = (await screen.findByText('PT Baja Perkasa')).closest('tr')!;
    expect(headers()).toEqual(['Nama Klien', 'Perusahaan', 'Nomor Sertifikat', 'Region', 'Aksi']);
    expect(within(row).getByText('KL-001')).toBeInTheDocument();
    expect(within(row).getByText('Jawa Barat')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Detail' })).toHaveAttribute(
      'href',
      `/company-certificate/${client().id}`,
    );
    const actions = [...row.lastElementChild!.querySelectorAll('a, button')].map((a) =>
      a.getAttribute('aria-label'),
    );
    expect(actions).toEqual(['Ubah', 'Detail', 'Hapus']);
    expect(screen.getByPlaceholderText('Cari Sertifikasi')).toBeInTheDocument();
  });

  it("'Tambah Sertifikasi Perusahaan' has every client field with its type and posts them", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      'GET /api/company-certificate': { body: listOf([]) },
      'POST /api/company-certificate': { status: 201, body: client() },
    });
    show('/company-certificate');
    const dialog = await openAdd('Tambah Sertifikasi Perusahaan');
    const field = (label: RegExp) => within(dialog).getByLabelText(label);
    expect(field(/^Email/)).toHaveAttribute('type', 'email');
    expect(field(/^Website/)).toHaveAttribute('type', 'url');
    expect(field(/Tanggal Berdiri/)).toHaveAttribute('type', 'date');
    expect(field(/^Jumlah Karyawan$/)).toHaveAttribute('type', 'number');
    expect(field(/Jumlah Karyawan Aktif/)).toHaveAttribute('type', 'number');

    await fill(field(/Nama Klien/), 'PT Baja Perkasa');
    await fill(field(/Nomor Sertifikat/), 'KL-001');
    await fill(field(/^Region/), 'Jawa Barat');
    await fill(field(/^Email/), 'bukan-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Email harus berupa alamat email yang valid')).toBeInTheDocument();
    await userEvent.clear(field(/^Email/));
    await fill(field(/^Email/), 'qa@baja.co.id');
    await fill(field(/^Jumlah Karyawan$/), '120');
    await fill(field(/^Website/), 'https://baja.co.id');
    // Reminders go to the client's email unless turned off: on for a new client.
    const reminders = within(dialog).getByRole('switch', { name: 'Kirim pengingat ke klien' });
    expect(reminders).toBeChecked();
    await userEvent.click(reminders);
    expect(reminders).not.toBeChecked();
    await saveAndWait(dialog, () => api.callsTo('POST', '/api/company-certificate').length === 1);
    const form = api.callsTo('POST', '/api/company-certificate')[0]!.form!;
    expect(form.get('company_id')).toBe(C1);
    expect(form.get('name')).toBe('PT Baja Perkasa');
    expect(form.get('certificate_number')).toBe('KL-001');
    expect(form.get('region')).toBe('Jawa Barat');
    expect(form.get('email')).toBe('qa@baja.co.id');
    expect(form.get('website')).toBe('https://baja.co.id');
    expect(form.get('employees_number')).toBe('120');
    expect(form.get('send_reminders')).toBe('false');
    expect(form.has('logo_file')).toBe(false);
  });
});

describe('Sertifikasi Pelatihan', () => {
  it('lists person, Perusahaan (ALL), number, training and the date as DD MMMM YYYY', async () => {
    signIn();
    fakeApi({ 'GET /api/training-certificate': { body: listOf([training()]) } });
    show('/training-certificate');
    const row = (await screen.findByText('Rina Wulandari')).closest('tr')!;
    expect(headers()).toEqual([
      'Nama Personel',
      'Perusahaan',
      'Nomor Sertifikat',
      'Nama Pelatihan',
      'Tanggal Sertifikasi',
      'Aksi',
    ]);
    expect(within(row).getByText('17 Maret 2026')).toBeInTheDocument();
    // Edit, Detail, Hapus (docs/rules.md#screens: this list says 'Edit').
    const actions = [...row.lastElementChild!.querySelectorAll('a, button')].map((a) =>
      a.getAttribute('aria-label'),
    );
    expect(actions).toEqual(['Edit', 'Detail', 'Hapus']);
    expect(within(row).getByRole('link', { name: 'Detail' })).toHaveAttribute(
      'href',
      `/training-certificate/${training().id}`,
    );
    expect(screen.getByPlaceholderText('Cari Sertifikasi')).toBeInTheDocument();
  });

  it("'Tambah Sertifikasi Pelatihan' posts JSON with the chosen company", async () => {
    signIn();
    const api = fakeApi({
      'GET /api/training-certificate': { body: listOf([]) },
      'POST /api/training-certificate': { status: 201, body: training() },
    });
    show('/training-certificate');
    const dialog = await openAdd('Tambah Sertifikasi Pelatihan');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Perusahaan/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'PT Mutu Nusantara' }));
    await fill(within(dialog).getByLabelText(/Nama Personel/), 'Rina Wulandari');
    await fill(within(dialog).getByLabelText(/Nomor Sertifikat/), 'TR/2026/001');
    await fill(within(dialog).getByLabelText(/Nama Pelatihan/), 'Auditor Internal');
    await fill(within(dialog).getByLabelText(/Lokasi/), 'Bandung');
    await fill(within(dialog).getByLabelText(/Tanggal Sertifikasi/), '2026-03-17');
    await saveAndWait(dialog, () => api.callsTo('POST', '/api/training-certificate').length === 1);
    expect(api.callsTo('POST', '/api/training-certificate')[0]!.json).toEqual({
      company_id: C1,
      name: 'Rina Wulandari',
      certificate_number: 'TR/2026/001',
      training: 'Auditor Internal',
      location: 'Bandung',
      date: '2026-03-17',
      desc: null,
      certification_id: null,
    });
  });
});
