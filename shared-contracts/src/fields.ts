import * as yup from 'yup';
import { FLAG_VALUES } from './statuses';
import { V } from './messages';

/**
 * Trims text and leaves anything else for the type check to refuse (yup's own trim() throws on an
 * array or object, which would turn a wrong type into an unreadable request).
 */
export const trimString = (value: unknown): unknown => (typeof value === 'string' ? value.trim() : value);

/** Optional free text: trimmed, empty becomes null. */
export const optionalText = (label: string, max: number) =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(max, V.max(label, max))
    .transform((v: unknown) => (v === '' ? null : v))
    .nullable()
    .optional();

export const optionalEmail = (label = 'Email') => optionalText(label, 254).email(V.email(label));

export const requiredUrl = (label = 'Website') =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(500, V.max(label, 500))
    .url(V.url(label))
    .required(V.required(label));

/** A 'true'/'false' flag as it travels (DECISIONS.md section 8). */
export const flagField = (label: string, fallback: 'true' | 'false') =>
  yup
    .string()
    .typeError(V.oneOf(label))
    .transform((v: unknown) => (typeof v === 'boolean' ? String(v) : v))
    .oneOf([...FLAG_VALUES], V.oneOf(label))
    .default(fallback);

export const uuidField = (label: string) =>
  yup
    .string()
    .typeError(V.required(label))
    .transform(trimString)
    .uuid(V.oneOf(label))
    .required(V.required(label));

/**
 * A stored image's name as the API returned it (DECISIONS.md section 7): absent or unchanged keeps
 * the current image, empty removes it. The file itself travels as `<field>_file`.
 */
export const imageNameField = (label: string) =>
  yup.string().typeError(V.string(label)).transform(trimString).max(200, V.max(label, 200)).optional();

/** The override field of multipart updates (`POST resource/{id}` with `_method=PUT`). */
export const methodOverrideField = () => yup.string().oneOf(['PUT', 'put'], V.oneOf('_method')).optional();

/** Output timestamps and nullable text, for response shapes. */
export const outText = () => yup.string().nullable().defined();
export const outId = () => yup.string().defined();

/** An uploaded image (`<field>_file`): a File in the browser, the received bytes on the server. */
export const imageFileField = (label: string) =>
  yup
    .mixed<object>()
    .test(
      'is-file',
      `${label} harus berupa file gambar`,
      (value) => value == null || typeof value === 'object',
    )
    .optional();
