import * as yup from 'yup';
import { nameField } from './auth';
import { outId } from './fields';
import { V } from './messages';

export const roleInputSchema = yup
  .object({
    name: nameField('Nama Akses', 100),
    permission: yup
      .array()
      .typeError('Hak akses harus berupa daftar')
      .of(yup.string().defined().uuid('Hak akses tidak valid'))
      .max(200, 'Hak akses terlalu banyak')
      .default([]),
  })
  .noUnknown(V.unknown);
export type RoleInput = yup.InferType<typeof roleInputSchema>;

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
