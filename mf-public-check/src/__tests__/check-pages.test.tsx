import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type CompanyCheck, routesOf, type TrainingCheck } from '@sertifikasi/shared-contracts/public';
import { LANG_STORAGE_KEY } from '../features/check/language';
import { screens } from '../routes';

const CompanyPage = screens['/check-certification-company'];
const TrainingPage = screens['/check-certification-training'];

const ACTIVE: CompanyCheck = {
  cert_number: 'QMS/2024/001',
  name: 'PT Maju Bersama',
  address: 'Jl. Merdeka No. 10, Jakarta',
  scope: 'Produksi makanan ringan',
  ea_code: 'EA 03',
  standard: 'ISO 9001:2015',
  accreditation: 'KAN',
  issue_date: '2024-03-05',
  original_issue_date: null,
  expired_date: '2027-03-05',
  surveillance_date: '2025-03-05',
  status: 'ACTIVE',
  desc: null,
  simple_dates: false,
  public_certificate_download: true,
  download_id: '3f2a6c1e-0000-4000-8000-000000000001',
  history: [{ status: 'ACTIVE', from: '2024-03-05' }],
  on: null,
};
const TRAINING: TrainingCheck = {
  name: 'Siti Nurhaliza',
  certificate_number: 'TRN/HSE/2024/07',
  training: 'Ahli K3 Umum',
  location: 'Bandung',
  date: '2024-07-15',
};

/** The network edge: answers by path; records every URL asked. */
let asked: string[] = [];
function fakeApi(answer: (url: string) => { status: number; body: unknown }) {
  asked = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    asked.push(url);
    const { status, body } = answer(url);
    return typeof body === 'string'
      ? new Response(body, { status, headers: { 'content-type': 'text/plain' } })
      : Response.json(body, { status });
  }) as typeof fetch;
}

const at = (search: string) => window.history.replaceState(null, '', `/check-certification-company${search}`);

beforeEach(() => {
  window.localStorage.clear();
  at('');
});

const rowValue = (label: string) => {
  const header = screen.getByRole('rowheader', { name: label });
  return within(header.closest('tr')!).getByRole('cell').textContent;
};

describe('the route registry', () => {
  it('has a screen for every path it gives this module', () => {
    expect(Object.keys(screens).sort()).toEqual(
      routesOf('mf_public_check')
        .map((r) => r.path)
        .sort(),
    );
  });
});

