import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PERMISSION_KEYS, type PermissionKey } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { fakeApi, listOf, type Route, renderInApp } from '@sertifikasi/shared-ui/test';
import { screens } from '../routes';

const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const HOOK = '00000000-0000-4000-8000-0000000000w1';
const DELIVERY = '00000000-0000-4000-8000-0000000000d1';

function show(path: '/webhook' | '/notification-log') {
  const Screen = screens[path];
  renderInApp(<Screen />);
}

function signIn(roles: readonly PermissionKey[] = PERMISSION_KEYS, companyId = 'ALL') {
  authStore.setState({
    token: 'T'.repeat(43),
    roles: [...roles],
    company_ids: 'ALL',
    companies: [
      { id: C1, name: 'PT Satu' },
      { id: C2, name: 'PT Dua' },
    ],
    company_id: companyId,
  });
}
beforeEach(() => signIn());

const webhook = {
  id: HOOK,
  company_id: C1,
  company: { id: C1, name: 'PT Satu' },
  url: 'https://erp.mitra.co.id/hooks/sertifikasi',
  description: 'ERP mitra',
  events: ['scheme.created', 'scheme.status_changed'],
  is_active: 'true',
  created_at: '2026-03-01T01:00:00.000Z',
  updated_at: '2026-03-01T01:00:00.000Z',
};

const delivery = (over: Record<string, unknown> = {}) => ({
  id: DELIVERY,
  webhook_id: HOOK,
  event_type: 'scheme.created',
  state: 'failed',
  attempts: 7,
  last_status: 500,
  last_error: 'Jawaban HTTP 500',
  next_attempt_at: '2026-03-02T01:00:00.000Z',
  sent_at: null,
  created_at: '2026-03-01T02:00:00.000Z',
  tries: [{ at: '2026-03-01T02:00:00.000Z', status: 500, duration_ms: 120, error: 'Jawaban HTTP 500' }],
  ...over,
});

