/**
 * The words of validation messages and the control-character rule, without yup: the yup schemas
 * (messages.ts, fields.ts) and the sign-in form's own check (login.ts) share them.
 */

/** Validation messages, by rule (docs/rules.md#api-conventions). */
export const V = {
  required: (label: string) => `${label} wajib diisi`,
  string: (label: string) => `${label} harus berupa teks`,
  number: (label: string) => `${label} harus berupa angka`,
  integer: (label: string) => `${label} harus bilangan bulat`,
  max: (label: string, max: number) => `${label} maksimal ${max} karakter`,
  min: (label: string, min: number) => `${label} minimal ${min} karakter`,
  email: (label: string) => `${label} harus berupa alamat email yang valid`,
  url: (label: string) => `${label} harus berupa URL yang valid (contoh: https://contoh.co.id)`,
  oneOf: (label: string) => `${label} tidak valid`,
  controlChars: (label: string) => `${label} tidak boleh berisi karakter kontrol`,
  date: (label: string) => `${label} harus berupa tanggal yang valid (YYYY-MM-DD)`,
  minValue: (label: string, min: number) => `${label} minimal ${min}`,
  maxValue: (label: string, max: number) => `${label} maksimal ${max}`,
  unknown: 'Field tidak dikenal: ${unknown}',
} as const;

// Control characters (Unicode Cc); tab, line feed and carriage return are allowed in multi-line text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** True when text holds a control character (newline, tab and CR allowed when multi-line). */
export const hasControlChars = (text: string, multiline = false): boolean =>
  (multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(text);
