import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import * as yup from 'yup';
import { MESSAGES, V, type PermissionKey } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { AppThemeProvider, hideToast, ToastHost } from '@sertifikasi/shared-ui/core';
import { TextInput } from '../form/TextInput';
import { deferred, fakeApi, type Answer } from '../test/fakeApi';
import type { ResourceFormConfig } from '../resource/types';
import { ChildSection } from './ChildSection';
import { DetailField, DetailGrid } from './DetailField';
import { RecordView } from './RecordView';
import { useRecord } from './useRecord';

interface Scheme {
  id: string;
  cert_number: string;
  status: string;
}
interface Client {
  id: string;
  name: string;
  region: string | null;
  email: string;
  employees_number: number | null;
  schema: Scheme[];
}

const client = (schemes: Scheme[] = []): Client => ({
  id: 'k-1',
  name: 'PT Maju Jaya',
  region: null,
  email: '  ',
  employees_number: 0,
  schema: schemes,
});
const scheme = (n: number): Scheme => ({ id: `s-${n}`, cert_number: `QMS/00${n}`, status: 'ACTIVE' });

const schemeForm: ResourceFormConfig<Scheme, { cert_number: string; certificate_id: string }> = {
  initialValues: (s) => ({ cert_number: s?.cert_number ?? '', certificate_id: 'k-1' }),
  schema: () =>
    yup.object({
      cert_number: yup.string().required(V.required('Nomor Sertifikat')),
      certificate_id: yup.string(),
    }),
  Fields: () => <TextInput name="cert_number" label="Nomor Sertifikat" required />,
};

/** A detail page made of the kit, as a module would write one. */
function ClientPage({ id }: { id: string }) {
  const state = useRecord<Client>(`company-certificate/ALL/${id}`);
  return (
    <RecordView state={state}>
      {(record) => (
        <>
          <h1>{record.name}</h1>
          <DetailGrid>
            <DetailField label="Nama Klien" value={record.name} />
            <DetailField label="Region" value={record.region} />
            <DetailField label="Email" value={record.email} />
            <DetailField label="Jumlah Karyawan" value={record.employees_number} />
          </DetailGrid>
          <ChildSection
            title="Skema Sertifikasi"
            items={record.schema}
            itemTitle={(s) => s.cert_number}
            renderItem={(s) => (
              <DetailGrid>
                <DetailField label="Status" value={s.status} />
              </DetailGrid>
            )}
            entityLabel="Skema Sertifikasi"
            endpoint="company-certificate-scheme"
            form={schemeForm}
            module="company-certificate"
            onChange={state.reload}
          />
        </>
      )}
    </RecordView>
  );
}

const GET = 'GET /api/company-certificate/ALL/k-1';
const ALL_ACTIONS: PermissionKey[] = [
  'company-certificate',
  'company-certificate:create',
  'company-certificate:edit',
  'company-certificate:delete',
];

function signIn(roles: PermissionKey[] = ALL_ACTIONS) {
  authStore.setState({ token: 'token', roles, company_ids: 'ALL', companies: [], company_id: 'ALL' });
}

beforeEach(() => {
  signIn();
  act(() => hideToast());
});

function renderPage(id = 'k-1') {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <AppThemeProvider>
        <ClientPage id={id} />
        <ToastHost />
      </AppThemeProvider>
    </MemoryRouter>,
  );
  return user;
}

/** The value shown for a label of a DetailGrid. */
const valueOf = (label: string, inside: HTMLElement = document.body) =>
  within(inside)
    .getAllByRole('term')
    .find((term) => term.textContent === label)!.nextElementSibling!.textContent;

