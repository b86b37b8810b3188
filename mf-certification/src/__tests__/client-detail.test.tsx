import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PermissionKey } from '@sertifikasi/shared-contracts';
import { catchDownloads, fakeApi } from '@sertifikasi/shared-ui/test';
import { C1, clientDetail, QR_PNG, scheme, show, signIn, uuid } from '../test/support';

const CLIENT = clientDetail().id;
const detailPath = (company = 'ALL') => `/api/company-certificate/${company}/${CLIENT}`;
const open = () => show('/company-certificate/:id', `/company-certificate/${CLIENT}`);
const lookups = {
  certification: [
    { id: uuid(21), name: 'ISO 9001:2015', company_id: C1, company: { id: C1, name: 'PT Mutu Nusantara' } },
  ],
  accredited: [{ id: uuid(11), name: 'KAN', company_id: C1, company: { id: C1, name: 'PT Mutu Nusantara' } }],
};

async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

/** The card of the scheme with this certificate number. */
const card = (number: string) =>
  screen.getByRole('article', { name: new RegExp(number.replace(/\//g, '\\/')) });
/** The value shown under a label inside `within`. */
function valueOf(container: HTMLElement, label: string): string | null {
  const term = within(container).getAllByText(label, { selector: 'dt' })[0]!;
  return term.nextElementSibling?.textContent ?? null;
}

describe('client detail', () => {
  it("shows the logo, name and company; 'Profile Klien' with '-' for empty fields", async () => {
    signIn();
    fakeApi({
      [`GET ${detailPath()}`]: {
        body: clientDetail({ email: 'qa@baja.co.id', employees_number: 1200, foundation_day: '1998-07-01' }),
      },
    });
    open();
    expect(await screen.findByRole('heading', { name: 'PT Baja Perkasa' })).toBeInTheDocument();
    expect(screen.getByText('PT Mutu Nusantara')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Logo PT Baja Perkasa' })).toHaveAttribute(
      'src',
      '/images/baja.png',
    );
    const profile = screen.getByRole('region', { name: 'Profile Klien' });
    expect(valueOf(profile, 'Nomor Sertifikat')).toBe('KL-001');
    expect(valueOf(profile, 'Email')).toBe('qa@baja.co.id');
    expect(valueOf(profile, 'Jumlah Karyawan')).toBe('1.200');
    expect(valueOf(profile, 'Tanggal Berdiri')).toBe('01 Juli 1998');
    expect(valueOf(profile, 'Kirim pengingat ke klien')).toBe('Ya');
    for (const empty of ['Alamat', 'Ruang Lingkup', 'Kode EA', 'Pimpinan', 'Telepon', 'Fax', 'Website']) {
      expect(valueOf(profile, empty)).toBe('-');
    }
  });

  it("shows a card per scheme: status badge, numbers, dates, 'Hari Kadaluarsa', overdue surveillance", async () => {
    signIn();
    fakeApi({
      [`GET ${detailPath()}`]: {
        body: clientDetail({
          schema: [
            scheme({ surveillance_overdue: true, surveillance_date: '2026-02-01', days_left: 30 }),
            scheme({
              id: uuid(52),
              cert_number: 'QMS/2020/007',
              effective_status: 'EXPIRED',
              days_left: null,
              expired_date: '2023-01-05',
              is_accredited: 'true',
              accredited: 'KAN',
            }),
            scheme({
              id: uuid(53),
              cert_number: 'QMS/2025/003',
              status: 'SUSPENDED',
              effective_status: 'SUSPENDED',
              days_left: null,
            }),
          ],
        }),
      },
    });
    open();
    const schemes = await screen.findByRole('region', { name: 'Skema Sertifikasi' });
    expect(within(schemes).getAllByRole('article')).toHaveLength(3);

    const active = card('QMS/2026/001');
    expect(within(active).getByText('ACTIVE')).toBeInTheDocument();
    expect(within(active).getByText('Surveilan terlambat')).toBeInTheDocument();
    expect(valueOf(active, 'Hari Kadaluarsa')).toBe('30 hari');
    expect(valueOf(active, 'Tanggal Terbit')).toBe('05 Januari 2026');
    expect(valueOf(active, 'Tanggal Kadaluarsa')).toBe('05 Januari 2029');
    expect(valueOf(active, 'Masa Berlaku')).toBe('3 TAHUN');
    expect(valueOf(active, 'Akreditasi')).toBe('-');

    const expired = card('QMS/2020/007');
    expect(within(expired).getAllByText('KADALUARSA')).toHaveLength(2); // the badge and Hari Kadaluarsa
    expect(valueOf(expired, 'Hari Kadaluarsa')).toBe('KADALUARSA');
    expect(valueOf(expired, 'Akreditasi')).toBe('KAN');

    const suspended = card('QMS/2025/003');
    expect(within(suspended).getByText('SUSPENDED')).toBeInTheDocument();
    expect(valueOf(suspended, 'Hari Kadaluarsa')).toBe('-');
    expect(within(suspended).queryByText('Surveilan terlambat')).not.toBeInTheDocument();
  });

  it("asks the header's company's record and says 'Opps, Data Tidak Ditemukan' when the API does not know it", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({});
    open();
    expect(await screen.findByText('Opps, Data Tidak Ditemukan')).toBeInTheDocument();
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${detailPath(C1)}`]);
    expect(screen.queryByRole('region', { name: 'Profile Klien' })).not.toBeInTheDocument();
  });

  it("'Tambah Skema Sertifikasi': YA reveals the accreditation, and the scheme is posted as JSON", async () => {
    signIn();
    const api = fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail({ schema: [] }) },
      [`GET /api/select/certification/${C1}`]: { body: lookups },
      'POST /api/company-certificate-scheme': { status: 201, body: scheme() },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Tambah Skema Sertifikasi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Skema Sertifikasi' });
    await within(dialog).findByRole('option', { name: 'ISO 9001:2015' });
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: /^Sertifikat/ }),
      'ISO 9001:2015',
    );
    await fill(within(dialog).getByLabelText(/Nomor Sertifikat/), 'QMS/2026/001');
    await fill(within(dialog).getByLabelText(/^Tanggal Terbit \*?$/), '2026-01-31');
    expect(within(dialog).getByLabelText(/Tanggal Surveilan/)).toBeInTheDocument();
    // 3 TAHUN by default; a month after 31 January is the last day of February.
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: /Satuan Masa Berlaku/ }),
      'BULAN',
    );
    const validFor = within(dialog).getByLabelText(/^Masa Berlaku/);
    await userEvent.clear(validFor);
    await fill(validFor, '1');
    expect(within(dialog).getByText('Berlaku sampai 28 Februari 2026')).toBeInTheDocument();

    expect(within(dialog).queryByRole('combobox', { name: /^Akreditasi/ })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /Terakreditasi/ }), 'YA');
    const accreditation = within(dialog).getByRole('combobox', { name: /^Akreditasi/ });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Akreditasi wajib diisi')).toBeInTheDocument();
    await userEvent.selectOptions(accreditation, 'KAN');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/company-certificate-scheme')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/company-certificate-scheme')[0]!.json).toEqual({
      certificate_id: CLIENT,
      company_id: C1,
      certification_id: uuid(21),
      cert_number: 'QMS/2026/001',
      status: 'ACTIVE',
      issue_date: '2026-01-31',
      issue_date2: null,
      valid_for: 1,
      valid_for_type: 'MONTH',
      valid_date: null,
      surveillance_date: null,
      decision_date: null,
      is_accredited: 'true',
      accredited_id: uuid(11),
      desc: null,
      original_issue_date: null,
      scope: null,
      sector_codes: [],
      sites: [],
    });
    expect(await screen.findByText('Berhasil menambahkan data')).toBeInTheDocument();
    // The client is read again, with its new scheme.
    await waitFor(() => expect(api.callsTo('GET', detailPath())).toHaveLength(2));
  });

  it('a company with simple dates is asked no surveillance date and shows none', async () => {
    signIn();
    fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail({}, { simple_dates: 'true' }) },
      [`GET /api/select/certification/${C1}`]: { body: lookups },
    });
    open();
    const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
    expect(within(active).queryByText('Tanggal Surveilan')).not.toBeInTheDocument();
    await userEvent.click(within(active).getByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Skema Sertifikasi' });
    expect(within(dialog).getByLabelText(/Nomor Sertifikat/)).toHaveValue('QMS/2026/001');
    expect(within(dialog).queryByLabelText(/Tanggal Surveilan/)).not.toBeInTheDocument();
  });

  it("'Generate QR Code' makes the QR; then the 150 px image and 'Download QR' save qrcode-<number>.png", async () => {
    signIn();
    let generated = false;
    const api = fakeApi({
      [`GET ${detailPath()}`]: () => ({
        body: clientDetail({ schema: [scheme({ qrcode: generated ? QR_PNG : null })] }),
      }),
      [`GET /api/generate-qr-scheme/${uuid(51)}`]: () => {
        generated = true;
        return { body: scheme({ qrcode: QR_PNG }) };
      },
    });
    const downloads = catchDownloads();
    try {
      open();
      const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
      expect(within(active).queryByRole('button', { name: 'Download QR' })).not.toBeInTheDocument();
      await userEvent.click(within(active).getByRole('button', { name: 'Generate QR Code' }));
      expect(await screen.findByText('Berhasil membuat QR')).toBeInTheDocument();
      const image = await within(active).findByRole('img', { name: 'QR Code QMS/2026/001' });
      expect(api.callsTo('GET', `/api/generate-qr-scheme/${uuid(51)}`)).toHaveLength(1);
      expect(image).toHaveAttribute('src', `data:image/png;base64,${QR_PNG}`);
      expect(image).toHaveStyle({ width: '150px' });
      expect(within(active).queryByRole('button', { name: 'Generate QR Code' })).not.toBeInTheDocument();

      await userEvent.click(within(active).getByRole('button', { name: 'Download QR' }));
      expect(downloads.saved.map((f) => f.name)).toEqual(['qrcode-QMS_2026_001.png']);
      expect(downloads.saved[0]!.blob.type).toBe('image/png');
      const bytes = new Uint8Array(await downloads.saved[0]!.blob.arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    } finally {
      downloads.restore();
    }
  });

  it("'Download Sertifikat' saves the scheme's PDF under the name the API gives", async () => {
    signIn();
    const pdf = new TextEncoder().encode('%PDF-1.7 test');
    fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail() },
      [`GET /api/download-certificate/${uuid(51)}`]: () =>
        new Response(pdf, {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': `attachment; filename="CERT. NO. QMS_2026_001 PT Baja Perkasa.pdf"`,
          },
        }),
    });
    const downloads = catchDownloads();
    try {
      open();
      const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
      await userEvent.click(within(active).getByRole('button', { name: 'Download Sertifikat' }));
      await waitFor(() => expect(downloads.saved).toHaveLength(1));
      expect(downloads.saved[0]!.name).toBe('CERT. NO. QMS_2026_001 PT Baja Perkasa.pdf');
      expect(downloads.saved[0]!.blob.type).toBe('application/pdf');
      expect(await within(active).findByRole('button', { name: 'Download Sertifikat' })).toBeEnabled();
    } finally {
      downloads.restore();
    }
  });

  it('shows the status history of a scheme: status, date and who', async () => {
    signIn();
    fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail() },
      [`GET /api/company-certificate-scheme/${uuid(51)}/history`]: {
        body: [
          {
            from: 'SUSPENDED',
            to: 'ACTIVE',
            at: '2026-04-02T03:00:00.000Z',
            effective_from: '2026-04-02',
            by: 'siti',
          },
          {
            from: null,
            to: 'SUSPENDED',
            at: '2026-01-06T03:00:00.000Z',
            effective_from: '2026-01-05',
            by: 'admin',
          },
        ],
      },
    });
    open();
    const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
    await userEvent.click(within(active).getByRole('button', { name: 'Riwayat Status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Riwayat Status QMS/2026/001' });
    const entries = await within(dialog).findAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent('SUSPENDED');
    expect(entries[0]).toHaveTextContent('ACTIVE');
    expect(entries[0]).toHaveTextContent('02 April 2026');
    expect(entries[0]).toHaveTextContent('siti');
    expect(entries[1]).toHaveTextContent('05 Januari 2026');
    expect(entries[1]).toHaveTextContent('admin');
  });

  it("'Riwayat Audit' lists the audits done; an editor adds one there and sees it listed", async () => {
    signIn();
    const SCHEME = uuid(51);
    const audit = (over: Record<string, unknown>) => ({
      id: uuid(81),
      scheme_id: SCHEME,
      kind: 'SURVEILLANCE',
      date: '2026-01-20',
      notes: 'Tidak ada temuan mayor',
      created_at: '2026-01-20T03:00:00.000Z',
      updated_at: '2026-01-20T03:00:00.000Z',
      ...over,
    });
    let audits = [audit({})];
    const api = fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail({ schema: [scheme({ decision_date: '2026-01-02' })] }) },
      [`GET /api/company-certificate-scheme/${SCHEME}/audits`]: () => ({ body: audits }),
      [`POST /api/company-certificate-scheme/${SCHEME}/audits`]: (call) => {
        const added = audit({ id: uuid(82), ...(call.json as object) });
        audits = [added, ...audits];
        return { status: 201, body: added };
      },
    });
    open();
    const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
    expect(valueOf(active, 'Tanggal Keputusan')).toBe('02 Januari 2026');
    await userEvent.click(within(active).getByRole('button', { name: 'Riwayat Audit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Riwayat Audit QMS/2026/001' });
    const first = await within(dialog).findAllByRole('listitem');
    expect(first).toHaveLength(1);
    expect(first[0]).toHaveTextContent('Surveilan 20 Januari 2026');
    expect(first[0]).toHaveTextContent('Tidak ada temuan mayor');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Tambah Audit' }));
    const form = await screen.findByRole('dialog', { name: 'Tambah Audit' });
    await userEvent.selectOptions(within(form).getByLabelText(/Jenis Audit/), 'SPECIAL');
    await fill(within(form).getByLabelText(/Tanggal Audit/), '2026-03-03');
    await userEvent.click(within(form).getByRole('button', { name: 'Simpan Data' }));
    expect(await screen.findByText('Berhasil menambahkan data')).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/company-certificate-scheme/${SCHEME}/audits`)[0]!.json).toEqual({
      kind: 'SPECIAL',
      date: '2026-03-03',
      notes: null,
    });
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(2));
    expect(within(dialog).getAllByRole('listitem')[0]).toHaveTextContent('Khusus 03 Maret 2026');
  });

  it("'Ubah Profile' opens 'Ubah Profile Client' and saves the client as multipart", async () => {
    signIn();
    const api = fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail() },
      [`POST /api/company-certificate/${CLIENT}`]: { body: clientDetail() },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Ubah Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Profile Client' });
    await fill(within(dialog).getByLabelText(/^Telepon/), '022-555-0101');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', `/api/company-certificate/${CLIENT}`)).toHaveLength(1));
    const form = api.callsTo('POST', `/api/company-certificate/${CLIENT}`)[0]!.form!;
    expect(form.get('_method')).toBe('PUT');
    expect(form.get('phone')).toBe('022-555-0101');
    expect(form.get('name')).toBe('PT Baja Perkasa');
    expect(await screen.findByText('Berhasil merubah data')).toBeInTheDocument();
  });

  it('deletes a scheme after the confirmation', async () => {
    signIn();
    const api = fakeApi({
      [`GET ${detailPath()}`]: { body: clientDetail() },
      [`DELETE /api/company-certificate-scheme/${uuid(51)}`]: { body: { success: true, message: 'ok' } },
    });
    open();
    const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
    await userEvent.click(within(active).getByRole('button', { name: 'Hapus' }));
    const confirm = await screen.findByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yakin' }));
    expect(await screen.findByText('Berhasil menghapus data')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/api/company-certificate-scheme/${uuid(51)}`)).toHaveLength(1);
  });

  it('without the action permissions: no Ubah Profile, no Tambah, no Ubah/Hapus, no Generate QR', async () => {
    const viewOnly: PermissionKey[] = ['statistik', 'company-certificate'];
    signIn({ roles: viewOnly });
    fakeApi({ [`GET ${detailPath()}`]: { body: clientDetail() } });
    open();
    const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
    expect(screen.queryByRole('button', { name: 'Ubah Profile' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Tambah Skema Sertifikasi' })).not.toBeInTheDocument();
    expect(within(active).queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
    expect(within(active).queryByRole('button', { name: 'Hapus' })).not.toBeInTheDocument();
    expect(within(active).queryByRole('button', { name: 'Generate QR Code' })).not.toBeInTheDocument();
    // Looking stays possible.
    expect(within(active).getByRole('button', { name: 'Riwayat Status' })).toBeInTheDocument();
  });

  it('with only create permission: Tambah shows, edit and delete do not', async () => {
    signIn({ roles: ['company-certificate', 'company-certificate:create'] });
    fakeApi({ [`GET ${detailPath()}`]: { body: clientDetail() } });
    open();
    const active = await screen.findByRole('article', { name: /QMS\/2026\/001/ });
    expect(screen.getByRole('button', { name: 'Tambah Skema Sertifikasi' })).toBeInTheDocument();
    expect(within(active).queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
  });
});
