import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { fakeApi, listOf, renderInApp, typeDate } from '@sertifikasi/shared-ui/test';
import { screens } from '../routes';

const C1 = '00000000-0000-4000-8000-0000000000c1';
const AUDIT = '00000000-0000-4000-8000-0000000000a1';
const LEAD = '00000000-0000-4000-8000-0000000000b1';
const SCHEME = '00000000-0000-4000-8000-0000000000e1';

beforeEach(() =>
  authStore.setState({
    token: 'T'.repeat(43),
    roles: [...PERMISSION_KEYS],
    company_ids: 'ALL',
    companies: [{ id: C1, name: 'PT Satu' }],
    company_id: C1,
  }),
);

const audit = {
  id: AUDIT,
  company_id: C1,
  scheme_id: SCHEME,
  scheme: { id: SCHEME, cert_number: 'QMS/1', client_id: C1, client: 'PT Klien', certification: 'ISO 9001' },
  kind: 'SURVEILLANCE',
  start_date: '2026-03-10',
  end_date: '2026-03-12',
  audit_days: 1.5,
  days_reason: null,
  team: [{ auditor_id: LEAD, name: 'Lina Lead', role: 'LEAD_AUDITOR' }],
  state: 'PLANNED',
  notes: null,
  sequence: 0,
  created_at: '2026-03-01T01:00:00.000Z',
  updated_at: '2026-03-01T01:00:00.000Z',
};

