import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import * as yup from 'yup';
import { V } from '@sertifikasi/shared-contracts';
import { authStore } from '@sertifikasi/shared-auth';
import { FormModal } from '../modal/FormModal';
import { CompanyInput } from './CompanyInput';
import { MultiSelectInput } from './MultiSelectInput';
import { PasswordInput } from './PasswordInput';
import { SelectInput } from './SelectInput';
import { SwitchInput } from './SwitchInput';
import { useLookupOptions } from './useLookupOptions';
import { fakeApi } from '../test/fakeApi';
import { ActiveBadge, NameWithImage } from '../display';

/** A form in a modal, as the screens use them; resolves the submitted values. */
function renderForm(
  initialValues: Record<string, unknown>,
  children: ReactNode,
  schema?: yup.AnyObjectSchema,
) {
  const onSubmit = jest.fn<void, [Record<string, unknown>]>();
  const user = userEvent.setup();
  render(
    <FormModal
      open
      title="Uji Form"
      onClose={() => undefined}
      initialValues={initialValues}
      validationSchema={schema}
      onSubmit={(values) => onSubmit(values)}
    >
      {children}
    </FormModal>,
  );
  const submit = async () => {
    await user.click(screen.getByRole('button', { name: 'Simpan Data' }));
  };
  return { user, onSubmit, submit };
}

const ROLES = [
  { value: 'r1', label: 'Administrator' },
  { value: 'r2', label: 'Staf' },
];

describe('form pieces', () => {
  it('names the dialog by its title and moves focus into it', async () => {
    renderForm({}, null);
    const dialog = screen.getByRole('dialog', { name: 'Uji Form' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  });

  it('SelectInput: a labelled select named by the API field, with the schema error under it', async () => {
    const schema = yup.object({ roles_id: yup.string().required(V.required('Akses User')) });
    const { user, onSubmit, submit } = renderForm(
      { roles_id: '' },
      <SelectInput name="roles_id" label="Akses User" options={ROLES} />,
      schema,
    );
    const select = screen.getByRole('combobox', { name: 'Akses User' });
    expect(select).toHaveAttribute('name', 'roles_id');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['- Pilih -', 'Administrator', 'Staf']);

    await submit();
    expect(await screen.findByText('Akses User wajib diisi')).toBeInTheDocument();
    expect(select).toHaveAccessibleDescription('Akses User wajib diisi');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.selectOptions(select, 'Staf');
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ roles_id: 'r2' }));
  });

  it("SwitchInput: a labelled switch writing the flags 'true' / 'false'", async () => {
    const { user, onSubmit, submit } = renderForm(
      { is_active: 'true' },
      <SwitchInput name="is_active" label="Status Aktif" />,
    );
    const toggle = screen.getByRole('switch', { name: 'Status Aktif' });
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAttribute('name', 'is_active');
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ is_active: 'false' }));
  });

  it('PasswordInput: hidden by default, shown on request', async () => {
    const { user } = renderForm({ password: '' }, <PasswordInput name="password" label="Password" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('name', 'password');
    await user.click(screen.getByRole('button', { name: 'Tampilkan password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Sembunyikan password' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('MultiSelectInput: chooses several values by typing, as an array of ids', async () => {
    const options = Array.from({ length: 300 }, (_, i) => ({ value: `c${i}`, label: `PT Nomor ${i}` }));
    const { user, onSubmit, submit } = renderForm(
      { company_ids: ['c1'] },
      <MultiSelectInput name="company_ids" label="Akses Perusahaan" options={options} />,
    );
    const input = screen.getByRole('combobox', { name: 'Akses Perusahaan' });
    expect(screen.getByRole('button', { name: 'PT Nomor 1' })).toBeInTheDocument(); // the chip
    await user.type(input, 'Nomor 250');
    await user.click(await screen.findByRole('option', { name: 'PT Nomor 250' }));
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ company_ids: ['c1', 'c250'] }));
  });

  it('CompanyInput: shown only when the selected company is ALL, offering the pickable companies', async () => {
    authStore.setState({
      companies: [
        { id: 'c-alpha', name: 'PT Alpha' },
        { id: 'c-beta', name: 'PT Beta' },
      ],
      company_id: 'c-alpha',
    });
    const { user } = renderForm({ company_id: '' }, <CompanyInput />);
    expect(screen.queryByRole('combobox', { name: 'Perusahaan' })).not.toBeInTheDocument();

    act(() => authStore.setState({ company_id: 'ALL' }));
    const input = screen.getByRole('combobox', { name: 'Perusahaan' });
    expect(input).toHaveAttribute('name', 'company_id');
    await user.click(input);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['PT Alpha', 'PT Beta']);
  });
});

function RoleSelect() {
  const { options } = useLookupOptions('select/roles');
  return <SelectInput name="roles_id" label="Akses User" options={options} />;
}

describe('lookups and list cells', () => {
  it('useLookupOptions fills a select from a select/... endpoint', async () => {
    const api = fakeApi({
      'GET /api/select/roles': {
        body: [
          { id: 'r1', name: 'Administrator' },
          { id: 'r2', name: 'Staf' },
        ],
      },
    });
    renderForm({ roles_id: '' }, <RoleSelect />);
    const select = screen.getByRole('combobox', { name: 'Akses User' });
    expect(await within(select).findByRole('option', { name: 'Staf' })).toHaveValue('r2');
    expect(api.calls).toHaveLength(1);
  });

  it("ActiveBadge reads 'Aktif' or 'Tidak Aktif'; NameWithImage shows the name", () => {
    render(
      <>
        <ActiveBadge active="true" />
        <ActiveBadge active="false" />
        <NameWithImage name="PT Alpha" image="alpha.png" />
      </>,
    );
    expect(screen.getByText('Aktif')).toBeInTheDocument();
    expect(screen.getByText('Tidak Aktif')).toBeInTheDocument();
    expect(screen.getByText('PT Alpha')).toBeInTheDocument();
  });
});
