/**
 * The resource screen's tests' world (ResourceScreen.test.tsx, ResourceScreen.form.test.tsx): a
 * made-up entity described the way the modules describe theirs, the signed-in user, the faked list
 * endpoint, and ways to find things on the screen. Test code only.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import * as yup from 'yup';
import { toListResponse, V, type PermissionKey } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { AppThemeProvider, ToastHost } from '@sertifikasi/shared-ui/core';
import { CompanyInput } from '../form/CompanyInput';
import { ImageInput } from '../form/ImageInput';
import { TextInput } from '../form/TextInput';
import { type Answer, type Call } from './fakeApi';
import { ResourceScreen } from '../resource/ResourceScreen';
import type { FormMode, ResourceConfig, ResourceFieldsProps } from '../resource/types';

// ---------------------------------------------------------------------------------------------------
// A made-up entity, described the way the modules describe theirs.

export interface Barang {
  id: string;
  name: string;
  code: string;
  logo: string | null;
  company_id: string;
  company: { name: string } | null;
}

export interface BarangValues {
  name: string;
  code: string;
  company_id: string;
  logo?: string;
  logo_file?: File | null;
}

export const schema = (mode: FormMode) =>
  yup.object({
    name: yup.string().required(V.required('Nama')),
    // Required when adding only: the screen must pick the schema by mode.
    code: mode === 'create' ? yup.string().required(V.required('Kode')) : yup.string(),
    company_id: yup.string(),
    logo: yup.string().nullable(),
    logo_file: yup.mixed().nullable(),
  });

export function BarangFields({ mode }: ResourceFieldsProps<Barang>) {
  return (
    <>
      <TextInput name="name" label="Nama" required />
      <TextInput name="code" label="Kode" required={mode === 'create'} />
      <CompanyInput />
    </>
  );
}

export const barangConfig: ResourceConfig<Barang, BarangValues> = {
  title: 'Daftar Barang',
  entityLabel: 'Barang',
  endpoint: 'barang',
  module: 'accredited',
  searchPlaceholder: 'Cari Barang',
  columns: [
    { header: 'Nama', render: (b) => b.name },
    { header: 'Kode', render: (b) => b.code },
  ],
  form: {
    initialValues: (b) => ({ name: b?.name ?? '', code: b?.code ?? '', company_id: b?.company_id ?? '' }),
    schema,
    Fields: BarangFields,
  },
};

export const scopedConfig: ResourceConfig<Barang, BarangValues> = { ...barangConfig, companyScoped: true };

export function LogoFields(props: ResourceFieldsProps<Barang>) {
  return (
    <>
      <BarangFields {...props} />
      <ImageInput name="logo" label="Logo" />
    </>
  );
}

export const multipartConfig: ResourceConfig<Barang, BarangValues> = {
  ...barangConfig,
  companyScoped: true,
  form: {
    ...barangConfig.form!,
    initialValues: (b) => ({
      name: b?.name ?? '',
      code: b?.code ?? '',
      company_id: b?.company_id ?? '',
      logo: b?.logo ?? '',
      logo_file: null,
    }),
    Fields: LogoFields,
    multipart: true,
  },
};

// ---------------------------------------------------------------------------------------------------
// The world around the screen: the signed-in user and the API.

export const COMPANIES = [
  { id: 'c-alpha', name: 'PT Alpha' },
  { id: 'c-beta', name: 'PT Beta' },
];
export const ALL_ACTIONS: PermissionKey[] = [
  'accredited',
  'accredited:create',
  'accredited:edit',
  'accredited:delete',
];

export function signIn(roles: PermissionKey[] = ALL_ACTIONS, companyId: string | null = 'ALL') {
  authStore.setState({
    token: 'token',
    roles,
    company_ids: 'ALL',
    companies: COMPANIES,
    company_id: companyId,
  });
}

export const barang = (i: number): Barang => ({
  id: `id-${i}`,
  name: `Barang ${i}`,
  code: `B${i}`,
  logo: i === 1 ? 'logo-1.png' : null,
  company_id: 'c-alpha',
  company: { name: 'PT Alpha' },
});
export const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => barang(i + 1));

/** The list endpoint over `rows`, honouring page and paginate like the API. */
export const listOf =
  (rows: Barang[]) =>
  (call: Call): Answer => {
    const page = Number(call.params.get('page'));
    const per = Number(call.params.get('paginate'));
    return { body: toListResponse(rows.slice((page - 1) * per, page * per), rows.length, page, per) };
  };

export const LIST = 'GET /api/barang';

export function renderScreen(config: ResourceConfig<Barang, BarangValues> = barangConfig) {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <AppThemeProvider>
        <ResourceScreen config={config} />
        <ToastHost />
      </AppThemeProvider>
    </MemoryRouter>,
  );
  return user;
}

/** The body rows of the table (the header row left out). */
export const bodyRows = () => screen.getAllByRole('row').slice(1);
export const rowOf = (name: string) => screen.getByText(name).closest('tr')!;
export const columnHeaders = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
export const pageButtons = () =>
  within(screen.getByRole('navigation', { name: 'Navigasi halaman' }))
    .getAllByRole('button', { name: /^Halaman \d+$/ })
    .map((b) => Number(b.textContent));

/** Opens 'Tambah Barang', fills Nama and Kode and presses 'Simpan Data'; returns the dialog. */
export async function addBarang(user: ReturnType<typeof userEvent.setup>, name: string, code: string) {
  await user.click(screen.getByRole('button', { name: 'Tambah Barang' }));
  const dialog = screen.getByRole('dialog', { name: 'Tambah Barang' });
  await user.type(within(dialog).getByRole('textbox', { name: 'Nama' }), name);
  await user.type(within(dialog).getByRole('textbox', { name: 'Kode' }), code);
  await user.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
  return dialog;
}
