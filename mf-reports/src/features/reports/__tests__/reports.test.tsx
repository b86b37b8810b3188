/**
 * The three report screens (Laporan Sertifikasi Perusahaan, Skema, Pelatihan): filters, the table
 * and the export, against the faked API.
 *
 * Long file: the three screens share one faked register (companies, lookups, a row of each report)
 * and the same filter and export behaviour, tested side by side.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import {
  ALL,
  XLSX_CONTENT_TYPE,
  type CompanyCertificationReportRow,
  type ReportLookups,
  type SchemeReportRow,
  type TrainingReportRow,
} from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { screens } from '../../../routes';
import { deferred, fakeApi, listOf, type Call, renderInApp } from '@sertifikasi/shared-ui/test';
import { typeDate } from '@sertifikasi/shared-ui/test';

// findBy*/waitFor wait up to 5 s instead of 1 s: MUI in jsdom on a busy 2-core machine is slow, and
// a screen that answers later than that is still right (speed is measured in bench/, not here).
configure({ asyncUtilTimeout: 5000 });

// MUI in jsdom is slow on a busy 2-core machine (speed is measured in bench/, not here).
jest.setTimeout(60_000);

// The screens load their code lazily (routes.tsx). Load it once before the tests, so that the first
// test's waits are not spent on it: on a busy machine that alone took longer than 5 s.
beforeAll(() => import('../screens'));

const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const CERT_9001 = '00000000-0000-4000-8000-00000000ce01';
const CERT_14001 = '00000000-0000-4000-8000-00000000ce02';
const KAN = '00000000-0000-4000-8000-00000000ac01';
const CLIENT_A = '00000000-0000-4000-8000-00000000a001';

const ref = (id: string, name: string) => ({ id, name });
const lookups: ReportLookups = {
  certification: [
    { id: CERT_9001, name: 'ISO 9001:2015', company_id: C1, company: ref(C1, 'PT Satu') },
    { id: CERT_14001, name: 'ISO 14001:2015', company_id: C1, company: ref(C1, 'PT Satu') },
  ],
  accredited: [{ id: KAN, name: 'KAN', company_id: C1, company: ref(C1, 'PT Satu') }],
  company_certificate: [
    { id: CLIENT_A, name: 'PT Klien Abadi', company_id: C1, company: ref(C1, 'PT Satu') },
  ],
};

const companyRow: CompanyCertificationReportRow = {
  id: CLIENT_A,
  company_id: C1,
  company_name: 'PT Satu',
  name: 'PT Klien Abadi',
  logo: null,
  certificate_number: 'CL-001',
  ea_code: '28',
  nace_code: null,
  region: 'Jakarta',
  phone: '021-555',
  handphone: null,
  email: 'info@klien.co.id',
};

/** The register data the workbook carries (not shown on the screen). */
const registerData = {
  original_issue_date: null,
  scope: null,
  sector_codes: '',
  revision: 0,
  client_city: null,
  client_province: null,
  client_country: 'ID',
};

const schemeRows: SchemeReportRow[] = [
  {
    id: 's1',
    company_id: C1,
    company_name: 'PT Satu',
    certificate_id: CLIENT_A,
    client_name: 'PT Klien Abadi',
    client_logo: null,
    client_certificate_number: 'CL-001',
    certification_id: CERT_9001,
    cert_name: 'ISO 9001:2015',
    cert_number: 'QMS/2026/001',
    status: 'ACTIVE',
    effective_status: 'EXPIRED',
    issue_date: '2023-01-17',
    expired_date: '2026-01-16',
    is_accredited: 'true',
    accredited_id: KAN,
    accredited: 'KAN',
    ...registerData,
  },
  {
    id: 's2',
    company_id: C1,
    company_name: 'PT Satu',
    certificate_id: CLIENT_A,
    client_name: 'PT Klien Abadi',
    client_logo: null,
    client_certificate_number: 'CL-001',
    certification_id: CERT_14001,
    cert_name: 'ISO 14001:2015',
    cert_number: 'EMS/2026/002',
    status: 'SUSPENDED',
    effective_status: 'SUSPENDED',
    issue_date: '2026-02-01',
    expired_date: '2029-02-01',
    is_accredited: 'false',
    accredited_id: KAN,
    accredited: 'KAN',
    ...registerData,
  },
];

