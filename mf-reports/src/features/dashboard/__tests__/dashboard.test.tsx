import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ALL, type DashboardTotals } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { deferred, fakeApi, renderInApp } from '@sertifikasi/shared-ui/test';
import { typeDate } from '@sertifikasi/shared-ui/test';
import { DashboardScreen } from '../DashboardScreen';

// findBy*/waitFor wait up to 5 s instead of 1 s: MUI in jsdom on a busy 2-core machine is slow, and
// a screen that answers later than that is still right (speed is measured in bench/, not here).
configure({ asyncUtilTimeout: 5000 });

// apexcharts draws with SVG APIs jsdom lacks (docs/conventions.md#traps): the chart is a stand-in that shows
// what it was given.
jest.mock('apexcharts/line', () => ({}));
jest.mock('react-apexcharts/core', () => ({
  __esModule: true,
  default: (props: { series: { data: number[] }[]; options: { xaxis: { categories: string[] } } }) => {
    const points = props.options.xaxis.categories.map((c, i) => `${c}=${props.series[0]!.data[i]}`);
    return <output data-testid="chart-points">{points.join(' ')}</output>;
  },
}));

// MUI in jsdom is slow on a busy 2-core machine (speed is measured in bench/, not here).
jest.setTimeout(60_000);

const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const CLIENT_A = '00000000-0000-4000-8000-00000000a001';
const CLIENT_B = '00000000-0000-4000-8000-00000000b001';

const totals: DashboardTotals = {
  company_certificate: 1234,
  company_certificate_total: 40,
  training_certificate: 7,
  training_certificate_total: 12,
  company_certificate_scheme_bystatus: [
    { status: 'ACTIVE', total: 20 },
    { status: 'EXPIRED', total: 10 },
    { status: 'SUSPENDED', total: 4 },
    { status: 'WITHDRAWN', total: 2 },
    { status: 'NOACTIVE', total: 4 },
    { status: 'DRAFT', total: 0 },
  ],
  company_certificate_expired_in_amonth: [
    {
      id: 's1',
      company_id: C1,
      cert_name: 'ISO 9001:2015',
      cert_number: 'QMS/001',
      expired_date: '2026-11-03',
      status: 'EXPIRED',
      profile: { id: CLIENT_A, name: 'PT Tanpa Logo', logo: null },
    },
    {
      id: 's2',
      company_id: C1,
      cert_name: 'ISO 14001:2015',
      cert_number: 'EMS/002',
      expired_date: '2026-11-28',
      status: 'ACTIVE',
      profile: { id: CLIENT_B, name: 'PT Dengan Logo', logo: 'logo-b.png' },
    },
  ],
  company_certificate_expired_in_amonth_total: 2,
};

const companyRows = [
  { date: '2026-11-18', total: 0 },
  { date: '2026-11-19', total: 2 },
];
const trainingRows = [{ date_f: '2026-11-24', total: 3 }];