describe('Rencana Audit', () => {
  it('lists planned audits with their lead auditor and state, and marks one done once confirmed', async () => {
    const api = fakeApi({
      'GET /api/planned-audit': { body: listOf([audit]) },
      [`POST /api/planned-audit/${AUDIT}/done`]: { body: { ...audit, state: 'DONE' } },
    });
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    const row = (await screen.findByText('PT Klien')).closest('tr')!;
    expect(within(row).getByText('Surveilan')).toBeInTheDocument();
    expect(within(row).getByText('Lina Lead')).toBeInTheDocument();
    expect(within(row).getByText('1,5')).toBeInTheDocument();
    expect(within(row).getByText('Direncanakan')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Selesai' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tandai Audit Selesai?' });
    expect(dialog).toHaveAccessibleDescription(
      'Audit Surveilan PT Klien (ISO 9001 · QMS/1), 10 Maret 2026 - 12 Maret 2026, akan dicatat selesai ' +
        'di Riwayat Audit skema, dan siklus sertifikasi berlanjut ke tahap berikutnya. Tindakan ini tidak dapat diurungkan.',
    );
    expect(api.callsTo('POST', `/api/planned-audit/${AUDIT}/done`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ya, Tandai Selesai' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Audit ditandai selesai');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', `/api/planned-audit/${AUDIT}/done`)).toHaveLength(1);
  });

  it("says a stage audit leads to the certification decision, not the audit history, before 'Selesai'", async () => {
    fakeApi({
      'GET /api/planned-audit': { body: listOf([{ ...audit, kind: 'STAGE2', end_date: '2026-03-10' }]) },
    });
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    const row = (await screen.findByText('PT Klien')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Selesai' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tandai Audit Selesai?' });
    expect(dialog).toHaveAccessibleDescription(
      'Audit Tahap 2 PT Klien (ISO 9001 · QMS/1), 10 Maret 2026, akan dicatat selesai; ' +
        'tahap berikutnya adalah keputusan sertifikasi. Tindakan ini tidak dapat diurungkan.',
    );
  });

  it("a refused 'Selesai' shows the API's reason, not the system error", async () => {
    fakeApi({
      'GET /api/planned-audit': { body: listOf([audit]) },
      [`POST /api/planned-audit/${AUDIT}/done`]: {
        status: 409,
        body: { code: 'conflict', message: 'Rencana audit ini sudah tidak berstatus Direncanakan' },
      },
    });
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    const row = (await screen.findByText('PT Klien')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Selesai' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tandai Audit Selesai?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ya, Tandai Selesai' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Rencana audit ini sudah tidak berstatus Direncanakan',
    );
  });

  it("'Batalkan' asks first: 'Kembali' sends nothing, 'Ya, Batalkan Audit' cancels it once", async () => {
    let cancelled = false;
    const api = fakeApi({
      'GET /api/planned-audit': () => ({
        body: listOf([{ ...audit, state: cancelled ? 'CANCELLED' : 'PLANNED' }]),
      }),
      [`POST /api/planned-audit/${AUDIT}/cancel`]: () => {
        cancelled = true;
        return { body: { ...audit, state: 'CANCELLED' } };
      },
    });
    const cancelCalls = () => api.callsTo('POST', `/api/planned-audit/${AUDIT}/cancel`);
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    const row = (await screen.findByText('PT Klien')).closest('tr')!;

    await userEvent.click(within(row).getByRole('button', { name: 'Batalkan' }));
    let dialog = await screen.findByRole('dialog', { name: 'Batalkan Audit?' });
    expect(dialog).toHaveAccessibleDescription(
      'Audit Surveilan PT Klien (ISO 9001 · QMS/1), 10 Maret 2026 - 12 Maret 2026, akan dibatalkan. ' +
        'Anggota tim audit yang punya email akan diberi tahu lewat email. Tindakan ini tidak dapat diurungkan.',
    );
    // The dismiss button is not a second 'Batalkan' beside the one that cancels.
    expect(within(dialog).queryByRole('button', { name: 'Batalkan' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Kembali' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cancelCalls()).toHaveLength(0);
    expect(within(row).getByText('Direncanakan')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Batalkan' }));
    dialog = await screen.findByRole('dialog', { name: 'Batalkan Audit?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ya, Batalkan Audit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Rencana audit dibatalkan');
    // The list reloads with the audit cancelled, and its 'Batalkan' is gone.
    const after = (await screen.findByText('Dibatalkan')).closest('tr')!;
    expect(within(after).queryByRole('button', { name: 'Batalkan' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cancelCalls()).toHaveLength(1);
  });
});

describe('the planned-audit form', () => {
  it('shows the days suggested for the scheme and kind, and sends the team', async () => {
    const api = fakeApi({
      'GET /api/planned-audit': { body: listOf([]) },
      [`GET /api/select/audit-plan/${C1}`]: {
        body: {
          certification: [],
          company_certificate: [],
          schemes: [{ id: SCHEME, name: 'PT Klien - ISO 9001 (QMS/1)', company_id: C1 }],
          auditors: [{ id: LEAD, name: 'Lina Lead', company_id: C1 }],
        },
      },
      'GET /api/audit-days': { body: { days: 1.5, basis: '30 karyawan: audit awal 4 hari' } },
      'POST /api/planned-audit': { status: 201, body: audit },
    });
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    await userEvent.click(await screen.findByRole('button', { name: 'Tambah Rencana Audit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Rencana Audit' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Skema/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'PT Klien - ISO 9001 (QMS/1)' }));
    expect(
      await within(dialog).findByText('Saran 1,5 hari: 30 karyawan: audit awal 4 hari'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Auditor/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Lina Lead' }));
    await typeDate(
      userEvent.setup(),
      within(dialog).getByRole('group', { name: /^Tanggal Mulai/ }),
      '10/03/2026',
    );
    await typeDate(
      userEvent.setup(),
      within(dialog).getByRole('group', { name: /^Tanggal Selesai/ }),
      '12/03/2026',
    );
    await userEvent.type(within(dialog).getByLabelText(/^Hari Audit/), '1.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/planned-audit')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/planned-audit')[0]!.json).toEqual({
      company_id: C1,
      scheme_id: SCHEME,
      kind: 'SURVEILLANCE',
      start_date: '2026-03-10',
      end_date: '2026-03-12',
      audit_days: 1.5,
      days_reason: null,
      team: [{ auditor_id: LEAD, role: 'LEAD_AUDITOR' }],
      notes: null,
    });
  }, 120_000);
});

describe('the team refused by the API', () => {
  it('shows each refused member’s message under that member’s row, and the team’s own above the rows', async () => {
    const SECOND = '00000000-0000-4000-8000-0000000000b2';
    fakeApi({
      'GET /api/planned-audit': {
        body: listOf([
          { ...audit, team: [...audit.team, { auditor_id: SECOND, name: 'Sari', role: 'AUDITOR' }] },
        ]),
      },
      [`GET /api/select/audit-plan/${C1}`]: {
        body: {
          certification: [],
          company_certificate: [],
          schemes: [{ id: SCHEME, name: 'PT Klien - ISO 9001 (QMS/1)', company_id: C1 }],
          auditors: [
            { id: LEAD, name: 'Lina Lead', company_id: C1 },
            { id: SECOND, name: 'Sari', company_id: C1 },
          ],
        },
      },
      'GET /api/audit-days': { body: { days: null, basis: '-' } },
      [`PUT /api/planned-audit/${AUDIT}`]: {
        status: 422,
        body: {
          code: 'validation',
          message: 'Bentrok jadwal: Sari sudah bertugas pada Surveilan PT Lain',
          errors: {
            'team[1].auditor_id': 'Bentrok jadwal: Sari sudah bertugas pada Surveilan PT Lain',
            audit_days: 'Hari audit di bawah saran (3 hari): isi alasan pada Alasan Hari Audit',
          },
        },
      },
    });
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    await userEvent.click(await screen.findByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Rencana Audit' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    const rows = [
      await within(dialog).findByRole('group', { name: 'Anggota Tim 1' }),
      within(dialog).getByRole('group', { name: 'Anggota Tim 2' }),
    ];
    expect(
      await within(rows[1]!).findByText('Bentrok jadwal: Sari sudah bertugas pada Surveilan PT Lain'),
    ).toBeInTheDocument();
    expect(within(rows[0]!).queryByText(/Bentrok/)).not.toBeInTheDocument();
    expect(within(dialog).getByText(/Hari audit di bawah saran/)).toBeInTheDocument();
  }, 60_000);
});

describe('Tabel Hari Audit', () => {
  it('opens the company’s table (IAF MD 5’s until it has its own), refuses a gap under its row, saves the table whole', async () => {
    const api = fakeApi({
      'GET /api/planned-audit': { body: listOf([]) },
      [`GET /api/select/audit-plan/${C1}`]: {
        body: { certification: [], company_certificate: [], schemes: [], auditors: [] },
      },
      'GET /api/audit-day-table': {
        body: {
          company_id: C1,
          certification_id: null,
          source: 'md5',
          bands: [
            { min_employees: 1, max_employees: 5, days: 1.5 },
            { min_employees: 6, max_employees: 10, days: 2 },
          ],
        },
      },
      'PUT /api/audit-day-table': (call) => ({
        body: {
          company_id: C1,
          certification_id: null,
          source: 'company',
          bands: (call.json as { bands: unknown[] }).bands,
        },
      }),
    });
    const Screen = screens['/planned-audit'];
    renderInApp(<Screen />);
    await userEvent.click(await screen.findByRole('button', { name: 'Tabel Hari Audit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tabel Hari Audit' });
    expect(await within(dialog).findByText(/IAF MD 5:2019 Tabel QMS 1/)).toBeInTheDocument();
    const second = await within(dialog).findByRole('group', { name: 'Baris 2' });
    await waitFor(() => expect(within(second).getByLabelText('Karyawan Dari')).toHaveValue(6));
    await userEvent.clear(within(second).getByLabelText('Karyawan Dari'));
    await userEvent.type(within(second).getByLabelText('Karyawan Dari'), '7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(second).findByText(/Harus dimulai dari 6/)).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/audit-day-table')).toHaveLength(0);
    await userEvent.clear(within(second).getByLabelText('Karyawan Dari'));
    await userEvent.type(within(second).getByLabelText('Karyawan Dari'), '6');
    await userEvent.clear(within(second).getByLabelText('Hari Audit Awal'));
    await userEvent.type(within(second).getByLabelText('Hari Audit Awal'), '2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/audit-day-table')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/audit-day-table')[0]!.json).toEqual({
      company_id: C1,
      certification_id: null,
      bands: [
        { min_employees: 1, max_employees: 5, days: 1.5 },
        { min_employees: 6, max_employees: 10, days: 2.5 },
      ],
    });
  }, 60_000);
});

describe('Kalender Auditor', () => {
  it('shows each active auditor’s days of the month and the audits', async () => {
    const api = fakeApi({
      'GET /api/auditor-calendar': {
        body: {
          month: '2026-03',
          total: 1,
          per_page: 20,
          current_page: 1,
          last_page: 1,
          from: 1,
          to: 1,
          data: [
            {
              id: LEAD,
              name: 'Lina Lead',
              days: ['2026-03-10', '2026-03-11', '2026-03-12'],
              audits: [
                {
                  id: AUDIT,
                  kind: 'SURVEILLANCE',
                  role: 'LEAD_AUDITOR',
                  state: 'PLANNED',
                  start_date: '2026-03-10',
                  end_date: '2026-03-12',
                  client: 'PT Klien',
                },
              ],
            },
          ],
        },
      },
    });
    const Screen = screens['/auditor-calendar'];
    renderInApp(<Screen />);
    const card = await screen.findByRole('region', { name: 'Lina Lead' });
    expect(within(card).getByText('3 hari bertugas')).toBeInTheDocument();
    expect(within(card).getByText(/Surveilan · PT Klien/)).toBeInTheDocument();
    // The first call names no month: the API answers the app clock's month, which the field then shows.
    expect(api.callsTo('GET', '/api/auditor-calendar')[0]!.params.get('month')).toBeNull();
    expect(screen.getByLabelText('Bulan')).toHaveValue('2026-03');
    // A page of the auditors like every list: page 1 of 20, the search box on the name.
    const first = api.callsTo('GET', '/api/auditor-calendar')[0]!.params;
    expect([first.get('page'), first.get('paginate')]).toEqual(['1', '20']);
    expect(screen.getByText('Menampilkan 1 - 1 dari 1 data')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Cari Auditor' })).toBeInTheDocument();
  });
});
