/**
 * 'IAF CertSearch' against the faked API: the company it works on, the readiness with its links,
 * the workbook, the write-only key, the uploads and 'Riwayat Unggah'.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ALL,
  XLSX_CONTENT_TYPE,
  type IafReadiness,
  type IafSettings,
  type IafUpload,
} from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { fakeApi, renderInApp, type Route } from '@sertifikasi/shared-ui/test';
import { screens } from '../../../routes';

// MUI in jsdom is slow on a busy 2-core machine; the followed upload is asked again after 2 s
// (speed is measured in bench/, not here).
configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

beforeAll(() => import('../IafCertsearchScreen'));

const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const CLIENT = '00000000-0000-4000-8000-00000000a001';
const KEY = 'rahasia-iaf-123';

const readiness: IafReadiness = {
  company_id: C1,
  total: 3,
  ready: 2,
  incomplete: [
    {
      scheme_id: '00000000-0000-4000-8000-00000000s001',
      client_id: CLIENT,
      client_name: 'PT Klien Abadi',
      cert_number: 'QMS/2026/001',
      missing: ['city', 'accreditation_body_acronym'],
    },
  ],
};

const upload = (over: Partial<IafUpload>): IafUpload => ({
  id: '00000000-0000-4000-8000-00000000u001',
  company_id: C1,
  trigger: 'manual',
  all: false,
  state: 'done',
  created_at: '2026-11-20T03:00:00.000Z',
  finished_at: '2026-11-20T03:01:00.000Z',
  sent: 2,
  accepted: 1,
  refused: [{ cert_number: 'EMS/2026/002', reason: 'Invalid country code' }],
  error: null,
  ...over,
});

function fake(settings: IafSettings, uploads: Route = { body: { data: [upload({})] } }, extra = {}) {
  return fakeApi({
    'GET /api/iaf-certsearch': { body: readiness },
    'GET /api/iaf-certsearch/settings': { body: settings },
    'GET /api/iaf-certsearch/uploads': uploads,
    ...extra,
  });
}

const show = () => {
  const Screen = screens['/iaf-certsearch'];
  renderInApp(<Screen />);
};

beforeEach(() => {
  jest.restoreAllMocks();
  authStore.setState({
    token: 'token',
    roles: ['iaf-certsearch', 'company-certificate', 'accredited'],
    company_ids: ALL,
    companies: [
      { id: C1, name: 'PT Satu' },
      { id: C2, name: 'PT Dua' },
    ],
    company_id: C1,
  });
});

it('shows how many schemes are ready and each incomplete one with what it misses and where to fix it', async () => {
  const net = fake({ enabled: false, has_key: false });
  show();
  expect(await screen.findByText('2 dari 3 skema siap diunggah')).toBeInTheDocument();
  expect(net.callsTo('GET', '/api/iaf-certsearch')[0]!.params.get('company_id')).toBe(C1);
  const table = screen.getByRole('table', { name: 'Skema yang belum lengkap' });
  const row = within(table).getAllByRole('row')[1]!;
  expect(within(row).getByText('PT Klien Abadi')).toBeInTheDocument();
  expect(within(row).getByText('QMS/2026/001')).toBeInTheDocument();
  expect(within(row).getByText('Kota/Kabupaten')).toBeInTheDocument();
  expect(within(row).getByText('Singkatan Badan Akreditasi')).toBeInTheDocument();
  expect(within(row).getByRole('link', { name: 'Perbaiki PT Klien Abadi' })).toHaveAttribute(
    'href',
    `/company-certificate/${CLIENT}`,
  );
  expect(within(row).getByRole('link', { name: 'Ubah di Akreditasi' })).toHaveAttribute(
    'href',
    '/accredited',
  );
});

it("downloads the upload workbook of the company with 'Unduh Excel'", async () => {
  const user = userEvent.setup({ delay: null });
  const saved: string[] = [];
  URL.createObjectURL = jest.fn(() => 'blob:fake');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
  const net = fake(
    { enabled: false, has_key: false },
    { body: { data: [] } },
    {
      'GET /api/iaf-certsearch/export': () =>
        new Response(new Uint8Array(10), { headers: { 'content-type': XLSX_CONTENT_TYPE } }),
    },
  );
  show();
  await screen.findByText('2 dari 3 skema siap diunggah');
  await user.click(screen.getByRole('button', { name: 'Unduh Excel' }));
  expect(await screen.findByText('File Excel berhasil diunduh')).toBeInTheDocument();
  expect(saved).toEqual(['iaf-certsearch.xlsx']);
  expect(net.callsTo('GET', '/api/iaf-certsearch/export')[0]!.params.get('company_id')).toBe(C1);
});

it('asks for a company when the header shows every company, then works on the one chosen', async () => {
  const user = userEvent.setup({ delay: null });
  authStore.setState({ company_id: ALL });
  const net = fake({ enabled: false, has_key: false });
  show();
  expect(
    await screen.findByText('Pilih perusahaan yang datanya dilaporkan ke IAF CertSearch'),
  ).toBeInTheDocument();
  expect(net.calls).toHaveLength(0);
  await user.click(screen.getByRole('combobox', { name: 'Perusahaan' }));
  await user.click(await screen.findByRole('option', { name: 'PT Dua' }));
  await screen.findByText('2 dari 3 skema siap diunggah');
  expect(net.callsTo('GET', '/api/iaf-certsearch')[0]!.params.get('company_id')).toBe(C2);
});

it('never shows the key: says whether one is stored, and switching on without any key is refused in Indonesian', async () => {
  const user = userEvent.setup({ delay: null });
  const net = fake(
    { enabled: false, has_key: false },
    { body: { data: [] } },
    {
      'PUT /api/iaf-certsearch/settings': { body: { enabled: true, has_key: true } },
    },
  );
  show();
  expect(await screen.findByText('Belum ada Kunci API tersimpan.')).toBeInTheDocument();
  // Off and without a key: no upload can start, and the screen says why.
  expect(screen.getByRole('button', { name: 'Unggah Sekarang' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Unggah Semua' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Unggah Sekarang' })).toHaveAccessibleDescription(
    'Kunci API IAF CertSearch belum diatur',
  );

  await user.click(screen.getByRole('switch', { name: 'Unggah otomatis terjadwal' }));
  await user.click(screen.getByRole('button', { name: 'Simpan Data' }));
  await waitFor(() =>
    expect(screen.getByLabelText('Kunci API')).toHaveAccessibleDescription(
      'Kunci API IAF CertSearch belum diatur',
    ),
  );
  expect(net.callsTo('PUT', '/api/iaf-certsearch/settings')).toHaveLength(0);

  const key = screen.getByLabelText('Kunci API');
  expect(key).toHaveAttribute('type', 'password');
  await user.type(key, KEY);
  await user.click(screen.getByRole('button', { name: 'Simpan Data' }));
  expect(await screen.findByText('Berhasil merubah data')).toBeInTheDocument();
  expect(net.callsTo('PUT', '/api/iaf-certsearch/settings')[0]!.json).toEqual({
    company_id: C1,
    enabled: true,
    api_key: KEY,
  });
  expect(await screen.findByText(/Kunci API sudah tersimpan/)).toBeInTheDocument();
  expect(screen.getByLabelText('Kunci API')).toHaveValue('');
  expect(screen.getByRole('button', { name: 'Unggah Sekarang' })).toBeEnabled();
});

it("'Unggah Semua' queues an upload and 'Riwayat Unggah' follows it until it is done", async () => {
  const user = userEvent.setup({ delay: null });
  let list: IafUpload[] = [];
  let asked = 0;
  const running = upload({
    id: '00000000-0000-4000-8000-00000000u002',
    all: true,
    state: 'queued',
    sent: 0,
    accepted: 0,
    refused: [],
  });
  const net = fake(
    { enabled: true, has_key: true },
    () => {
      asked++;
      // The third ask after the upload was queued finds it done.
      if (list.length && asked >= 4) list = [{ ...running, state: 'done', sent: 2, accepted: 2 }];
      else if (list.length && asked >= 3) list = [{ ...running, state: 'running' }];
      return { body: { data: list } };
    },
    {
      'POST /api/iaf-certsearch/uploads': () => {
        list = [running];
        return { status: 202, body: running };
      },
    },
  );
  show();
  const history = await screen.findByRole('table', { name: 'Riwayat Unggah' });
  await waitFor(() => expect(screen.getByRole('button', { name: 'Unggah Semua' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Unggah Semua' }));
  expect(await screen.findByText('Unggahan dimasukkan ke antrean')).toBeInTheDocument();
  expect(net.callsTo('POST', '/api/iaf-certsearch/uploads')[0]!.json).toEqual({ company_id: C1, all: true });
  expect(await within(history).findByText('Menunggu')).toBeInTheDocument();
  expect(within(history).getByText('Manual (semua)')).toBeInTheDocument();
  // While it runs no other upload can start.
  expect(screen.getByRole('button', { name: 'Unggah Sekarang' })).toBeDisabled();
  expect(screen.getByText('Unggahan sebelumnya masih berjalan')).toBeInTheDocument();
  expect(await within(history).findByText('Berjalan')).toBeInTheDocument();
  expect(await within(history).findByText('Selesai')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Unggah Sekarang' })).toBeEnabled();
  const asks = net.callsTo('GET', '/api/iaf-certsearch/uploads').length;
  await new Promise((resolve) => setTimeout(resolve, 2500));
  // Done: no more asking.
  expect(net.callsTo('GET', '/api/iaf-certsearch/uploads')).toHaveLength(asks);
});

it("opens an upload's refused records with IAF's reason", async () => {
  const user = userEvent.setup({ delay: null });
  fake({ enabled: true, has_key: true });
  show();
  const history = await screen.findByRole('table', { name: 'Riwayat Unggah' });
  const row = (await within(history).findByText('Selesai')).closest('tr')!;
  expect(
    within(row)
      .getAllByRole('cell')
      .slice(1, 6)
      .map((c) => c.textContent),
  ).toEqual(['Manual', 'Selesai', '2', '1', '1']);
  await user.click(within(row).getByRole('button', { name: 'Lihat data ditolak' }));
  const dialog = await screen.findByRole('dialog', { name: 'Data Ditolak IAF CertSearch' });
  expect(within(dialog).getByRole('cell', { name: 'EMS/2026/002' })).toBeInTheDocument();
  expect(within(dialog).getByRole('cell', { name: 'Invalid country code' })).toBeInTheDocument();
});