describe('useRecord + RecordView', () => {
  it('shows progress while loading, then the record', async () => {
    const answer = deferred<Answer>();
    fakeApi({ [GET]: () => answer.promise });
    renderPage();
    expect(screen.getByRole('progressbar', { name: 'Mempersiapkan Data' })).toBeInTheDocument();
    await act(async () => answer.resolve({ body: client() }));
    expect(await screen.findByRole('heading', { name: 'PT Maju Jaya' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it("shows 'Opps, Data Tidak Ditemukan' for an unknown or out-of-scope record (404)", async () => {
    fakeApi({ [GET]: { status: 404, body: { code: 'not-found', message: 'Data tidak ditemukan' } } });
    renderPage();
    expect(await screen.findByText('Opps, Data Tidak Ditemukan')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'PT Maju Jaya' })).not.toBeInTheDocument();
    // Not a toast: the page says it in place.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says 'Maaf, ada kesalahan pada sistem' when loading fails, and 'Coba Lagi' loads again", async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let attempt = 0;
    fakeApi({
      [GET]: () =>
        ++attempt === 1 ? { status: 500, body: { code: 'internal', message: 'x' } } : { body: client() },
    });
    const user = renderPage();
    expect(await screen.findByText(MESSAGES.systemError)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Coba Lagi' }));
    expect(await screen.findByRole('heading', { name: 'PT Maju Jaya' })).toBeInTheDocument();
    error.mockRestore();
  });
});

describe('DetailGrid + DetailField', () => {
  it("shows each label with its value, '-' for null or blank, and 0 as 0", async () => {
    fakeApi({ [GET]: { body: client() } });
    renderPage();
    await screen.findByRole('heading', { name: 'PT Maju Jaya' });
    expect(valueOf('Nama Klien')).toBe('PT Maju Jaya');
    expect(valueOf('Region')).toBe('-');
    expect(valueOf('Email')).toBe('-');
    expect(valueOf('Jumlah Karyawan')).toBe('0');
  });
});

describe('ChildSection', () => {
  it("shows one card per child, and 'Opps, Data Masih Kosong' without any", async () => {
    fakeApi({ [GET]: { body: client([scheme(1), scheme(2)]) } });
    renderPage();
    const section = await screen.findByRole('region', { name: 'Skema Sertifikasi' });
    const cards = within(section).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['QMS/001', 'QMS/002']);
    expect(within(cards[0]!).getByRole('heading', { name: 'QMS/001' })).toBeInTheDocument();
    expect(valueOf('Status', cards[0])).toBe('ACTIVE');
  });

  it('adds a child through the form modal and reloads the parent', async () => {
    let schemes = [scheme(1)];
    const api = fakeApi({
      [GET]: () => ({ body: client(schemes) }),
      'POST /api/company-certificate-scheme': (call) => {
        schemes = [
          ...schemes,
          { ...scheme(2), cert_number: (call.json as { cert_number: string }).cert_number },
        ];
        return { status: 201, body: schemes.at(-1) };
      },
    });
    const user = renderPage();
    await screen.findByRole('article', { name: 'QMS/001' });
    await user.click(screen.getByRole('button', { name: 'Tambah Skema Sertifikasi' }));
    const dialog = screen.getByRole('dialog', { name: 'Tambah Skema Sertifikasi' });
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Nomor Sertifikat wajib diisi')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Nomor Sertifikat' }), 'QMS/777');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));

    expect(await screen.findByRole('article', { name: 'QMS/777' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.created);
    expect(api.callsTo('POST', '/api/company-certificate-scheme')[0]!.json).toEqual({
      cert_number: 'QMS/777',
      certificate_id: 'k-1',
    });
  });

  it('edits a child with PUT and deletes one after the confirmation', async () => {
    let schemes = [scheme(1), scheme(2)];
    const api = fakeApi({
      [GET]: () => ({ body: client(schemes) }),
      'PUT /api/company-certificate-scheme/s-1': (call) => {
        schemes = schemes.map((s) => (s.id === 's-1' ? { ...s, ...(call.json as Partial<Scheme>) } : s));
        return { body: schemes[0] };
      },
      'DELETE /api/company-certificate-scheme/s-2': () => {
        schemes = schemes.filter((s) => s.id !== 's-2');
        return { body: { success: true, message: MESSAGES.deleted } };
      },
    });
    const user = renderPage();
    const card = await screen.findByRole('article', { name: 'QMS/001' });
    await user.click(within(card).getByRole('button', { name: 'Ubah' }));
    const dialog = screen.getByRole('dialog', { name: 'Ubah Skema Sertifikasi' });
    const input = within(dialog).getByRole('textbox', { name: 'Nomor Sertifikat' });
    expect(input).toHaveValue('QMS/001');
    await user.clear(input);
    await user.type(input, 'QMS/100');
    await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await screen.findByRole('article', { name: 'QMS/100' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.updated);

    await user.click(
      within(screen.getByRole('article', { name: 'QMS/002' })).getByRole('button', { name: 'Hapus' }),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' })).getByRole(
        'button',
        {
          name: 'Yakin',
        },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('article', { name: 'QMS/002' })).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.deleted);
    expect(api.callsTo('DELETE', '/api/company-certificate-scheme/s-2')).toHaveLength(1);
  });

  it('offers Tambah with create, Ubah with edit and Hapus with delete only', async () => {
    signIn(['company-certificate', 'company-certificate:edit']);
    fakeApi({ [GET]: { body: client([scheme(1)]) } });
    renderPage();
    const card = await screen.findByRole('article', { name: 'QMS/001' });
    expect(screen.queryByRole('button', { name: 'Tambah Skema Sertifikasi' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Ubah' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Hapus' })).not.toBeInTheDocument();

    act(() => signIn(['company-certificate']));
    expect(within(card).queryByRole('button', { name: 'Ubah' })).not.toBeInTheDocument();
  });
});
