import Stack from '@mui/material/Stack';
import {
  type User,
  userCreateSchema,
  userUpdateSchema,
  ALL,
  serializeCompanyIds,
} from '@sertifikasi/shared-contracts';
import { authStore, refreshUserInfo } from '@sertifikasi/shared-auth';
import {
  ActiveBadge,
  PasswordInput,
  useLookupOptions,
  type ResourceConfig,
  type ResourceFieldsProps,
  SelectInput,
  SwitchInput,
  TextInput,
} from '@sertifikasi/shared-ui';
import { CompanyAccessInput } from '../../components/CompanyAccessInput';
import { t } from '../../i18n/id';

export interface UserFormValues {
  name: string;
  username: string;
  email: string;
  password: string;
  roles_id: string;
  company_ids: string;
  is_active: 'true' | 'false';
}

function UserFields({ mode }: ResourceFieldsProps<User>) {
  const { options: roles } = useLookupOptions('select/roles');
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextInput name="name" label={t.users.name} required />
      <TextInput name="username" label={t.users.username} required autoComplete="off" />
      <TextInput name="email" label={t.users.email} type="email" helperText={t.users.emailHint} />
      <PasswordInput
        name="password"
        label={t.users.password}
        required={mode === 'create'}
        helperText={mode === 'edit' ? t.users.passwordEditHint : undefined}
      />
      <SelectInput name="roles_id" label={t.users.role} required options={roles} />
      <CompanyAccessInput />
      <SwitchInput name="is_active" label={t.users.active} />
    </Stack>
  );
}

/** Users: name, username, access role or '-', status badge. */
export const userResource: ResourceConfig<User, UserFormValues> = {
  title: t.users.title,
  entityLabel: t.users.entity,
  endpoint: 'user',
  module: 'user',
  searchPlaceholder: t.users.search,
  columns: [
    { header: t.users.name, render: (u) => u.name },
    { header: t.users.username, render: (u) => u.username },
    { header: t.users.role, render: (u) => u.roles?.name ?? '-' },
    { header: t.users.status, render: (u) => <ActiveBadge active={u.is_active} /> },
  ],
  form: {
    initialValues: (u) => ({
      name: u?.name ?? '',
      username: u?.username ?? '',
      email: u?.email ?? '',
      password: '',
      roles_id: u?.roles_id ?? '',
      // A new user gets the creator's own scope when that is ALL, otherwise a choice to make.
      company_ids: serializeCompanyIds(
        u?.company_ids ?? (authStore.getState().company_ids === ALL ? ALL : []),
      ),
      is_active: u?.is_active ?? 'true',
    }),
    schema: (mode) => (mode === 'create' ? userCreateSchema : userUpdateSchema),
    Fields: UserFields,
    // A blank password on edit keeps the current one.
    toBody: ({ password, ...rest }) => (password ? { ...rest, password } : rest),
    width: 650,
  },
  // Editing one's own access changes the companies and menu the shell shows.
  afterChange: refreshUserInfo,
};
