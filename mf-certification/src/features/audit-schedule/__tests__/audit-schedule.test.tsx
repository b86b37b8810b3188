import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type AuditScheduleRow, PERMISSION_KEYS, type PermissionKey } from '@sertifikasi/shared-contracts';
import { catchDownloads, type Call, emulateScreenWidth, fakeApi, listOf } from '@sertifikasi/shared-ui/test';
import { C1, show, signIn, uuid } from '../../../test/support';

const row = (over: Partial<AuditScheduleRow> = {}): AuditScheduleRow => ({
  scheme_id: uuid(51),
  company_id: C1,
  company_name: 'PT Mutu Nusantara',
  certificate_id: uuid(31),
  client_name: 'PT Baja Perkasa',
  client_logo: null,
  certification_id: uuid(21),
  cert_name: 'ISO 9001:2015',
  cert_number: 'QMS/2024/001',
  kind: 'SURVEILLANCE',
  due_date: '2026-01-10',
  surveillance_date: '2026-01-08',
  expired_date: '2027-01-10',
  days_left: -5,
  state: 'LATE',
  planned_audit: null,
  ...over,
});

const late = row();
const soon = row({
  scheme_id: uuid(52),
  client_name: 'CV Sinar Terang',
  cert_number: 'EMS/2025/002',
  kind: 'RECERTIFICATION',
  due_date: '2026-02-01',
  surveillance_date: null,
  days_left: 17,
  state: 'SOON',
});
const lookups = {
  certification: [
    { id: uuid(21), name: 'ISO 9001:2015', company_id: C1, company: { id: C1, name: 'PT Mutu Nusantara' } },
  ],
  accredited: [],
};

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Jadwal Audit' }))
    .getAllByRole('row')
    .slice(1);

/** A fake API whose schedule answers `rows()` as they are at each call. */
function fakeSchedule(rows: () => AuditScheduleRow[], extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/audit-schedule/ALL': () => ({ body: listOf(rows()) }),
    [`GET /api/audit-schedule/${C1}`]: () => ({ body: listOf(rows()) }),
    'GET /api/select/certification/ALL': { body: lookups },
    [`GET /api/select/certification/${C1}`]: { body: lookups },
    ...extra,
  });
}