function api(routes: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/dashboard-total/*': { body: totals },
    'GET /api/grafic-certification-company/*': { body: companyRows },
    'GET /api/grafic-certification-training/*': { body: trainingRows },
    ...routes,
  });
}

function show() {
  return renderInApp(<DashboardScreen />);
}

const companyChartCalls = (net: ReturnType<typeof api>, company = C1) =>
  net.callsTo('GET', `/api/grafic-certification-company/${company}`);

beforeEach(() => {
  authStore.setState({
    token: 'token',
    roles: ['statistik'],
    company_ids: ALL,
    companies: [
      { id: C1, name: 'PT Satu' },
      { id: C2, name: 'PT Dua' },
    ],
    company_id: C1,
  });
});

describe('dashboard (/statistik)', () => {
  it("'Audit Jatuh Tempo': late and due within 30 days, linking to 'Jadwal Audit', for users who may open it", async () => {
    authStore.setState({ roles: ['statistik', 'audit-schedule'] });
    const net = api({ [`GET /api/audit-schedule/${C1}/summary`]: { body: { late: 3, soon: 1250 } } });
    show();
    const card = await screen.findByRole('region', { name: 'Audit Jatuh Tempo' });
    expect(
      await within(within(card).getByRole('group', { name: 'Terlambat' })).findByText('3'),
    ).toBeInTheDocument();
    expect(
      within(within(card).getByRole('group', { name: 'Segera (30 hari)' })).getByText('1.250'),
    ).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Lihat Jadwal Audit' })).toHaveAttribute(
      'href',
      '/audit-schedule',
    );
    expect(net.callsTo('GET', `/api/audit-schedule/${C1}/summary`)).toHaveLength(1);
  });

  it("no 'Audit Jatuh Tempo' without the audit-schedule permission (and nothing asked)", async () => {
    const net = api();
    show();
    await screen.findByRole('progressbar', { name: 'ACTIVE' });
    expect(screen.queryByRole('region', { name: 'Audit Jatuh Tempo' })).not.toBeInTheDocument();
    expect(net.calls.filter((c) => c.path.startsWith('/api/audit-schedule'))).toEqual([]);
  });

  it('shows the four totals of the header company', async () => {
    const net = api();
    show();
    expect(
      await within(screen.getByRole('group', { name: 'Perusahaan Tersertifikasi' })).findByText('1.234'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Sertifikasi Perusahaan' })).getByText('40'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Personel Tersertifikasi' })).getByText('7'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Sertifikasi Pelatihan' })).getByText('12'),
    ).toBeInTheDocument();
    expect(net.callsTo('GET', `/api/dashboard-total/${C1}`)).toHaveLength(1);
  });

  it('draws one bar per status, KADALUARSA included, at its share of all schemes', async () => {
    api();
    show();
    const expired = await screen.findByRole('progressbar', { name: 'KADALUARSA' });
    expect(expired).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByRole('progressbar', { name: 'ACTIVE' })).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByRole('progressbar', { name: 'NOT ACTIVE' })).toHaveAttribute('aria-valuenow', '10');
    expect(screen.getByRole('progressbar', { name: 'DRAFT' })).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getAllByRole('progressbar')).toHaveLength(6);
    expect(screen.getByText('10 dari 40 skema (25%)')).toBeInTheDocument();
  });

  it('lists the certificates expiring this month with the logo or the default image and a Detail link', async () => {
    api();
    show();
    const list = await screen.findByRole('list', { name: 'Sertifikat Kadaluarsa Bulan Ini' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByText('PT Tanpa Logo')).toBeInTheDocument();
    expect(within(first).getByText('ISO 9001:2015')).toBeInTheDocument();
    expect(within(first).getByText(/QMS\/001/)).toBeInTheDocument();
    expect(within(first).getByText('KADALUARSA')).toBeInTheDocument();
    // The expiry date is the last valid day: 'valid until', as the public page and the history say.
    expect(within(first).getByText(/QMS\/001/)).toHaveTextContent(/Berlaku sampai 03 November 2026$/);
    expect(within(first).getByRole('img', { name: 'Logo PT Tanpa Logo' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml,/),
    );
    expect(within(first).getByRole('link', { name: 'Detail' })).toHaveAttribute(
      'href',
      `/company-certificate/${CLIENT_A}`,
    );
    expect(within(second).getByRole('img', { name: 'Logo PT Dengan Logo' })).toHaveAttribute(
      'src',
      '/images/logo-b.png',
    );
    expect(within(second).getByRole('link', { name: 'Detail' })).toHaveAttribute(
      'href',
      `/company-certificate/${CLIENT_B}`,
    );
  });

  it('asks both charts for the last week per day (the company chart for its four statuses) and shows them once loaded', async () => {
    const held = deferred<{ body: unknown }>();
    const net = api({ 'GET /api/grafic-certification-company/*': () => held.promise });
    show();
    const section = screen.getByRole('region', { name: 'Grafik Sertifikasi Perusahaan' });
    expect(within(section).getByRole('status')).toHaveTextContent('Memuat grafik');
    expect(within(section).queryByRole('img')).not.toBeInTheDocument();

    await waitFor(() => expect(companyChartCalls(net)).toHaveLength(1));
    const params = Object.fromEntries(companyChartCalls(net)[0]!.params);
    expect(params).toEqual({ date_type: '1w', chart: 'DAY', status: 'ACTIVE,SUSPENDED,WITHDRAWN,NOTACTIVE' });
    const training = net.callsTo('GET', `/api/grafic-certification-training/${C1}`);
    expect(Object.fromEntries(training[0]!.params)).toEqual({ date_type: '1w', chart: 'DAY' });

    held.resolve({ body: companyRows });
    const chart = await within(section).findByRole('img', { name: 'Grafik Sertifikasi Perusahaan' });
    expect(within(chart).getByTestId('chart-points')).toHaveTextContent('2026-11-18=0 2026-11-19=2');
    const trainingSection = screen.getByRole('region', { name: 'Grafik Sertifikasi Pelatihan' });
    expect(await within(trainingSection).findByTestId('chart-points')).toHaveTextContent('2026-11-24=3');
  });

  it('applies a preset, a granularity and fewer statuses from the settings modal, then closes it', async () => {
    const user = userEvent.setup({ delay: null });
    const net = api();
    show();
    const section = screen.getByRole('region', { name: 'Grafik Sertifikasi Perusahaan' });
    await within(section).findByRole('img');
    await user.click(within(section).getByRole('button', { name: 'Atur Grafik Sertifikasi Perusahaan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pengaturan Grafik Sertifikasi Perusahaan' });

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Periode' }), '3 bulan terakhir');
    await user.click(within(dialog).getByRole('radio', { name: 'Bulanan' }));
    // Remove WITHDRAWN: its chip's delete icon.
    const chip = within(dialog).getByRole('button', { name: 'WITHDRAWN' });
    await user.click(within(chip).getByTestId('CancelIcon'));
    await user.click(within(dialog).getByRole('button', { name: 'Terapkan' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(companyChartCalls(net)).toHaveLength(2));
    expect(Object.fromEntries(companyChartCalls(net)[1]!.params)).toEqual({
      date_type: '3m',
      chart: 'MONTH',
      status: 'ACTIVE,SUSPENDED,NOTACTIVE',
    });
    expect(await within(section).findByRole('img')).toBeInTheDocument();
    expect(within(section).getByText('3 bulan terakhir · Bulanan')).toBeInTheDocument();
  });

  it("reveals the dates with 'Pilih Tanggal' and sends them for the training chart", async () => {
    const user = userEvent.setup({ delay: null });
    const net = api();
    show();
    const section = screen.getByRole('region', { name: 'Grafik Sertifikasi Pelatihan' });
    await within(section).findByRole('img');
    await user.click(within(section).getByRole('button', { name: 'Atur Grafik Sertifikasi Pelatihan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pengaturan Grafik Sertifikasi Pelatihan' });
    expect(within(dialog).queryByRole('combobox', { name: 'Status' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: /Tanggal Mulai/ })).not.toBeInTheDocument();

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Periode' }), 'Pilih Tanggal');
    const start = within(dialog).getByRole('group', { name: /Tanggal Mulai/ });
    const end = within(dialog).getByRole('group', { name: /Tanggal Akhir/ });
    await typeDate(user, start, '01/09/2026');
    await typeDate(user, end, '30/11/2026');
    await user.click(within(dialog).getByRole('radio', { name: 'Harian' }));
    await user.click(within(dialog).getByRole('button', { name: 'Terapkan' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const calls = net.callsTo('GET', `/api/grafic-certification-training/${C1}`);
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
    expect(
      Object.fromEntries(net.callsTo('GET', `/api/grafic-certification-training/${C1}`).at(-1)!.params),
    ).toEqual({
      date_type: 'custom',
      chart: 'DAY',
      start_date: '2026-09-01',
      end_date: '2026-11-30',
    });
  });

  async function openCustomTrainingSettings(user: ReturnType<typeof userEvent.setup>) {
    const section = screen.getByRole('region', { name: 'Grafik Sertifikasi Pelatihan' });
    await within(section).findByRole('img');
    await user.click(within(section).getByRole('button', { name: 'Atur Grafik Sertifikasi Pelatihan' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Periode' }), 'Pilih Tanggal');
    return {
      dialog,
      start: within(dialog).getByRole('group', { name: /Tanggal Mulai/ }),
      end: within(dialog).getByRole('group', { name: /Tanggal Akhir/ }),
    };
  }

  it('refuses a custom range that ends before it starts', async () => {
    const user = userEvent.setup({ delay: null });
    const net = api();
    show();
    const { dialog, start, end } = await openCustomTrainingSettings(user);
    await typeDate(user, start, '01/01/2020');
    await typeDate(user, end, '31/12/2019');
    await user.click(within(dialog).getByRole('button', { name: 'Terapkan' }));
    expect(
      await within(dialog).findByText('Tanggal Akhir tidak boleh sebelum Tanggal Mulai'),
    ).toBeInTheDocument();
    expect(net.callsTo('GET', `/api/grafic-certification-training/${C1}`)).toHaveLength(1);
  });

  it('asks for a coarser granularity when the range has more points than a chart draws', async () => {
    const user = userEvent.setup({ delay: null });
    const net = api();
    show();
    const { dialog, start, end } = await openCustomTrainingSettings(user);
    await typeDate(user, start, '01/01/2020');
    await typeDate(user, end, '31/12/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Terapkan' }));
    expect(
      await within(dialog).findByText(/Rentang tanggal terlalu panjang: 2\.?557 titik/),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Bulanan' }));
    await user.click(within(dialog).getByRole('button', { name: 'Terapkan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      Object.fromEntries(net.callsTo('GET', `/api/grafic-certification-training/${C1}`).at(-1)!.params),
    ).toEqual({ date_type: 'custom', chart: 'MONTH', start_date: '2020-01-01', end_date: '2026-12-31' });
  });

  it('loads everything again for the company chosen in the header', async () => {
    const net = api();
    show();
    await screen.findByText('1.234');
    authStore.setState({ company_id: C2 });
    await waitFor(() => expect(net.callsTo('GET', `/api/dashboard-total/${C2}`)).toHaveLength(1));
    await waitFor(() => expect(companyChartCalls(net, C2)).toHaveLength(1));
    expect(net.callsTo('GET', `/api/grafic-certification-training/${C2}`)).toHaveLength(1);
  });
});
