import Stack from '@mui/material/Stack';
import { type Role, roleInputSchema } from '@sertifikasi/shared-contracts';
import { refreshUserInfo } from '@sertifikasi/shared-auth';
import { formatNumber, type ResourceConfig, TextInput, useLookupOptions } from '@sertifikasi/shared-ui';
import { PermissionGrid } from '../../components/PermissionGrid';
import { t } from '../../i18n/id';

export interface RoleFormValues {
  name: string;
  permission: string[];
}

function RoleFields() {
  // Options carry the permission id as value and its key (name) as label.
  const { options } = useLookupOptions('select/permission');
  const permissions = options.map((o) => ({ id: o.value, name: o.label }));
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextInput name="name" label={t.roles.name} required />
      <PermissionGrid permissions={permissions} />
    </Stack>
  );
}

/** Access roles: name and number of users; permissions as a grid with 'Akses Penuh'. */
export const roleResource: ResourceConfig<Role, RoleFormValues> = {
  title: t.roles.title,
  entityLabel: t.roles.entity,
  endpoint: 'roles',
  module: 'roles',
  searchPlaceholder: t.roles.search,
  columns: [
    { header: t.roles.name, render: (r) => r.name },
    { header: t.roles.userCount, render: (r) => formatNumber(r.user_count), align: 'right' },
  ],
  form: {
    initialValues: (r) => ({ name: r?.name ?? '', permission: r?.permission ?? [] }),
    schema: () => roleInputSchema,
    Fields: RoleFields,
    width: 760,
  },
  // Editing one's own role changes the menu and the actions the shell shows.
  afterChange: refreshUserInfo,
};
