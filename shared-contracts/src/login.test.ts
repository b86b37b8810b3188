import type * as yup from 'yup';
import { loginSchema } from './auth';
import { validateLogin } from './login';
import * as portal from './portal';

/** What loginSchema says of each field: its first error, as a form shows it. */
function schemaErrors(values: { username: string; password: string }) {
  try {
    loginSchema.validateSync(values, { abortEarly: false });
    return {};
  } catch (err) {
    const errors: Record<string, string> = {};
    for (const e of (err as yup.ValidationError).inner)
      if (e.path && !errors[e.path]) errors[e.path] = e.message;
    return errors;
  }
}

describe("the sign-in form's own check", () => {
  it.each([
    ['admin', 'rahasia123'],
    ['', ''],
    ['   ', ' '],
    ['  admin  ', 'x'],
    ['a'.repeat(101), 'b'.repeat(129)],
    [` ${'a'.repeat(100)} `, 'b'.repeat(128)],
    ['ad\u0000min', 'pass\u0007word'],
    ['ad\tmin', 'pa\nss'],
    [`${'a'.repeat(101)}\u0001`, `\u0002${'b'.repeat(129)}`],
  ])('says what loginSchema says of %j / %j, in the same words', (username, password) => {
    expect(validateLogin({ username, password })).toEqual(schemaErrors({ username, password }));
  });

  it('is reached from the yup-free portal entry', () => {
    expect(portal.validateLogin).toBe(validateLogin);
    expect(validateLogin({ username: '', password: '' })).toEqual({
      username: 'Username wajib diisi',
      password: 'Password wajib diisi',
    });
  });
});
