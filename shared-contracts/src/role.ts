import * as yup from 'yup';
import { nameField } from './auth';
import { outId } from './fields';
import { V } from './messages';

const permissionIdsField = () =>
  yup
    .array()
    .typeError('Hak akses harus berupa daftar')
    .of(yup.string().defined().uuid('Hak akses tidak valid'))
    .max(200, 'Hak akses terlalu banyak');

/** A new role (and the role form): `permission` missing means none. */
export const roleInputSchema = yup
  .object({
    name: nameField('Nama Akses', 100),
    permission: permissionIdsField().default([]),
  })
  .noUnknown(V.unknown);
export type RoleInput = yup.InferType<typeof roleInputSchema>;

/** A role update: `permission` missing keeps the role's permissions (docs/rules.md#permissions). */
export const roleUpdateSchema = yup
  .object({
    name: nameField('Nama Akses', 100),
    permission: permissionIdsField().optional(),
  })
  .noUnknown(V.unknown);
export type RoleUpdateInput = yup.InferType<typeof roleUpdateSchema>;

export const permissionSchema = yup.object({ id: outId(), name: yup.string().defined() });
export type Permission = yup.InferType<typeof permissionSchema>;

export const roleSchema = yup.object({
  id: outId(),
  name: yup.string().defined(),
  /** Permission ids. */
  permission: yup.array(yup.string().defined()).defined(),
  user_count: yup.number().defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type Role = yup.InferType<typeof roleSchema>;