describe('Webhook screen', () => {
  it('lists URL, events and status, with the company column under ALL', async () => {
    fakeApi({ 'GET /api/webhook': { body: listOf([webhook]) } });
    show('/webhook');
    const row = (await screen.findByText('https://erp.mitra.co.id/hooks/sertifikasi')).closest('tr')!;
    expect(within(row).getByText('ERP mitra')).toBeInTheDocument();
    expect(within(row).getByText('Skema dibuat, Status skema berubah')).toBeInTheDocument();
    expect(within(row).getByText('PT Satu')).toBeInTheDocument();
    expect(within(row).getByText('Aktif')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Cari Webhook')).toBeInTheDocument();
  });

  it("keeps a webhook's company on 'Ubah' (the API refuses a move)", async () => {
    fakeApi({
      'GET /api/webhook': { body: listOf([webhook]) },
      [`GET /api/webhook/${HOOK}`]: { body: webhook },
    });
    show('/webhook');
    const row = (await screen.findByText(webhook.url)).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Webhook' });
    expect(within(dialog).getByRole('combobox', { name: /Perusahaan/ })).toBeDisabled();
    expect(within(dialog).getByLabelText(/^URL/)).toBeEnabled();
  });

  it('adds a webhook with its events and shows its secret once', async () => {
    const api = fakeApi({
      'GET /api/webhook': { body: listOf([]) },
      'POST /api/webhook': { status: 201, body: { ...webhook, secret: 'whsec_c2VjcmV0LWRhcmktdGVz' } },
    });
    signIn(PERMISSION_KEYS, C1);
    show('/webhook');
    await userEvent.click(await screen.findByRole('button', { name: 'Tambah Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Webhook' });
    await userEvent.type(within(dialog).getByLabelText(/^URL/), webhook.url);
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Event/ }));
    await userEvent.click(await screen.findByRole('option', { name: /\(scheme\.created\)/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    const secret = await screen.findByRole('dialog', { name: 'Secret Webhook' });
    expect(within(secret).getByDisplayValue('whsec_c2VjcmV0LWRhcmktdGVz')).toBeInTheDocument();
    expect(within(secret).getByText(/tidak akan ditampilkan lagi/)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/webhook')[0]!.json).toEqual({
      company_id: C1,
      url: webhook.url,
      description: '',
      events: ['scheme.created'],
      is_active: 'true',
    });
    await userEvent.click(within(secret).getByRole('button', { name: 'Tutup' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Secret Webhook' })).not.toBeInTheDocument(),
    );
  });

  it("'Kirim Tes' follows the queued delivery and says how its try went", async () => {
    let asked = 0;
    const api = fakeApi({
      'GET /api/webhook': { body: listOf([webhook]) },
      [`POST /api/webhook/${HOOK}/test`]: {
        status: 202,
        body: delivery({
          event_type: 'webhook.test',
          state: 'queued',
          attempts: 0,
          last_error: null,
          tries: [],
        }),
      },
      // Not tried yet at the first ask; then its first try, which got no answer.
      [`GET /api/webhook-delivery/${DELIVERY}`]: () => ({
        body:
          ++asked < 2
            ? delivery({
                event_type: 'webhook.test',
                state: 'queued',
                attempts: 1,
                last_error: null,
                tries: [],
              })
            : delivery({
                event_type: 'webhook.test',
                state: 'queued',
                attempts: 1,
                last_status: null,
                last_error: 'Tidak ada jawaban dalam 10 detik',
                tries: [
                  {
                    at: '2026-03-01T02:00:10.000Z',
                    status: null,
                    duration_ms: 10000,
                    error: 'Tidak ada jawaban dalam 10 detik',
                  },
                ],
              }),
      }),
    });
    show('/webhook');
    await userEvent.click(await screen.findByRole('button', { name: 'Kirim Tes' }));
    expect(
      await screen.findByText('Tes webhook gagal: Tidak ada jawaban dalam 10 detik', undefined, {
        timeout: 5000,
      }),
    ).toBeInTheDocument();
    expect(api.callsTo('GET', `/api/webhook-delivery/${DELIVERY}`)).toHaveLength(2);
    expect(api.callsTo('POST', `/api/webhook/${HOOK}/test`)).toHaveLength(1);
  });

  it("'Kirim Tes' says so when the try was acknowledged", async () => {
    fakeApi({
      'GET /api/webhook': { body: listOf([webhook]) },
      [`POST /api/webhook/${HOOK}/test`]: {
        status: 202,
        body: delivery({
          event_type: 'webhook.test',
          state: 'queued',
          attempts: 0,
          last_error: null,
          tries: [],
        }),
      },
      [`GET /api/webhook-delivery/${DELIVERY}`]: {
        body: delivery({
          event_type: 'webhook.test',
          state: 'sent',
          attempts: 1,
          last_status: 200,
          last_error: null,
          tries: [{ at: '2026-03-01T02:00:00.000Z', status: 200, duration_ms: 80, error: null }],
        }),
      },
    });
    show('/webhook');
    await userEvent.click(await screen.findByRole('button', { name: 'Kirim Tes' }));
    expect(await screen.findByText('Tes webhook terkirim', undefined, { timeout: 5000 })).toBeInTheDocument();
  });

  it("shows the deliveries with every try, and 'Kirim Ulang' sends one again", async () => {
    let resent = false;
    let tried = false;
    const sentAgain = () =>
      delivery({
        state: 'sent',
        attempts: 1,
        last_status: 200,
        last_error: null,
        tries: [
          { at: '2026-03-02T02:00:00.000Z', status: 200, duration_ms: 95, error: null },
          ...delivery().tries,
        ],
      });
    const queued = () => delivery({ state: 'queued', attempts: 0, last_error: null });
    const api = fakeApi({
      'GET /api/webhook': { body: listOf([webhook]) },
      [`GET /api/webhook/${HOOK}/deliveries`]: () => ({
        body: listOf([tried ? sentAgain() : resent ? queued() : delivery()]),
      }),
      [`POST /api/webhook-delivery/${DELIVERY}/resend`]: () => {
        resent = true;
        return { status: 202, body: queued() };
      },
      // The sender has tried it by the first ask.
      [`GET /api/webhook-delivery/${DELIVERY}`]: () => {
        tried = true;
        return { body: sentAgain() };
      },
    });
    show('/webhook');
    await userEvent.click(await screen.findByRole('button', { name: 'Riwayat Pengiriman' }));
    const dialog = await screen.findByRole('dialog', { name: /Riwayat Pengiriman/ });
    expect(await within(dialog).findByText('scheme.created')).toBeInTheDocument();
    expect(within(dialog).getByText('Gagal')).toBeInTheDocument();
    expect(within(dialog).getByText(/HTTP 500 · 120 ms · Jawaban HTTP 500/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: /^Kirim Ulang/ }));
    // Queued at once, then tried: the toast, and the list with the new try.
    expect(await within(dialog).findByText('Antre')).toBeInTheDocument();
    expect(await screen.findByText('Pengiriman diulang', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(await within(dialog).findByText('Terkirim')).toBeInTheDocument();
    expect(within(dialog).getByText(/HTTP 200 · 95 ms/)).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/webhook-delivery/${DELIVERY}/resend`)).toHaveLength(1);
  });

  it('offers no changes without the webhook permission', async () => {
    signIn(['statistik']);
    fakeApi({ 'GET /api/webhook': { body: listOf([webhook]) } });
    show('/webhook');
    await screen.findByText(webhook.url);
    expect(screen.queryByRole('button', { name: 'Tambah Webhook' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Kirim Tes' })).not.toBeInTheDocument();
  });
});

const message = (over: Record<string, unknown> = {}) => ({
  id: '00000000-0000-4000-8000-0000000000m1',
  company_id: C1,
  company: { id: C1, name: 'PT Satu' },
  recipient: 'direktur@majubersama.co.id',
  subject: 'Pengingat: audit surveilan sertifikat QMS/2025/001',
  kind: 'audit-reminder',
  state: 'failed',
  attempts: 10,
  last_error: 'SMTP belum diatur',
  next_attempt_at: '2026-03-02T01:00:00.000Z',
  sent_at: null,
  created_at: '2026-03-01T01:00:00.000Z',
  ...over,
});

describe('Log Notifikasi screen', () => {
  it('lists the messages and filters by status and kind', async () => {
    const routes: Record<string, Route> = { 'GET /api/notification-log': { body: listOf([message()]) } };
    const api = fakeApi(routes);
    show('/notification-log');
    const row = (await screen.findByText('direktur@majubersama.co.id')).closest('tr')!;
    expect(within(row).getByText('Pengingat: audit surveilan sertifikat QMS/2025/001')).toBeInTheDocument();
    expect(within(row).getByText('Pengingat Audit')).toBeInTheDocument();
    expect(within(row).getByText('Gagal')).toBeInTheDocument();
    expect(within(row).getByText('SMTP belum diatur')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Cari Notifikasi')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Gagal' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/notification-log').at(-1)!.params.get('state')).toBe('failed'),
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Jenis' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Pengingat Kadaluarsa' }));
    await waitFor(() => {
      const params = api.callsTo('GET', '/api/notification-log').at(-1)!.params;
      expect([params.get('state'), params.get('kind'), params.get('company_id')]).toEqual([
        'failed',
        'expiry-reminder',
        'ALL',
      ]);
    });
  });

  it("'Kirim Ulang' puts a failed message back in the queue; a queued one has no such button", async () => {
    let queued = false;
    const api = fakeApi({
      'GET /api/notification-log': () => ({
        body: listOf([message(queued ? { state: 'queued', attempts: 0 } : {})]),
      }),
      'POST /api/notification-log/00000000-0000-4000-8000-0000000000m1/resend': () => {
        queued = true;
        return { body: message({ state: 'queued', attempts: 0 }) };
      },
    });
    show('/notification-log');
    await userEvent.click(await screen.findByRole('button', { name: 'Kirim Ulang' }));
    expect(await screen.findByText('Pesan masuk antrean pengiriman lagi')).toBeInTheDocument();
    expect(await screen.findByText('Antre')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Kirim Ulang' })).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it("offers 'Kirim Ulang' on a failed message only: never on a sent or queued one", async () => {
    fakeApi({
      'GET /api/notification-log': {
        body: listOf([
          message({
            id: '00000000-0000-4000-8000-0000000000s1',
            recipient: 'terkirim@klien.test',
            state: 'sent',
          }),
          message({
            id: '00000000-0000-4000-8000-0000000000q1',
            recipient: 'antre@klien.test',
            state: 'queued',
          }),
          message({
            id: '00000000-0000-4000-8000-0000000000f1',
            recipient: 'gagal@klien.test',
            state: 'failed',
          }),
        ]),
      },
    });
    show('/notification-log');
    const rowOf = async (recipient: string) => (await screen.findByText(recipient)).closest('tr')!;
    expect(
      within(await rowOf('gagal@klien.test')).getByRole('button', { name: 'Kirim Ulang' }),
    ).toBeVisible();
    for (const recipient of ['terkirim@klien.test', 'antre@klien.test'])
      expect(within(await rowOf(recipient)).queryByRole('button', { name: 'Kirim Ulang' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Kirim Ulang' })).toHaveLength(1);
  });
});
