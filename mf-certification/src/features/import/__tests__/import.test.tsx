import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, listOf } from '@sertifikasi/shared-ui/test';
import { C1, C2, client, show, signIn, training } from '../../../test/support';

/** One upload the dialog sent through XMLHttpRequest, answered by the test. */
interface Upload {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: FormData;
  progress: (loaded: number, total: number) => void;
  answer: (status: number, body: unknown) => void;
}

const realXhr = globalThis.XMLHttpRequest;
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
  jest.restoreAllMocks();
});

/** Replaces XMLHttpRequest (the dialog's upload with progress) with one the test answers. */
function fakeUploads(): Upload[] {
  const uploads: Upload[] = [];
  class FakeXhr {
    upload: {
      onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
    } = { onprogress: null };
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private method = '';
    private url = '';
    private headers: Record<string, string> = {};
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: FormData) {
      uploads.push({
        method: this.method,
        url: this.url,
        headers: this.headers,
        body,
        progress: (loaded, total) =>
          act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total })),
        answer: (status, answer) =>
          act(() => {
            this.status = status;
            this.responseText = JSON.stringify(answer);
            this.onload?.();
          }),
      });
    }
  }
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  return uploads;
}

const xlsxFile = () =>
  new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'register.xlsx', {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Impor Excel' }));
  return screen.findByRole('dialog', { name: /Impor Excel/ });
}

const counts = {
  mode: 'check',
  rows: 3,
  created: { clients: 2, schemes: 1 },
  updated: { clients: 1, schemes: 0 },
  unchanged: { clients: 0, schemes: 2 },
};