describe('company check (/check-certification-company)', () => {
  it("opens in English with 'Verify', checks the number as typed (each / as +) and shows every row of an ACTIVE certificate", async () => {
    fakeApi(() => ({ status: 200, body: ACTIVE }));
    render(<CompanyPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Company Certificate Check' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Certificate Number'), 'QMS/2024/001');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This certificate is valid.')).toBeInTheDocument();
    expect(asked).toEqual(['/api/check-certificate-company/QMS+2024+001']);
    expect(rowValue('Cert No.')).toBe('QMS/2024/001');
    expect(rowValue('Company')).toBe('PT Maju Bersama');
    expect(rowValue('Address')).toBe('Jl. Merdeka No. 10, Jakarta');
    expect(rowValue('Scope')).toBe('Produksi makanan ringan');
    expect(rowValue('EA Code')).toBe('EA 03');
    expect(rowValue('Standard')).toBe('ISO 9001:2015');
    expect(rowValue('Accreditation')).toBe('KAN');
    expect(rowValue('Date of Issue of Original Certificate')).toBe('05 March 2024');
    expect(rowValue('Date of Issue of Latest')).toBe('05 March 2024');
    expect(rowValue('Next Surveillance Date')).toBe('05 March 2025');
    expect(rowValue('Re-certificate Due on')).toBe('05 March 2027');
    expect(rowValue('Status')).toBe('ACTIVE');
    expect(screen.queryByRole('rowheader', { name: 'Description' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download Certificate' })).toHaveAttribute(
      'href',
      `/api/download-certificate/${ACTIVE.download_id}`,
    );
    expect(screen.getByRole('listitem')).toHaveTextContent('ACTIVE since 05 March 2024');
    // Day first, as the page's language writes dates, whatever the browser's locale.
    expect(screen.getByLabelText('Valid on date')).toHaveAttribute('placeholder', 'dd/mm/yyyy');
    expect(screen.getByLabelText('Valid on date')).toHaveAccessibleDescription(
      'Day/month/year, for example 21/11/2025.',
    );
    expect(window.location.search).toBe('?cert=QMS%2F2024%2F001');
  });

  it('pre-fills ?cert= and checks on load; simple_dates shows only Issue Date and Expire Date; no download when not offered', async () => {
    fakeApi(() => ({
      status: 200,
      body: { ...ACTIVE, simple_dates: true, download_id: null, public_certificate_download: false },
    }));
    at('?cert=QMS%2F2024%2F001');
    render(<CompanyPage />);
    expect(screen.getByLabelText('Certificate Number')).toHaveValue('QMS/2024/001');
    expect(await screen.findByRole('rowheader', { name: 'Issue Date' })).toBeInTheDocument();
    expect(asked).toEqual(['/api/check-certificate-company/QMS+2024+001']);
    expect(rowValue('Expire Date')).toBe('05 March 2027');
    expect(screen.queryByRole('rowheader', { name: 'Next Surveillance Date' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download Certificate' })).not.toBeInTheDocument();
  });

  it('shows a not-ACTIVE certificate with its status flag and description, without the ACTIVE-only rows', async () => {
    fakeApi(() => ({
      status: 200,
      body: { ...ACTIVE, status: 'SUSPENDED', desc: 'Dibekukan sementara', download_id: null },
    }));
    at('?cert=QMS-1');
    render(<CompanyPage />);
    expect(await screen.findByText('This certificate is not valid (status: SUSPENDED).')).toBeInTheDocument();
    expect(rowValue('Company')).toBe('PT Maju Bersama');
    expect(rowValue('Status')).toBe('SUSPENDED');
    expect(rowValue('Description')).toBe('Dibekukan sementara');
    for (const hidden of [
      'Cert No.',
      'Scope',
      'EA Code',
      'Standard',
      'Accreditation',
      'Re-certificate Due on',
    ]) {
      expect(screen.queryByRole('rowheader', { name: hidden })).not.toBeInTheDocument();
    }
  });

  it('says plainly that an expired certificate expired, and until when it was valid, like its history', async () => {
    fakeApi(() => ({
      status: 200,
      body: {
        ...ACTIVE,
        status: 'EXPIRED',
        desc: null,
        download_id: null,
        history: [
          { status: 'ACTIVE', from: '2024-03-05' },
          { status: 'EXPIRED', from: '2027-03-06' },
        ],
      },
    }));
    at('?cert=QMS-1');
    render(<CompanyPage />);
    // 05 March 2027 is the expiry date: the last day it was valid; EXPIRED from the next day.
    expect(
      await screen.findByText('This certificate has expired. It was valid until 05 March 2027.'),
    ).toBeInTheDocument();
    expect(rowValue('Status')).toBe('EXPIRED');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'ACTIVE since 05 March 2024',
      'EXPIRED since 06 March 2027',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
    expect(
      screen.getByText('Sertifikat ini telah kadaluarsa. Berlaku sampai 05 Maret 2027.'),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'AKTIF sejak 05 Maret 2024',
      'KADALUARSA sejak 06 Maret 2027',
    ]);
  });

  it("shows the 'not found' box for an unknown number", async () => {
    fakeApi(() => ({ status: 404, body: 'NOT FOUND' }));
    render(<CompanyPage />);
    await userEvent.type(screen.getByLabelText('Certificate Number'), 'NOPE');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Certificate Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/contact our customer support/)).toBeInTheDocument();
  });

  it('answers "valid on date" from ?on=', async () => {
    fakeApi((url) =>
      url.includes('?on=')
        ? { status: 200, body: { ...ACTIVE, on: { date: '2024-06-01', status: 'SUSPENDED', valid: false } } }
        : { status: 200, body: ACTIVE },
    );
    at('?cert=QMS%2F2024%2F001');
    render(<CompanyPage />);
    const date = await screen.findByLabelText('Valid on date');
    await userEvent.type(date, '01/06/2024');
    await userEvent.click(screen.getByRole('button', { name: 'Check Date' }));
    expect(
      await screen.findByText('On 01 June 2024 this certificate was not valid (status: SUSPENDED).'),
    ).toBeInTheDocument();
    expect(asked.at(-1)).toBe('/api/check-certificate-company/QMS+2024+001?on=2024-06-01');
  });

  describe('the "valid on date" field reads the date day first, in the page\'s language', () => {
    const onAnswer = () =>
      fakeApi((url) => {
        const on = /[?&]on=([^&]+)/.exec(url)?.[1];
        return on
          ? { status: 200, body: { ...ACTIVE, on: { date: on, status: 'ACTIVE', valid: true } } }
          : { status: 200, body: ACTIVE };
      });
    const onAsked = () => asked.filter((url) => url.includes('?on='));

    it("in English (dd/mm/yyyy, not the browser's mm/dd/yyyy), used with the keyboard alone", async () => {
      onAnswer();
      at('?cert=QMS%2F2024%2F001');
      render(<CompanyPage />);
      await screen.findByText('This certificate is valid.');
      const field = screen.getByLabelText('Valid on date');
      for (let i = 0; i < 20 && document.activeElement !== field; i++) await userEvent.tab();
      expect(field).toHaveFocus();
      await userEvent.keyboard('05/03/2027{Enter}');
      expect(await screen.findByText('On 05 March 2027 this certificate was valid.')).toBeInTheDocument();
      expect(onAsked()).toEqual(['/api/check-certificate-company/QMS+2024+001?on=2027-03-05']);
      // The button too: Tab from the field, then Space.
      await userEvent.clear(field);
      await userEvent.keyboard('21112025');
      await userEvent.tab();
      expect(screen.getByRole('button', { name: 'Check Date' })).toHaveFocus();
      await userEvent.keyboard(' ');
      expect(await screen.findByText('On 21 November 2025 this certificate was valid.')).toBeInTheDocument();
      expect(onAsked().at(-1)).toBe('/api/check-certificate-company/QMS+2024+001?on=2025-11-21');
    });

    it('in Indonesian (hh/bb/tttt)', async () => {
      window.localStorage.setItem(LANG_STORAGE_KEY, 'id');
      onAnswer();
      at('?cert=QMS%2F2024%2F001');
      render(<CompanyPage />);
      await screen.findByText('Sertifikat ini berlaku.');
      const field = screen.getByLabelText('Berlaku pada tanggal');
      expect(field).toHaveAttribute('placeholder', 'hh/bb/tttt');
      expect(field).toHaveAccessibleDescription('Tulis hari/bulan/tahun, misalnya 21/11/2025.');
      await userEvent.type(field, '5-3-2027{Enter}');
      expect(await screen.findByText('Pada 05 Maret 2027 sertifikat ini berlaku.')).toBeInTheDocument();
      expect(onAsked()).toEqual(['/api/check-certificate-company/QMS+2024+001?on=2027-03-05']);
    });

    it('says what to write, and asks nothing, for a text that is no date (a month-first date included)', async () => {
      onAnswer();
      at('?cert=QMS%2F2024%2F001');
      render(<CompanyPage />);
      await screen.findByText('This certificate is valid.');
      const field = screen.getByLabelText('Valid on date');
      for (const text of ['11/21/2025', '31/02/2025', 'kemarin', '']) {
        await userEvent.clear(field);
        if (text) await userEvent.type(field, text);
        await userEvent.click(screen.getByRole('button', { name: 'Check Date' }));
        const message = 'Not a date this page can read. Write day/month/year, for example 21/11/2025.';
        expect(screen.getByText(message)).toBeInTheDocument();
        expect(field).toHaveAttribute('aria-invalid', 'true');
        expect(field).toHaveAccessibleDescription(`Day/month/year, for example 21/11/2025. ${message}`);
      }
      expect(onAsked()).toEqual([]);
      await userEvent.clear(field);
      await userEvent.type(field, '21/11/2025{Enter}');
      expect(await screen.findByText('On 21 November 2025 this certificate was valid.')).toBeInTheDocument();
      expect(screen.queryByText(/Not a date this page can read/)).not.toBeInTheDocument();
      expect(field).toHaveAttribute('aria-invalid', 'false');
    });
  });

  it('switches wholly to Indonesian, and remembers the choice', async () => {
    fakeApi(() => ({ status: 200, body: ACTIVE }));
    at('?cert=QMS%2F2024%2F001');
    const { unmount } = render(<CompanyPage />);
    await screen.findByText('This certificate is valid.');
    await userEvent.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Cek Sertifikat Perusahaan' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bahasa Indonesia' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Verifikasi' })).toBeInTheDocument();
    expect(screen.getByText('Sertifikat ini berlaku.')).toBeInTheDocument();
    expect(rowValue('No. Sertifikat')).toBe('QMS/2024/001');
    expect(rowValue('Perusahaan')).toBe('PT Maju Bersama');
    expect(rowValue('Ruang Lingkup')).toBe('Produksi makanan ringan');
    expect(rowValue('Tanggal Terbit Sertifikat Asli')).toBe('05 Maret 2024');
    expect(rowValue('Jatuh Tempo Sertifikasi Ulang')).toBe('05 Maret 2027');
    expect(rowValue('Status')).toBe('AKTIF');
    expect(screen.getByRole('link', { name: 'Unduh Sertifikat' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Riwayat Status' })).toBeInTheDocument();
    expect(screen.getByLabelText('Berlaku pada tanggal')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'id');
    expect(window.localStorage.getItem(LANG_STORAGE_KEY)).toBe('id');
    unmount();
    render(<CompanyPage />);
    expect(await screen.findByText('Sertifikat ini berlaku.')).toBeInTheDocument();
  });

  it('sends an empty number as typed (no emptiness check) and shows the not-found box', async () => {
    fakeApi(() => ({ status: 422, body: { code: 'validation', message: 'x' } }));
    render(<CompanyPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Certificate Not Found' })).toBeInTheDocument();
    expect(asked).toEqual(['/api/check-certificate-company/']);
  });

  it("shows Indonesian 'Sertifikat Tidak Ditemukan' in Indonesian", async () => {
    window.localStorage.setItem(LANG_STORAGE_KEY, 'id');
    fakeApi(() => ({ status: 404, body: 'NOT FOUND' }));
    at('?cert=NOPE');
    render(<CompanyPage />);
    expect(await screen.findByRole('heading', { name: 'Sertifikat Tidak Ditemukan' })).toBeInTheDocument();
    expect(screen.getByText(/hubungi layanan pelanggan/)).toBeInTheDocument();
  });

  it('tells the reader when the check could not be made (too many checks)', async () => {
    fakeApi(() => ({ status: 429, body: { code: 'too-many-requests', message: 'x' } }));
    at('?cert=A');
    render(<CompanyPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many checks from your network');
  });

  it('can be used with the keyboard alone', async () => {
    fakeApi(() => ({ status: 200, body: ACTIVE }));
    render(<CompanyPage />);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Bahasa Indonesia' })).toHaveFocus();
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByLabelText('Certificate Number')).toHaveFocus();
    await userEvent.keyboard('QMS/2024/001{Enter}');
    expect(await screen.findByText('This certificate is valid.')).toBeInTheDocument();
  });
});

describe('training check (/check-certification-training)', () => {
  it("opens in Indonesian with 'Verifikasi' and shows the five rows", async () => {
    fakeApi(() => ({ status: 200, body: TRAINING }));
    window.history.replaceState(null, '', '/check-certification-training');
    render(<TrainingPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Cek Sertifikat Pelatihan' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Nomor Sertifikat'), 'TRN/HSE/2024/07');
    await userEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    expect(await screen.findByRole('rowheader', { name: 'Nama' })).toBeInTheDocument();
    expect(asked).toEqual(['/api/check-certificate-training/TRN+HSE+2024+07']);
    expect(rowValue('Nama')).toBe('Siti Nurhaliza');
    expect(rowValue('Nomor Sertifikat')).toBe('TRN/HSE/2024/07');
    expect(rowValue('Pelatihan')).toBe('Ahli K3 Umum');
    expect(rowValue('Lokasi')).toBe('Bandung');
    expect(rowValue('Tanggal Terbit Sertifikat')).toBe('15 Juli 2024');
  });

  it('reads Name, Certificate Number, Training, Location, Certificate Issue Date in English', async () => {
    fakeApi(() => ({ status: 200, body: TRAINING }));
    window.history.replaceState(null, '', '/check-certification-training?cert=TRN%2FHSE%2F2024%2F07');
    render(<TrainingPage />);
    await screen.findByRole('rowheader', { name: 'Nama' });
    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Training Certificate Check' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeInTheDocument();
    expect(rowValue('Name')).toBe('Siti Nurhaliza');
    expect(rowValue('Certificate Number')).toBe('TRN/HSE/2024/07');
    expect(rowValue('Training')).toBe('Ahli K3 Umum');
    expect(rowValue('Location')).toBe('Bandung');
    expect(rowValue('Certificate Issue Date')).toBe('15 July 2024');
  });

  it("shows 'Sertifikat Tidak Ditemukan' for an unknown number, and 'Certificate Not Found' in English", async () => {
    fakeApi(() => ({ status: 404, body: 'NOT FOUND' }));
    window.history.replaceState(null, '', '/check-certification-training?cert=NOPE');
    render(<TrainingPage />);
    expect(await screen.findByRole('heading', { name: 'Sertifikat Tidak Ditemukan' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByRole('heading', { name: 'Certificate Not Found' })).toBeInTheDocument();
  });
});