describe('Jadwal Audit', () => {
  it('lists the items due: client, company (ALL only), type, number, kind, due date, plan, days left, state, planned audit', async () => {
    signIn();
    const api = fakeSchedule(() => [late, soon]);
    show('/audit-schedule');
    expect(await screen.findByText('PT Baja Perkasa')).toBeInTheDocument();
    expect(headers()).toEqual([
      'Nama Klien',
      'Perusahaan',
      'Sertifikat',
      'Nomor Sertifikat',
      'Jenis',
      'Jatuh Tempo',
      'Rencana',
      'Sisa Hari',
      'Keadaan',
      'Audit Direncanakan',
      'Aksi',
    ]);
    const [first, second] = bodyRows();
    expect(within(first!).getByText('Surveilan')).toBeInTheDocument();
    expect(within(first!).getByText('10 Januari 2026')).toBeInTheDocument();
    expect(within(first!).getByText('08 Januari 2026')).toBeInTheDocument();
    expect(within(first!).getByText('-5')).toBeInTheDocument();
    expect(within(first!).getByText('Terlambat')).toBeInTheDocument();
    expect(within(second!).getByText('Resertifikasi')).toBeInTheDocument();
    expect(within(second!).getByText('Segera')).toBeInTheDocument();
    // The first call asks for the next 90 days.
    expect(api.callsTo('GET', '/api/audit-schedule/ALL')[0]!.params.get('window')).toBe('90');
  });

  it('one company: no Perusahaan column', async () => {
    signIn({ companyId: C1 });
    fakeSchedule(() => [late]);
    show('/audit-schedule');
    expect(await screen.findByText('PT Baja Perkasa')).toBeInTheDocument();
    expect(headers()).not.toContain('Perusahaan');
  });

  it('the window and the certification type filter the list', async () => {
    signIn();
    const api = fakeSchedule(() => [late]);
    show('/audit-schedule');
    await screen.findByText('PT Baja Perkasa');
    await userEvent.click(screen.getByRole('button', { name: 'Terlambat' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/audit-schedule/ALL').at(-1)!.params.get('window')).toBe('late'),
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Pilih Sertifikat' }));
    await userEvent.click(await screen.findByRole('option', { name: 'ISO 9001:2015 (PT Mutu Nusantara)' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/audit-schedule/ALL').at(-1)!.params.get('certification')).toBe(
        uuid(21),
      ),
    );
  });

  it("'Catat Audit' records the audit on the row's scheme and the row moves on to the next item", async () => {
    signIn();
    let rows = [late, soon];
    const posted: Call[] = [];
    fakeSchedule(() => rows, {
      [`POST /api/company-certificate-scheme/${late.scheme_id}/audits`]: (call) => {
        posted.push(call);
        rows = [
          soon,
          row({ due_date: '2027-01-10', days_left: 360, state: 'LATER', kind: 'RECERTIFICATION' }),
        ];
        return {
          status: 201,
          body: {
            id: uuid(90),
            scheme_id: late.scheme_id,
            kind: 'SURVEILLANCE',
            date: '2026-01-14',
            notes: null,
            created_at: '2026-01-15T03:00:00.000Z',
            updated_at: '2026-01-15T03:00:00.000Z',
          },
        };
      },
    });
    show('/audit-schedule');
    await screen.findByText('PT Baja Perkasa');
    await userEvent.click(within(bodyRows()[0]!).getByRole('button', { name: 'Catat Audit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Catat Audit QMS/2024/001' });
    expect(within(dialog).getByLabelText(/Jenis Audit/)).toHaveValue('SURVEILLANCE');
    const date = within(dialog).getByLabelText(/Tanggal Audit/);
    // The app's today, as the schedule was counted on (due 10 January, 5 days late), not the browser's.
    expect(date).toHaveValue('2026-01-15');
    await userEvent.clear(date);
    await userEvent.type(date, '2026-01-14');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await screen.findByText('Berhasil menambahkan data')).toBeInTheDocument();
    expect(posted[0]!.json).toEqual({ kind: 'SURVEILLANCE', date: '2026-01-14', notes: null });
    await waitFor(() => expect(within(bodyRows()[0]!).getByText('CV Sinar Terang')).toBeInTheDocument());
    const moved = bodyRows()[1]!;
    expect(within(moved).getByText('PT Baja Perkasa')).toBeInTheDocument();
    expect(within(moved).getByText('Resertifikasi')).toBeInTheDocument();
    expect(within(moved).getByText('10 Januari 2027')).toBeInTheDocument();
  });

  it("'Rencanakan' opens the planned-audit form with the row's scheme, kind and the days suggested", async () => {
    signIn();
    fakeSchedule(() => [late], {
      'GET /api/audit-days': (call) => ({
        body:
          call.params.get('scheme_id') === late.scheme_id && call.params.get('kind') === 'SURVEILLANCE'
            ? { days: 1.5, basis: '10 karyawan' }
            : { days: null, basis: '-' },
      }),
      [`GET /api/select/audit-plan/${C1}`]: {
        body: {
          certification: [],
          company_certificate: [],
          schemes: [{ id: late.scheme_id, name: 'PT Baja Perkasa - ISO 9001:2015', company_id: C1 }],
          auditors: [],
        },
      },
    });
    show('/audit-schedule');
    await screen.findByText('PT Baja Perkasa');
    await userEvent.click(within(bodyRows()[0]!).getByRole('button', { name: 'Rencanakan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rencanakan Audit QMS/2024/001' });
    expect(within(dialog).getByLabelText(/Jenis Audit/)).toHaveValue('SURVEILLANCE');
    await waitFor(() => expect(within(dialog).getByLabelText(/^Hari Audit/)).toHaveValue(1.5));
    expect(await within(dialog).findByDisplayValue('PT Baja Perkasa - ISO 9001:2015')).toBeInTheDocument();
  }, 60_000);

  it("without company-certificate:edit there is no 'Catat Audit'", async () => {
    const roles = PERMISSION_KEYS.filter((k) => k !== 'company-certificate:edit') as PermissionKey[];
    signIn({ roles });
    fakeSchedule(() => [late]);
    show('/audit-schedule');
    await screen.findByText('PT Baja Perkasa');
    expect(screen.queryByRole('button', { name: 'Catat Audit' })).not.toBeInTheDocument();
  });

  it("'Export Excel' saves the filtered rows as the API writes them", async () => {
    signIn();
    const downloads = catchDownloads();
    const api = fakeSchedule(() => [late], {
      'GET /api/audit-schedule/ALL': (call) =>
        call.params.get('type') === 'export'
          ? new Response(new Blob(['xlsx']), {
              headers: { 'content-disposition': 'attachment; filename="export-jadwal-audit.xlsx"' },
            })
          : { body: listOf([late]) },
    });
    show('/audit-schedule');
    await screen.findByText('PT Baja Perkasa');
    await userEvent.click(screen.getByRole('button', { name: 'Terlambat' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export Excel' }));
    await waitFor(() => expect(downloads.saved.map((f) => f.name)).toEqual(['export-jadwal-audit.xlsx']));
    const exported = api
      .callsTo('GET', '/api/audit-schedule/ALL')
      .find((c) => c.params.get('type') === 'export');
    expect(exported!.params.get('window')).toBe('late');
    downloads.restore();
  });

  const withPlan = row({
    planned_audit: { id: uuid(71), start_date: '2026-01-12', end_date: '2026-01-14', lead: 'Lina Lead' },
  });

  it("an item with a planned audit shows its dates and lead auditor and links to it; the others offer 'Rencanakan'", async () => {
    signIn();
    fakeSchedule(() => [withPlan, soon]);
    show('/audit-schedule');
    await screen.findByText('PT Baja Perkasa');
    expect(headers()).toContain('Audit Direncanakan');
    const [first, second] = bodyRows();
    const link = within(first!).getByRole('link', { name: '12 - 14 Januari 2026' });
    expect(link).toHaveAttribute('href', `/planned-audit?scheme_id=${withPlan.scheme_id}`);
    expect(within(first!).getByText('Lead Auditor: Lina Lead')).toBeInTheDocument();
    expect(within(first!).queryByRole('button', { name: 'Rencanakan' })).not.toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: 'Lihat Rencana Audit' })).toBeInTheDocument();
    expect(within(second!).getByRole('button', { name: 'Rencanakan' })).toBeInTheDocument();
  });

  it('on a phone each item is a card: client, kind, due date, state and its planned audit', async () => {
    const restore = emulateScreenWidth(390);
    try {
      signIn();
      fakeSchedule(() => [withPlan, soon]);
      show('/audit-schedule');
      const cards = within(await screen.findByRole('list', { name: 'Jadwal Audit' })).getAllByRole(
        'listitem',
      );
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(cards).toHaveLength(2);
      expect(within(cards[0]!).getByText('PT Baja Perkasa')).toBeInTheDocument();
      expect(within(cards[0]!).getByText('Surveilan · Jatuh Tempo 10 Januari 2026')).toBeInTheDocument();
      expect(within(cards[0]!).getByText('Terlambat')).toBeInTheDocument();
      expect(within(cards[0]!).getByText('Lead Auditor: Lina Lead')).toBeInTheDocument();
      expect(within(cards[1]!).getByRole('button', { name: 'Rencanakan' })).toBeInTheDocument();
    } finally {
      restore();
    }
  });
});
