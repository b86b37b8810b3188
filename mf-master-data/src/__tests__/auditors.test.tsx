import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { fakeApi, listOf, renderInApp } from '@sertifikasi/shared-ui/test';
import { screens } from '../routes';

const C1 = '00000000-0000-4000-8000-0000000000c1';
const TYPE = '00000000-0000-4000-8000-0000000000b1';
const CLIENT = '00000000-0000-4000-8000-0000000000e1';

beforeEach(() =>
  authStore.setState({
    token: 'T'.repeat(43),
    roles: [...PERMISSION_KEYS],
    company_ids: 'ALL',
    companies: [{ id: C1, name: 'PT Satu' }],
    company_id: C1,
  }),
);

const auditor = {
  id: '00000000-0000-4000-8000-0000000000a1',
  company_id: C1,
  company: { id: C1, name: 'PT Satu' },
  name: 'Lina Lead',
  email: 'lina@auditor.co.id',
  phone: null,
  employment: 'EXTERNAL',
  active: 'true',
  qualifications: [
    {
      certification_id: TYPE,
      certification: 'ISO 9001',
      role: 'LEAD_AUDITOR',
      sector_codes: [28, 33],
      valid_from: '2024-01-01',
      valid_until: null,
    },
  ],
  conflicts: [],
  created_at: '2026-03-01T01:00:00.000Z',
  updated_at: '2026-03-01T01:00:00.000Z',
};
const lookups = {
  certification: [{ id: TYPE, name: 'ISO 9001', company_id: C1, company: { id: C1, name: 'PT Satu' } }],
  company_certificate: [
    { id: CLIENT, name: 'PT Klien', company_id: C1, company: { id: C1, name: 'PT Satu' } },
  ],
};

describe('Auditor screen', () => {
  it('lists each auditor with email, employment, qualifications and status', async () => {
    fakeApi({ 'GET /api/auditor': { body: listOf([auditor]) } });
    const Screen = screens['/auditor'];
    renderInApp(<Screen />);
    const row = (await screen.findByText('Lina Lead')).closest('tr')!;
    expect(within(row).getByText('lina@auditor.co.id')).toBeInTheDocument();
    expect(within(row).getByText('Eksternal')).toBeInTheDocument();
    // A short qualification list is shown whole: its one line, nothing more, no tooltip.
    const cell = within(row).getByText('ISO 9001 · Lead Auditor · EA 28, 33').parentElement;
    expect(cell).toHaveTextContent(/^ISO 9001 · Lead Auditor · EA 28, 33$/);
    expect(cell).not.toHaveAttribute('title');
    expect(within(row).getByText('Aktif')).toBeInTheDocument();
  });

  it('keeps a row to three qualifications of six codes, with the whole list as its title', async () => {
    const codes = [1, 3, 17, 28, 29, 33, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
    const types = [
      'ISO 9001',
      'ISO 14001',
      'ISO 45001',
      'ISO 27001',
      'ISO 22000',
      'ISO 37001',
      'ISO 50001',
      'ISO 13485',
    ];
    const qualifications = types.map((certification, i) => ({
      certification_id: TYPE,
      certification,
      role: i % 2 ? 'AUDITOR' : 'LEAD_AUDITOR',
      sector_codes: codes,
      valid_from: '2020-01-01',
      valid_until: i === 1 ? '2021-12-31' : null,
    }));
    fakeApi({ 'GET /api/auditor': { body: listOf([{ ...auditor, qualifications }]) } });
    const Screen = screens['/auditor'];
    renderInApp(<Screen />);
    const row = (await screen.findByText('Lina Lead')).closest('tr')!;
    const lines = within(row).getAllByText(/ · EA /);
    expect(lines.map((line) => line.textContent)).toEqual([
      'ISO 9001 · Lead Auditor · EA 1, 3, 17, 28, 29, 33 +11',
      'ISO 14001 · Auditor · EA 1, 3, 17, 28, 29, 33 +11 (berakhir)',
      'ISO 45001 · Lead Auditor · EA 1, 3, 17, 28, 29, 33 +11',
    ]);
    expect(within(row).getByText('+5 kualifikasi lainnya')).toBeInTheDocument();
    const all = types.map(
      (type, i) =>
        `${type} · ${i % 2 ? 'Auditor' : 'Lead Auditor'} · EA ${codes.join(', ')}${i === 1 ? ' (berakhir)' : ''}`,
    );
    expect(lines[0]!.parentElement).toHaveAttribute('title', all.join('\n'));
  });

  it('adds an auditor with a qualification row', async () => {
    const api = fakeApi({
      'GET /api/auditor': { body: listOf([]) },
      [`GET /api/select/audit-plan/${C1}`]: { body: lookups },
      'POST /api/auditor': { status: 201, body: auditor },
    });
    const Screen = screens['/auditor'];
    renderInApp(<Screen />);
    await userEvent.click(await screen.findByRole('button', { name: 'Tambah Auditor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tambah Auditor' });
    await userEvent.type(within(dialog).getByLabelText(/^Nama/), 'Lina Lead');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Tambah Kualifikasi' }));
    await within(dialog).findByRole('option', { name: 'ISO 9001' });
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Jenis Sertifikasi/), TYPE);
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Peran/), 'LEAD_AUDITOR');
    await userEvent.type(within(dialog).getByLabelText(/^Berlaku Dari/), '2024-01-01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/auditor')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/auditor')[0]!.json).toMatchObject({
      company_id: C1,
      name: 'Lina Lead',
      employment: 'INTERNAL',
      active: 'true',
      qualifications: [
        {
          certification_id: TYPE,
          role: 'LEAD_AUDITOR',
          sector_codes: [],
          valid_from: '2024-01-01',
          valid_until: null,
        },
      ],
      conflicts: [],
    });
  });
});
