import * as yup from 'yup';
import { noControlChars, optionalEmail, trimString } from './fields';
import { LOGIN_LABELS, LOGIN_USERNAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_RE } from './login';
import { V } from './messages';
import type { PermissionKey } from './permissions';
import type { CompanyScope } from './scope';

export const loginSchema = yup
  .object({
    username: yup
      .string()
      .typeError(V.string(LOGIN_LABELS.username))
      .transform(trimString)
      .max(LOGIN_USERNAME_MAX, V.max(LOGIN_LABELS.username, LOGIN_USERNAME_MAX))
      .test(noControlChars(LOGIN_LABELS.username))
      .required(V.required(LOGIN_LABELS.username)),
    password: yup
      .string()
      .typeError(V.string(LOGIN_LABELS.password))
      .max(PASSWORD_MAX, V.max(LOGIN_LABELS.password, PASSWORD_MAX))
      .test(noControlChars(LOGIN_LABELS.password))
      .required(V.required(LOGIN_LABELS.password)),
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

/** A password may not be only spaces (docs/rules.md#sign-in); it is never trimmed otherwise. */
const notOnlySpaces = (label: string) =>
  [
    'not-only-spaces',
    `${label} tidak boleh hanya berisi spasi`,
    (v: string | undefined) => v == null || v === '' || v.trim() !== '',
  ] as const;

/** A new password, required: 8 to 128 characters, not only spaces. */
export const passwordField = (label = 'Password') =>
  yup
    .string()
    .typeError(V.string(label))
    .min(PASSWORD_MIN, V.min(label, PASSWORD_MIN))
    .max(PASSWORD_MAX, V.max(label, PASSWORD_MAX))
    .test(noControlChars(label))
    .test(...notOnlySpaces(label))
    .required(V.required(label));

/** Optional password: empty or missing keeps the current one. */
export const optionalPasswordField = () =>
  yup
    .string()
    .typeError(V.string('Password'))
    .transform((v: unknown) => (v === '' || v === null ? undefined : v))
    .min(PASSWORD_MIN, V.min('Password', PASSWORD_MIN))
    .max(PASSWORD_MAX, V.max('Password', PASSWORD_MAX))
    .test(noControlChars('Password'))
    .test(...notOnlySpaces('Password'))
    .optional();

export const CURRENT_PASSWORD_LABEL = 'Password Saat Ini';

/**
 * Own profile. A new password needs the current one (`current_password`, required only when
 * `password` is filled; ignored otherwise).
 */
export const profileSchema = yup
  .object({
    name: nameField('Nama User'),
    username: usernameField(),
    email: optionalEmail(),
    password: optionalPasswordField(),
    current_password: yup
      .string()
      .typeError(V.string(CURRENT_PASSWORD_LABEL))
      .transform((v: unknown) => (v === '' || v === null ? undefined : v))
      .max(PASSWORD_MAX, V.max(CURRENT_PASSWORD_LABEL, PASSWORD_MAX))
      .test(noControlChars(CURRENT_PASSWORD_LABEL))
      .when('password', {
        is: (password: unknown) => typeof password === 'string' && password !== '',
        then: (s) => s.required(V.required(CURRENT_PASSWORD_LABEL)),
        otherwise: (s) => s.optional(),
      }),
  })
  .noUnknown(V.unknown);
export type ProfileInput = yup.InferType<typeof profileSchema>;

export interface SessionUser {
  id: string;
  name: string;
  username: string;
  email: string | null;
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
  /** The caller's permission keys (docs/rules.md#entities). */
  roles: PermissionKey[];
  company_ids: CompanyScope;
  /** The companies the caller may pick in the header. */
  companies: { id: string; name: string }[];
}
