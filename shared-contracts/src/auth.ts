import * as yup from 'yup';
import { noControlChars, trimString } from './fields';
import { V } from './messages';
import type { PermissionKey } from './permissions';
import type { CompanyScope } from './scope';

export const USERNAME_RE = /^[A-Za-z0-9._-]{3,50}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const loginSchema = yup
  .object({
    username: yup
      .string()
      .typeError(V.string('Username'))
      .transform(trimString)
      .max(100, V.max('Username', 100))
      .test(noControlChars('Username'))
      .required(V.required('Username')),
    password: yup
      .string()
      .typeError(V.string('Password'))
      .max(PASSWORD_MAX, V.max('Password', PASSWORD_MAX))
      .test(noControlChars('Password'))
      .required(V.required('Password')),
  })
  .noUnknown(V.unknown);
export type LoginInput = yup.InferType<typeof loginSchema>;

export const nameField = (label: string, max = 200) =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(max, V.max(label, max))
    .test(noControlChars(label))
    .required(V.required(label));

export const usernameField = () =>
  yup
    .string()
    .typeError(V.string('Username'))
    .transform(trimString)
    .required(V.required('Username'))
    .matches(USERNAME_RE, 'Username 3 sampai 50 karakter: huruf, angka, titik, garis bawah atau strip');

/** Optional password: empty or missing keeps the current one. */
export const optionalPasswordField = () =>
  yup
    .string()
    .typeError(V.string('Password'))
    .transform((v: unknown) => (v === '' || v === null ? undefined : v))
    .min(PASSWORD_MIN, V.min('Password', PASSWORD_MIN))
    .max(PASSWORD_MAX, V.max('Password', PASSWORD_MAX))
    .test(noControlChars('Password'))
    .optional();

export const profileSchema = yup
  .object({
    name: nameField('Nama User'),
    username: usernameField(),
    password: optionalPasswordField(),
  })
  .noUnknown(V.unknown);
export type ProfileInput = yup.InferType<typeof profileSchema>;

export interface SessionUser {
  id: string;
  name: string;
  username: string;
  roles_id: string | null;
  roles: { id: string; name: string } | null;
  company_ids: CompanyScope;
  is_active: 'true' | 'false';
}

export interface LoginResponse {
  token: string;
  user: SessionUser;
}

export interface UserInfo {
  user: SessionUser;
  /** The caller's permission keys (SPEC.md's "role keys"). */
  roles: PermissionKey[];
  company_ids: CompanyScope;
  /** The companies the caller may pick in the header. */
  companies: { id: string; name: string }[];
}