const trainingRow: TrainingReportRow = {
  id: 't1',
  company_id: C1,
  company_name: 'PT Satu',
  name: 'Budi Santoso',
  certificate_number: 'TR/2026/001',
  date: '2026-03-05',
  training: 'Auditor Internal ISO 9001',
  location: 'Bandung',
};

function show(path: keyof typeof screens) {
  const Screen = screens[path];
  renderInApp(<Screen />);
}

const params = (call: Call | undefined) => Object.fromEntries(call?.params ?? []);
const headers = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

/** Chooses options of a multi-select (an Autocomplete) by their labels. */
async function choose(user: ReturnType<typeof userEvent.setup>, label: string, ...options: string[]) {
  for (const name of options) {
    await user.click(screen.getByRole('combobox', { name: label }));
    await user.click(await screen.findByRole('option', { name }));
  }
}

/** What the page "saved": the file names of the downloads started (saveBlob clicks a link with `download`). */
function captureDownloads() {
  const saved: string[] = [];
  URL.createObjectURL = jest.fn(() => 'blob:fake');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
  return saved;
}

/** An export answer whose bytes the test sends piece by piece; it fails as fetch does when aborted. */
function streamedFile(call: Call, opts: { length?: number; filename?: string } = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  call.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
  const headersInit: Record<string, string> = { 'content-type': XLSX_CONTENT_TYPE };
  if (opts.filename) headersInit['content-disposition'] = `attachment; filename="${opts.filename}"`;
  if (opts.length) headersInit['content-length'] = String(opts.length);
  return {
    response: new Response(body, { headers: headersInit }),
    send: (bytes: number) => controller.enqueue(new Uint8Array(bytes)),
    end: () => controller.close(),
  };
}

beforeEach(() => {
  jest.restoreAllMocks();
  authStore.setState({
    token: 'token',
    roles: ['report-company-certificate', 'report-company-certificate-scheme', 'report-training-certificate'],
    company_ids: ALL,
    companies: [
      { id: C1, name: 'PT Satu' },
      { id: C2, name: 'PT Dua' },
    ],
    company_id: C1,
  });
});

