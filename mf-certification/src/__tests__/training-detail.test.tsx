import { render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AppThemeProvider } from '@sertifikasi/shared-ui';
import { screens } from '../routes';
import userEvent from '@testing-library/user-event';
import { catchDownloads, fakeApi } from '@sertifikasi/shared-ui/test';
import { C1, QR_PNG, show, signIn, training, uuid } from '../test/support';

const ID = training().id;
const detailPath = (company = 'ALL') => `/api/training-certificate/${company}/${ID}`;
const open = () => show('/training-certificate/:id', `/training-certificate/${ID}`);

function valueOf(container: HTMLElement, label: string): string | null {
  const term = within(container).getAllByText(label, { selector: 'dt' })[0]!;
  return term.nextElementSibling?.textContent ?? null;
}

describe('training certificate detail', () => {
  it("'Profil Personel' shows every field, the QR and 'Download QR' saving qrcode-<number>.png", async () => {
    signIn();
    fakeApi({ [`GET ${detailPath()}`]: { body: training({ qrcode: QR_PNG, desc: 'Lulus dengan baik' }) } });
    const downloads = catchDownloads();
    try {
      open();
      const profile = await screen.findByRole('region', { name: 'Profil Personel' });
      expect(valueOf(profile, 'Nama Personel')).toBe('Rina Wulandari');
      expect(valueOf(profile, 'Nomor Sertifikat')).toBe('TR/2026/001');
      expect(valueOf(profile, 'Nama Pelatihan')).toBe('Auditor Internal ISO 9001');
      expect(valueOf(profile, 'Tanggal Sertifikasi')).toBe('17 Maret 2026');
      expect(valueOf(profile, 'Lokasi')).toBe('Bandung');
      expect(valueOf(profile, 'Deskripsi')).toBe('Lulus dengan baik');
      const qr = within(profile).getByRole('img', { name: 'QR Code TR/2026/001' });
      expect(qr).toHaveStyle({ width: '150px' });
      await userEvent.click(within(profile).getByRole('button', { name: 'Download QR' }));
      expect(downloads.saved.map((f) => f.name)).toEqual(['qrcode-TR_2026_001.png']);
    } finally {
      downloads.restore();
    }
  });

  it("shows '-' for an empty description", async () => {
    signIn();
    fakeApi({ [`GET ${detailPath()}`]: { body: training() } });
    open();
    const profile = await screen.findByRole('region', { name: 'Profil Personel' });
    expect(valueOf(profile, 'Deskripsi')).toBe('-');
  });

  it("'Ubah Sertifikasi' opens 'Ubah Sertifikasi Pelatihan' and puts the changed certificate", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      [`GET ${detailPath(C1)}`]: { body: training() },
      [`PUT /api/training-certificate/${ID}`]: { body: training({ location: 'Surabaya' }) },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Ubah Sertifikasi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Sertifikasi Pelatihan' });
    const location = within(dialog).getByLabelText(/Lokasi/);
    await userEvent.clear(location);
    await userEvent.click(location);
    await userEvent.paste('Surabaya');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('PUT', `/api/training-certificate/${ID}`)).toHaveLength(1));
    expect(api.callsTo('PUT', `/api/training-certificate/${ID}`)[0]!.json).toEqual({
      company_id: C1,
      name: 'Rina Wulandari',
      certificate_number: 'TR/2026/001',
      training: 'Auditor Internal ISO 9001',
      location: 'Surabaya',
      date: '2026-03-17',
      desc: null,
      certification_id: null,
    });
    expect(await screen.findByText('Berhasil merubah data')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', detailPath(C1))).toHaveLength(2));
  });

  it("keeps the certificate's type on edit, chosen from the company's types", async () => {
    signIn();
    const api = fakeApi({
      [`GET ${detailPath()}`]: { body: training({ certification_id: uuid(21) }) },
      [`GET /api/select/certification/${C1}`]: {
        body: {
          certification: [
            {
              id: uuid(21),
              name: 'ISO 9001:2015',
              company_id: C1,
              company: { id: C1, name: 'PT Mutu Nusantara' },
            },
          ],
          accredited: [],
        },
      },
      [`PUT /api/training-certificate/${ID}`]: { body: training() },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Ubah Sertifikasi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Sertifikasi Pelatihan' });
    const type = within(dialog).getByRole('combobox', { name: 'Sertifikat' });
    await waitFor(() => expect(type).toHaveDisplayValue('ISO 9001:2015'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('PUT', `/api/training-certificate/${ID}`)).toHaveLength(1));
    expect(api.callsTo('PUT', `/api/training-certificate/${ID}`)[0]!.json).toMatchObject({
      certification_id: uuid(21),
    });
  });

  it("hides 'Ubah Sertifikasi' without the edit permission", async () => {
    signIn({ roles: ['training-certificate'] });
    fakeApi({ [`GET ${detailPath()}`]: { body: training() } });
    open();
    await screen.findByRole('region', { name: 'Profil Personel' });
    expect(screen.queryByRole('button', { name: 'Ubah Sertifikasi' })).not.toBeInTheDocument();
  });

  it("says 'Opps, Data Tidak Ditemukan' for an unknown id", async () => {
    signIn();
    fakeApi({});
    open();
    expect(await screen.findByText('Opps, Data Tidak Ditemukan')).toBeInTheDocument();
  });
});

describe("'Kembali'", () => {
  function Where() {
    const location = useLocation();
    return <p>{`list at ${location.pathname}${location.search}`}</p>;
  }
  const Detail = screens['/training-certificate/:id'];
  const renderAt = (entries: string[]) =>
    render(
      <AppThemeProvider>
        <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
          <Routes>
            <Route path="/training-certificate" element={<Where />} />
            <Route path="/training-certificate/:id" element={<Detail />} />
          </Routes>
        </MemoryRouter>
      </AppThemeProvider>,
    );

  it('goes back to the list as it was (page and search are in the address)', async () => {
    signIn();
    fakeApi({ [`GET ${detailPath()}`]: { body: training() } });
    renderAt(['/training-certificate?page=3&search=rina', `/training-certificate/${ID}`]);
    await screen.findByRole('region', { name: 'Profil Personel' });
    await userEvent.click(screen.getByRole('button', { name: 'Kembali' }));
    expect(await screen.findByText('list at /training-certificate?page=3&search=rina')).toBeInTheDocument();
  });

  it('opened directly, goes to the list', async () => {
    signIn();
    fakeApi({ [`GET ${detailPath()}`]: { body: training() } });
    renderAt([`/training-certificate/${ID}`]);
    await userEvent.click(await screen.findByRole('button', { name: 'Kembali' }));
    expect(await screen.findByText('list at /training-certificate')).toBeInTheDocument();
  });
});
