import * as yup from 'yup';
import { nameField, optionalPasswordField, passwordField, usernameField } from './auth';
import { flagField, optionalEmail, outId, outText, uuidField } from './fields';
import { V } from './messages';
import { parseCompanyIds } from './scope';

const companyIdsField = () =>
  yup
    .mixed<string | string[]>()
    .required('Akses perusahaan wajib diisi')
    .test('company-ids', 'Akses perusahaan harus ALL atau daftar perusahaan', (value) => {
      const scope = parseCompanyIds(value);
      return scope !== null;
    })
    .test('company-ids-empty', 'Pilih minimal satu perusahaan atau ALL', (value) => {
      const scope = parseCompanyIds(value);
      return scope === null || scope === 'ALL' || scope.length > 0;
    });

const userFields = {
  name: nameField('Nama User'),
  username: usernameField(),
  /** Optional; unique ignoring case when given (reminders and the weekly digest go here). */
  email: optionalEmail(),
  roles_id: uuidField('Akses User'),
  company_ids: companyIdsField(),
  is_active: flagField('Status', 'true'),
};

export const userCreateSchema = yup
  .object({
    ...userFields,
    password: passwordField(),
  })
  .noUnknown(V.unknown);
export type UserCreateInput = yup.InferType<typeof userCreateSchema>;

/** Same form on edit; a blank password keeps the current one. */
export const userUpdateSchema = yup
  .object({ ...userFields, password: optionalPasswordField() })
  .noUnknown(V.unknown);
export type UserUpdateInput = yup.InferType<typeof userUpdateSchema>;

export const userSchema = yup.object({
  id: outId(),
  name: yup.string().defined(),
  username: yup.string().defined(),
  email: outText(),
  roles_id: outText(),
  roles: yup.object({ id: outId(), name: yup.string().defined() }).nullable().defined().default(null),
  company_ids: yup.mixed<'ALL' | string[]>().defined(),
  is_active: yup.string().oneOf(['true', 'false']).defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type User = yup.InferType<typeof userSchema>;