describe('Impor Excel', () => {
  it('is offered with the create permission only', async () => {
    signIn({ roles: ['company-certificate'], companyId: C1 });
    fakeApi({ 'GET /api/company-certificate': { body: listOf([client()]) } });
    show('/company-certificate');
    await screen.findByText('PT Baja Perkasa');
    expect(screen.queryByRole('button', { name: 'Impor Excel' })).not.toBeInTheDocument();
  });

  it('downloads the template, checks a file with progress and shows the counts', async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      'GET /api/company-certificate': { body: listOf([client()]) },
      'GET /api/import/company-certificate/template': new Response(new Uint8Array([1, 2, 3]), {
        headers: {
          'content-disposition': 'attachment; filename="template-impor-sertifikasi-perusahaan.xlsx"',
        },
      }),
    });
    globalThis.URL.createObjectURL = jest.fn(() => 'blob:template');
    globalThis.URL.revokeObjectURL = jest.fn();
    const saved = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const uploads = fakeUploads();
    show('/company-certificate');
    const dialog = await openDialog();
    expect(
      within(dialog).getByRole('heading', { name: 'Impor Excel - Sertifikasi Perusahaan' }),
    ).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Unduh Template' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(api.callsTo('GET', '/api/import/company-certificate/template')).toHaveLength(1);

    const check = within(dialog).getByRole('button', { name: 'Periksa File' });
    expect(check).toBeDisabled();
    await userEvent.upload(within(dialog).getByLabelText('Pilih File'), xlsxFile());
    expect(within(dialog).getByText('File: register.xlsx')).toBeInTheDocument();
    await userEvent.click(check);

    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(uploads[0]!.url).toBe(`/api/import/company-certificate/${C1}?mode=check`);
    expect(uploads[0]!.headers.Authorization).toMatch(/^Bearer /);
    expect((uploads[0]!.body.get('file') as File).name).toBe('register.xlsx');
    uploads[0]!.progress(40, 100);
    expect(within(dialog).getByRole('progressbar', { name: 'Mengunggah file' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    uploads[0]!.answer(200, counts);

    const status = await within(dialog).findByRole('status');
    expect(status).toHaveTextContent('File valid. Hasil pemeriksaan: 3 baris data');
    expect(status).toHaveTextContent('Klien: 2 baru, 1 diubah, 0 tidak berubah');
    expect(status).toHaveTextContent('Skema: 1 baru, 0 diubah, 2 tidak berubah');
  });

  it('shows every invalid cell in a table of Baris, Kolom, Nilai, Pesan', async () => {
    signIn({ companyId: C1 });
    fakeApi({ 'GET /api/training-certificate': { body: listOf([training()]) } });
    const uploads = fakeUploads();
    show('/training-certificate');
    const dialog = await openDialog();
    await userEvent.upload(within(dialog).getByLabelText('Pilih File'), xlsxFile());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Periksa File' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.answer(422, {
      code: 'validation',
      message: 'Beberapa sel tidak valid; tidak ada data yang disimpan',
      rows: [
        {
          row: 2,
          column: 'Tanggal Sertifikasi',
          value: '31/02/2025',
          message: 'Tanggal Sertifikasi harus berupa tanggal',
        },
        {
          row: 5,
          column: 'Nomor Sertifikat',
          value: 'TR-9',
          message: 'Nomor sertifikat sama dengan baris 3',
        },
      ],
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('2 sel tidak valid');
    const table = within(dialog).getByRole('table', { name: 'Sel tidak valid' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Baris', 'Kolom', 'Nilai', 'Pesan']);
    expect(within(table).getAllByRole('row')[2]!).toHaveTextContent(
      '5Nomor SertifikatTR-9Nomor sertifikat sama dengan baris 3',
    );
  });

  it('shows the message of a refused file', async () => {
    signIn({ companyId: C1 });
    fakeApi({ 'GET /api/training-certificate': { body: listOf([]) } });
    const uploads = fakeUploads();
    show('/training-certificate');
    const dialog = await openDialog();
    await userEvent.upload(within(dialog).getByLabelText('Pilih File'), xlsxFile());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Impor Data' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.answer(413, { code: 'too-large', message: 'Ukuran file melebihi batas (maksimal 10 MB)' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Ukuran file melebihi batas (maksimal 10 MB)',
    );
  });

  it('with ALL asks for the company, applies as a job with its progress, then toasts and reloads the list', async () => {
    signIn({ companyId: 'ALL' });
    const states = [
      job({ state: 'running', done: 1200 }),
      job({ state: 'done', done: 5000, result: applied }),
    ];
    const api = fakeApi({
      'GET /api/training-certificate': { body: listOf([training()]) },
      'GET /api/import/jobs/*': () => ({ body: states.length > 1 ? states.shift() : states[0] }),
    });
    const uploads = fakeUploads();
    show('/training-certificate');
    const dialog = await openDialog();
    await userEvent.upload(within(dialog).getByLabelText('Pilih File'), xlsxFile());
    const apply = within(dialog).getByRole('button', { name: 'Impor Data' });
    expect(apply).toBeDisabled();
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Perusahaan' }), C2);
    const listCalls = api.callsTo('GET', '/api/training-certificate').length;
    await userEvent.click(apply);
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(uploads[0]!.url).toBe(`/api/import/training-certificate/${C2}?mode=apply`);
    expect(uploads[0]!.body.get('file_name')).toBe('register.xlsx');
    uploads[0]!.answer(202, { job: job({ state: 'queued', done: 0 }) });
    expect(await within(dialog).findByText('Menunggu giliran impor...')).toBeInTheDocument();
    const bar = await within(dialog).findByRole(
      'progressbar',
      { name: 'Mengimpor 1.200 dari 5.000 baris' },
      { timeout: 3000 },
    );
    expect(bar).toHaveAttribute('aria-valuenow', '24');
    expect(apply).toBeDisabled();
    expect(await screen.findByText('Impor selesai: 5.000 baris', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Sertifikat: 2 baru, 0 diubah, 4.998 tidak berubah',
    );
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/training-certificate').length).toBeGreaterThan(listCalls),
    );
  });

  it('may be closed while the job runs: the end still toasts and reloads the list', async () => {
    signIn({ companyId: C1 });
    const states = [
      job({ state: 'running', done: 10 }),
      job({ state: 'running', done: 20 }),
      job({
        state: 'failed',
        done: 20,
        error: { code: 'validation', message: 'Impor berhenti di baris 22', rows: [] },
      }),
    ];
    const api = fakeApi({
      'GET /api/training-certificate': { body: listOf([training()]) },
      'GET /api/import/jobs/*': () => ({ body: states.length > 1 ? states.shift() : states[0] }),
    });
    const uploads = fakeUploads();
    show('/training-certificate');
    const dialog = await openDialog();
    await userEvent.upload(within(dialog).getByLabelText('Pilih File'), xlsxFile());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Impor Data' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.answer(202, { job: job({ state: 'running', done: 0 }) });
    await within(dialog).findByText('Mengimpor 0 dari 5.000 baris');
    const listCalls = api.callsTo('GET', '/api/training-certificate').length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Tutup' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Impor berhenti di baris 22', {}, { timeout: 4000 })).toBeInTheDocument();
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/training-certificate').length).toBeGreaterThan(listCalls),
    );
  });

  it("'Riwayat Impor' lists the company's recent imports", async () => {
    signIn({ companyId: C1 });
    const api = fakeApi({
      'GET /api/training-certificate': { body: listOf([training()]) },
      'GET /api/import/jobs': {
        body: listOf([
          job({ state: 'done', done: 5000, file_name: 'register-2025.xlsx', created_by: 'siti' }),
          job({
            id: '22222222-2222-4222-8222-222222222222',
            state: 'failed',
            done: 40,
            kind: 'company-certificate',
            file_name: 'klien.xlsx',
            created_by: 'budi',
            error: {
              code: 'internal',
              message:
                'Impor dihentikan setelah 6 kali percobaan tidak selesai; 40 baris sudah diimpor. Impor file yang sama lagi untuk menyelesaikannya',
            },
          }),
        ]),
      },
    });
    show('/training-certificate');
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Riwayat Impor' }));
    const table = await within(dialog).findByRole('table', { name: 'Riwayat Impor' });
    expect(api.calls.find((c) => c.path === '/api/import/jobs')?.params.get('company_id')).toBe(C1);
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('sitiregister-2025.xlsxSertifikasi PelatihanSelesai5.000 / 5.000');
    // A failed import says why.
    expect(rows[2]).toHaveTextContent(
      'budiklien.xlsxSertifikasi PerusahaanGagal' +
        'Impor dihentikan setelah 6 kali percobaan tidak selesai; 40 baris sudah diimpor. Impor file yang sama lagi untuk menyelesaikannya' +
        '40 / 5.000',
    );
  });
});

const applied = { mode: 'apply', rows: 5000, created: 2, updated: 0, unchanged: 4998 };

/** An import job as the API answers it. */
function job(over: Record<string, unknown>) {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    company_id: C2,
    kind: 'training-certificate',
    file_name: 'register.xlsx',
    state: 'queued',
    done: 0,
    total: 5000,
    created_by: 'admin',
    created_at: '2026-01-05T03:00:00.000Z',
    started_at: null,
    finished_at: null,
    result: null,
    error: null,
    ...over,
  };
}
