import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '@sertifikasi/shared-ui/test';
import { C1, clientDetail, scheme, show, signIn, uuid } from '../test/support';

const CLIENT = clientDetail().id;
const detailPath = `/api/company-certificate/ALL/${CLIENT}`;
const open = () => show('/company-certificate/:id', `/company-certificate/${CLIENT}`);
const SITE = uuid(71);
const site = (over: Record<string, unknown> = {}) => ({
  id: SITE,
  client_id: CLIENT,
  company_id: C1,
  name: 'Pabrik Karawang',
  address: 'Jl. Industri 5',
  city: 'Karawang',
  province: 'Jawa Barat',
  postcode: '41361',
  country: 'ID',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const lookups = {
  certification: [
    { id: uuid(21), name: 'ISO 9001:2015', company_id: C1, company: { id: C1, name: 'PT Mutu Nusantara' } },
  ],
  accredited: [],
};

async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

describe('the register data on the client page', () => {
  it("shows the structured address and 'Lokasi' with a card per site; 'Tambah Lokasi' posts the site", async () => {
    signIn();
    const api = fakeApi({
      [`GET ${detailPath}`]: {
        body: clientDetail({ city: 'Bekasi', country: 'MY', name_en: 'Baja Perkasa Ltd' }),
      },
      'GET /api/client-site': { body: [site()] },
      'POST /api/client-site': { status: 201, body: site({ id: uuid(72), name: 'Gudang' }) },
    });
    open();
    const profile = await screen.findByRole('region', { name: 'Profile Klien' });
    expect(within(profile).getByText('Malaysia')).toBeInTheDocument();
    expect(within(profile).getByText('Baja Perkasa Ltd')).toBeInTheDocument();
    const sites = await screen.findByRole('region', { name: 'Lokasi' });
    expect(await within(sites).findByRole('article', { name: /Pabrik Karawang/ })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/client-site')[0]!.params.get('client_id')).toBe(CLIENT);

    await userEvent.click(within(sites).getByRole('button', { name: 'Tambah Lokasi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Lokasi' });
    await fill(within(dialog).getByLabelText(/Nama Lokasi/), 'Gudang');
    await fill(within(dialog).getByLabelText(/Kota\/Kabupaten/), 'Bekasi');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/client-site')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/client-site')[0]!.json).toMatchObject({
      client_id: CLIENT,
      name: 'Gudang',
      city: 'Bekasi',
      country: 'ID',
    });
  });

  it('a site a certificate covers is not deleted: the API’s refusal is shown', async () => {
    signIn();
    fakeApi({
      [`GET ${detailPath}`]: { body: clientDetail() },
      'GET /api/client-site': { body: [site()] },
      [`DELETE /api/client-site/${SITE}`]: {
        status: 409,
        body: {
          code: 'conflict',
          message: 'Lokasi tidak dapat dihapus karena masih tercakup dalam sertifikat',
        },
      },
    });
    open();
    const card = await screen.findByRole('article', { name: /Pabrik Karawang/ });
    await userEvent.click(within(card).getByRole('button', { name: /Hapus/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yakin' }));
    expect(
      await screen.findByText('Lokasi tidak dapat dihapus karena masih tercakup dalam sertifikat'),
    ).toBeInTheDocument();
  });

  it('the scheme form sends the original issue date, the scope, the sector codes and the covered sites', async () => {
    signIn();
    const api = fakeApi({
      [`GET ${detailPath}`]: { body: clientDetail({ schema: [] }) },
      'GET /api/client-site': { body: [site()] },
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
    await fill(within(dialog).getByLabelText(/Nomor Sertifikat/), 'QMS/2026/009');
    await fill(within(dialog).getByLabelText(/^Tanggal Terbit \*?$/), '2026-01-31');
    await fill(within(dialog).getByLabelText(/Tanggal Terbit Awal/), '2017-03-01');
    await fill(within(dialog).getByLabelText(/^Lingkup$/), 'Fabrikasi baja');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Kode Sektor IAF' }));
    await userEvent.click(await screen.findByRole('option', { name: '28 - Konstruksi' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Pabrik Karawang' }));
    await fill(within(dialog).getByLabelText('Lingkup Pabrik Karawang'), 'Pengelasan');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/company-certificate-scheme')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/company-certificate-scheme')[0]!.json).toMatchObject({
      original_issue_date: '2017-03-01',
      scope: 'Fabrikasi baja',
      sector_codes: [28],
      sites: [{ site_id: SITE, scope: 'Pengelasan' }],
    });
  }, 180_000);
});
