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
    expect(within(row).getByText('ISO 9001 · Lead Auditor · EA 28, 33')).toBeInTheDocument();
    expect(within(row).getByText('Aktif')).toBeInTheDocument();
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