describe('Laporan Sertifikasi Perusahaan', () => {
  const path = `/api/report-company-certification/${C1}`;

  it('lists the clients of the header company with the spec columns, Nama Perusahaan only for ALL', async () => {
    const net = fakeApi({
      [`GET ${path}`]: { body: listOf([companyRow]) },
      'GET /api/report-company-certification/ALL': { body: listOf([companyRow]) },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate');
    expect(await screen.findByText('PT Klien Abadi')).toBeInTheDocument();
    expect(headers()).toEqual([
      'Nama Client',
      'Nomor Sertifikasi',
      'Kode EA',
      'Kode Nace',
      'Region',
      'Telpon',
      'Handphone',
      'Email',
    ]);
    expect(params(net.callsTo('GET', path)[0])).toEqual({
      page: '1',
      paginate: '20',
      search: '',
      type: 'table',
    });
    const row = screen.getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['PT Klien Abadi', 'CL-001', '28', '-', 'Jakarta', '021-555', '-', 'info@klien.co.id']);

    authStore.setState({ company_id: ALL });
    await waitFor(() => expect(headers()).toContain('Nama Perusahaan'));
    expect(headers().slice(0, 3)).toEqual(['Nama Client', 'Nama Perusahaan', 'Nomor Sertifikasi']);
    expect(net.callsTo('GET', '/api/report-company-certification/ALL')).toHaveLength(1);
    expect(net.callsTo('GET', '/api/select/report/ALL')).toHaveLength(1);
  });

  it("sends the filters with 'Cari Data', which reads 'Mencari Data...' while both buttons wait", async () => {
    const user = userEvent.setup({ delay: null });
    const held = deferred<{ body: unknown }>();
    const net = fakeApi({
      [`GET ${path}`]: (call) => (call.params.get('search') ? held.promise : { body: listOf([companyRow]) }),
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate');
    await screen.findByText('PT Klien Abadi');
    await user.type(screen.getByRole('textbox', { name: 'Cari Data' }), 'abadi');
    await choose(user, 'Pilih Sertifikat', 'ISO 9001:2015', 'ISO 14001:2015');
    await choose(user, 'Pilih Akreditasi', 'KAN');
    await user.click(screen.getByRole('button', { name: 'Cari Data' }));

    const searching = await screen.findByRole('button', { name: 'Mencari Data...' });
    expect(searching).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Export Excel' })).toBeDisabled();
    expect(params(net.callsTo('GET', path).at(-1))).toEqual({
      page: '1',
      paginate: '20',
      search: 'abadi',
      certification: `${CERT_9001},${CERT_14001}`,
      accredited: KAN,
      type: 'table',
    });
    held.resolve({ body: listOf([]) });
    expect(await screen.findByText('Opps, Data Masih Kosong')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cari Data' })).toBeEnabled();
  });

  it('exports with type=export, shows the bytes received, and saves under the spec name', async () => {
    const user = userEvent.setup({ delay: null });
    const saved = captureDownloads();
    let file: ReturnType<typeof streamedFile> | undefined;
    const net = fakeApi({
      [`GET ${path}`]: (call) => {
        if (call.params.get('type') !== 'export') return { body: listOf([companyRow]) };
        file = streamedFile(call, { length: 4096, filename: 'export-sertifikasi-perusahaan.xlsx' });
        return file.response;
      },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate');
    await screen.findByText('PT Klien Abadi');
    await choose(user, 'Pilih Akreditasi', 'KAN');
    await user.click(screen.getByRole('button', { name: 'Export Excel' }));

    expect(await screen.findByRole('button', { name: 'Export Data...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cari Data' })).toBeDisabled();
    const exportCall = net.callsTo('GET', path).find((c) => c.params.get('type') === 'export');
    expect(params(exportCall)).toEqual({ accredited: KAN, type: 'export' });
    await waitFor(() => expect(file).toBeDefined());
    file!.send(1024);
    const panel = await screen.findByRole('region', { name: 'Mengunduh file Excel' });
    expect(await within(panel).findByText('Diterima 1 KB dari 4 KB')).toBeInTheDocument();
    file!.send(3072);
    file!.end();
    expect(await screen.findByText('File Excel berhasil diunduh')).toBeInTheDocument();
    expect(saved).toEqual(['export-sertifikasi-perusahaan.xlsx']);
    expect(screen.queryByRole('region', { name: 'Mengunduh file Excel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Excel' })).toBeEnabled();
  });

  it("stops an export with 'Batalkan': nothing is saved", async () => {
    const user = userEvent.setup({ delay: null });
    const saved = captureDownloads();
    let file: ReturnType<typeof streamedFile> | undefined;
    let exportCall: Call | undefined;
    fakeApi({
      [`GET ${path}`]: (call) => {
        if (call.params.get('type') !== 'export') return { body: listOf([companyRow]) };
        exportCall = call;
        file = streamedFile(call);
        return file.response;
      },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate');
    await screen.findByText('PT Klien Abadi');
    await user.click(screen.getByRole('button', { name: 'Export Excel' }));
    await waitFor(() => expect(file).toBeDefined());
    file!.send(2048);
    const panel = await screen.findByRole('region', { name: 'Mengunduh file Excel' });
    expect(await within(panel).findByText('Diterima 2 KB')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Batalkan' }));

    expect(await screen.findByText('Export dibatalkan')).toBeInTheDocument();
    expect(exportCall!.signal.aborted).toBe(true);
    expect(saved).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Mengunduh file Excel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Excel' })).toBeEnabled();
  });
});

describe('Laporan Skema Sertifikasi Perusahaan', () => {
  const path = `/api/report-company-certification-scheme/${C1}`;
  const local = (date: string) => dayjs(date).startOf('day').toDate().toISOString();

  it('shows status labels, dates, the client number and the accreditation only for accredited schemes', async () => {
    fakeApi({
      [`GET ${path}`]: { body: listOf(schemeRows) },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate-scheme');
    await screen.findByText('QMS/2026/001');
    expect(headers()).toEqual([
      'Nama Client',
      'Nama Sertifikasi',
      'Nomor Sertifikasi',
      'Status',
      'Tanggal Terbit',
      'Tanggal Kadaluarsa',
      'Akreditasi',
    ]);
    const [, first, second] = screen.getAllByRole('row') as [HTMLElement, HTMLElement, HTMLElement];
    expect(
      within(first)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'PT Klien AbadiNo. CL-001',
      'ISO 9001:2015',
      'QMS/2026/001',
      'KADALUARSA',
      '17 Januari 2023',
      '16 Januari 2026',
      'KAN',
    ]);
    expect(within(second).getAllByRole('cell').at(-1)).toHaveTextContent(/^-$/);
  });

  it('sends the text, statuses (KADALUARSA its own), clients, types and bodies', async () => {
    const user = userEvent.setup({ delay: null });
    const net = fakeApi({
      [`GET ${path}`]: { body: listOf(schemeRows) },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate-scheme');
    await screen.findByText('QMS/2026/001');
    await user.type(screen.getByRole('textbox', { name: 'Cari Data' }), 'QMS');
    await choose(user, 'Pilih Status', 'KADALUARSA', 'NOT ACTIVE');
    await choose(user, 'Pilih Client', 'PT Klien Abadi');
    await choose(user, 'Pilih Sertifikat', 'ISO 9001:2015');
    await choose(user, 'Pilih Akreditasi', 'KAN');
    await user.click(screen.getByRole('button', { name: 'Cari Data' }));

    await waitFor(() => expect(net.callsTo('GET', path)).toHaveLength(2));
    expect(params(net.callsTo('GET', path)[1])).toEqual({
      page: '1',
      paginate: '20',
      search: 'QMS',
      status: 'EXPIRED,NOACTIVE',
      client: CLIENT_A,
      certification: CERT_9001,
      accredited: KAN,
      type: 'table',
    });
  });

  it('sends both date ranges as the local midnights of the chosen days, an open end left empty', async () => {
    const user = userEvent.setup({ delay: null });
    const net = fakeApi({
      [`GET ${path}`]: { body: listOf(schemeRows) },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate-scheme');
    await screen.findByText('QMS/2026/001');
    await typeDate(user, screen.getByRole('group', { name: 'Tanggal Terbit dari' }), '01/01/2023');
    await typeDate(user, screen.getByRole('group', { name: 'Tanggal Terbit sampai' }), '31/12/2023');
    await typeDate(user, screen.getByRole('group', { name: 'Tanggal Kadaluarsa sampai' }), '28/02/2026');
    await user.click(screen.getByRole('button', { name: 'Cari Data' }));

    await waitFor(() => expect(net.callsTo('GET', path)).toHaveLength(2));
    expect(params(net.callsTo('GET', path)[1])).toEqual({
      page: '1',
      paginate: '20',
      search: '',
      issue_date: `${local('2023-01-01')},${local('2023-12-31')}`,
      expired_date: `,${local('2026-02-28')}`,
      type: 'table',
    });
  });

  it('refuses a range whose end lies before its start, for a search and an export alike', async () => {
    const user = userEvent.setup({ delay: null });
    const net = fakeApi({
      [`GET ${path}`]: { body: listOf(schemeRows) },
      'GET /api/select/report/*': { body: lookups },
    });
    show('/report-company-certificate-scheme');
    await screen.findByText('QMS/2026/001');
    await typeDate(user, screen.getByRole('group', { name: 'Tanggal Terbit dari' }), '10/01/2024');
    await typeDate(user, screen.getByRole('group', { name: 'Tanggal Terbit sampai' }), '09/01/2024');
    await user.click(screen.getByRole('button', { name: 'Cari Data' }));
    expect(await screen.findByText('Tanggal akhir tidak boleh sebelum tanggal awal')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export Excel' }));
    expect(net.callsTo('GET', path)).toHaveLength(1);
  });

  it('shows the company column for ALL, and choices that name their company', async () => {
    const user = userEvent.setup({ delay: null });
    fakeApi({
      'GET /api/report-company-certification-scheme/ALL': { body: listOf(schemeRows) },
      'GET /api/select/report/ALL': { body: lookups },
    });
    authStore.setState({ company_id: ALL });
    show('/report-company-certificate-scheme');
    await screen.findByText('QMS/2026/001');
    expect(headers().slice(0, 3)).toEqual(['Nama Client', 'Nama Perusahaan', 'Nama Sertifikasi']);
    expect(within(screen.getAllByRole('row')[1]!).getAllByRole('cell')[1]).toHaveTextContent('PT Satu');
    await user.click(screen.getByRole('combobox', { name: 'Pilih Sertifikat' }));
    expect(await screen.findByRole('option', { name: 'ISO 9001:2015 (PT Satu)' })).toBeInTheDocument();
  });
});

describe('Laporan Sertifikasi Pelatihan', () => {
  const path = `/api/report-training-certification/${C1}`;

  it('filters by text and certificate date, and exports with the same filters under the spec name', async () => {
    const user = userEvent.setup({ delay: null });
    const saved = captureDownloads();
    const net = fakeApi({
      [`GET ${path}`]: (call) =>
        call.params.get('type') === 'export'
          ? new Response(new Uint8Array(10), { headers: { 'content-type': XLSX_CONTENT_TYPE } })
          : { body: listOf([trainingRow]) },
    });
    show('/report-training-certificate');
    await screen.findByText('Budi Santoso');
    expect(headers()).toEqual([
      'Nama Personel',
      'Nomor Sertifikat',
      'Tanggal Sertifikasi',
      'Nama Pelatihan',
      'Lokasi',
    ]);
    expect(screen.getByRole('cell', { name: '05 Maret 2026' })).toBeInTheDocument();
    // Its filters choose from nothing: no look-up is asked for.
    expect(net.calls.filter((c) => c.path.startsWith('/api/select/'))).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Cari Data' }), 'budi');
    await typeDate(user, screen.getByRole('group', { name: 'Tanggal Sertifikasi dari' }), '01/03/2026');
    await user.click(screen.getByRole('button', { name: 'Cari Data' }));
    await waitFor(() => expect(net.callsTo('GET', path)).toHaveLength(2));
    const from = dayjs('2026-03-01').toDate().toISOString();
    expect(params(net.callsTo('GET', path)[1])).toEqual({
      page: '1',
      paginate: '20',
      search: 'budi',
      issue_date: `${from},`,
      type: 'table',
    });

    // The search was asked for, but both buttons stay disabled until its answer is in: wait for
    // 'Export Excel' to be enabled, as a user would, before clicking it.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export Excel' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Export Excel' }));
    expect(await screen.findByText('File Excel berhasil diunduh')).toBeInTheDocument();
    expect(params(net.callsTo('GET', path).at(-1))).toEqual({
      search: 'budi',
      issue_date: `${from},`,
      type: 'export',
    });
    // The answer named no file: the spec's name.
    expect(saved).toEqual(['export-sertifikasi-pelatihan.xlsx']);
  });

  it('pages through the results and goes back to page 1 for another company', async () => {
    const user = userEvent.setup({ delay: null });
    const many = Array.from({ length: 20 }, (_, i) => ({
      ...trainingRow,
      id: `t${i}`,
      name: `Personel ${i + 1}`,
    }));
    const net = fakeApi({
      'GET /api/report-training-certification/*': (call) => {
        const page = Number(call.params.get('page'));
        return {
          body: listOf(
            page === 2 ? [{ ...trainingRow, id: 'last', name: 'Personel 21' }] : many,
            page,
            20,
            21,
          ),
        };
      },
    });
    show('/report-training-certificate');
    await screen.findByText('Personel 1');
    expect(screen.getByText('Menampilkan 1 - 20 dari 21 data')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Halaman 2' }));
    expect(await screen.findByText('Personel 21')).toBeInTheDocument();
    expect(params(net.callsTo('GET', path).at(-1))).toMatchObject({ page: '2', type: 'table' });

    authStore.setState({ company_id: C2 });
    await waitFor(() =>
      expect(net.callsTo('GET', `/api/report-training-certification/${C2}`)).toHaveLength(1),
    );
    expect(params(net.callsTo('GET', `/api/report-training-certification/${C2}`)[0])).toMatchObject({
      page: '1',
    });
  });
});
