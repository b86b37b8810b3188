/**
 * The sign-in form's rules without yup (docs/rules.md#sign-in): the login page checks them with
 * `validateLogin` before it has loaded any form library, and `loginSchema` (auth.ts), which the API
 * validates with, is built from the same limits and words (contracts.test.ts holds them equal).
 */
import { hasControlChars, V } from './text-rules';

export const USERNAME_RE = /^[A-Za-z0-9._-]{3,50}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Sign-in takes any username up to this length (a longer one cannot exist). */
export const LOGIN_USERNAME_MAX = 100;

export const LOGIN_LABELS = { username: 'Username', password: 'Password' } as const;

export type LoginField = keyof typeof LOGIN_LABELS;
export type LoginErrors = Partial<Record<LoginField, string>>;

/** One field's first broken rule, in the schema's order: required, length, control characters. */
function check(field: LoginField, value: string, max: number): string | undefined {
  const label = LOGIN_LABELS[field];
  if (value === '') return V.required(label);
  if (value.length > max) return V.max(label, max);
  if (hasControlChars(value)) return V.controlChars(label);
  return undefined;
}

/**
 * What `loginSchema` would say of each field, the same words: the username is trimmed first, the
 * password never. An empty object when both are valid.
 */
export function validateLogin(values: { username: string; password: string }): LoginErrors {
  const errors: LoginErrors = {};
  const username = check('username', values.username.trim(), LOGIN_USERNAME_MAX);
  const password = check('password', values.password, PASSWORD_MAX);
  if (username) errors.username = username;
  if (password) errors.password = password;
  return errors;
}
