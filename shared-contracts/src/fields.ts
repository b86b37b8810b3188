import * as yup from 'yup';
import { FLAG_VALUES } from './statuses';
import { V } from './messages';
import { hasControlChars } from './text-rules';

/**
 * Trims text and leaves anything else for the type check to refuse (yup's own trim() throws on an
 * array or object, which would turn a wrong type into an unreadable request).
 */
export const trimString = (value: unknown): unknown => (typeof value === 'string' ? value.trim() : value);

export { hasControlChars };

/**
 * The one rule for text fields (docs/rules.md#api-conventions): no control characters; newline and tab
 * only in multi-line fields, which carry `meta({ multiline: true })` so the API guard knows them too.
 */
export const noControlChars = (label: string, multiline = false) => ({
  name: 'no-control-chars',
  message: V.controlChars(label),
  test: (value: unknown) => typeof value !== 'string' || !hasControlChars(value, multiline),
});

/** Optional free text: trimmed, empty becomes null; `multiline` allows newlines and tabs (addresses). */
export const optionalText = (label: string, max: number, { multiline = false } = {}) =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(max, V.max(label, max))
    .test(noControlChars(label, multiline))
    .transform((v: unknown) => (v === '' ? null : v))
    .nullable()
    .optional()
    .meta({ multiline });

export const optionalEmail = (label = 'Email') => optionalText(label, 254).email(V.email(label));

export const requiredUrl = (label = 'Website') =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(500, V.max(label, 500))
    .test(noControlChars(label))
    .url(V.url(label))
    .required(V.required(label));

/** A 'true'/'false' flag as it travels (docs/rules.md#data). */
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
 * A stored image's name as the API returned it (docs/rules.md#api-conventions): absent or unchanged keeps
 * the current image, empty removes it. The file itself travels as `<field>_file`.
 */
export const imageNameField = (label: string) =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(200, V.max(label, 200))
    .test(noControlChars(label))
    .optional();

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
    .nullable()
    .optional();

/**
 * The input schema of a new record whose images are required (the API refuses such a record without
 * them, docs/rules.md#api-conventions): each `<field>_file` of `labels` must hold a file, '<label> wajib
 * diisi' otherwise. An edit keeps the plain schema, where a file may be absent or null (no change,
 * or 'Hapus Gambar').
 */
export const requireImageFiles = (
  schema: yup.AnyObjectSchema,
  labels: Record<string, string>,
): yup.AnyObjectSchema =>
  schema.shape(
    Object.fromEntries(
      Object.entries(labels).map(([field, label]) => [
        `${field}_file`,
        imageFileField(label).required(V.required(label)),
      ]),
    ),
  );

/** Required free text: trimmed, at most `max` characters, no control characters. */
export const requiredText = (label: string, max: number, { multiline = false } = {}) =>
  yup
    .string()
    .typeError(V.string(label))
    .transform(trimString)
    .max(max, V.max(label, max))
    .test(noControlChars(label, multiline))
    .required(V.required(label))
    .meta({ multiline });

/** The text a number came as: '' (an empty form input) means "no value". */
const blankToNull = (value: unknown, original: unknown) =>
  original === '' || original === null || original === undefined ? null : value;

/** A required whole number within bounds (forms and multipart bodies send it as text). */
export const requiredInteger = (label: string, min: number, max: number) =>
  yup
    .number()
    .typeError(V.number(label))
    .transform((v: unknown, original: unknown) => blankToNull(v, original) ?? undefined)
    .integer(V.integer(label))
    .min(min, V.minValue(label, min))
    .max(max, V.maxValue(label, max))
    .required(V.required(label));

/** An optional whole number within bounds; empty becomes null. */
export const optionalInteger = (label: string, min: number, max: number) =>
  yup
    .number()
    .typeError(V.number(label))
    .transform(blankToNull)
    .integer(V.integer(label))
    .min(min, V.minValue(label, min))
    .max(max, V.maxValue(label, max))
    .nullable()
    .optional();

/** One of a closed vocabulary, required. */
export const requiredOneOf = <T extends string>(label: string, values: readonly T[]) =>
  yup
    .string<T>()
    .typeError(V.oneOf(label))
    .transform(trimString)
    .oneOf([...values], V.oneOf(label))
    .required(V.required(label));

/** One of a closed vocabulary, optional; empty becomes null. */
export const optionalOneOf = <T extends string>(label: string, values: readonly T[]) =>
  yup
    .string<T>()
    .typeError(V.oneOf(label))
    .transform((v: unknown) => (v === '' ? null : trimString(v)))
    .nullable()
    .oneOf([...values, null], V.oneOf(label))
    .optional();

/** An optional id (uuid); empty becomes null. */
export const optionalUuid = (label: string) =>
  yup
    .string()
    .typeError(V.oneOf(label))
    .transform((v: unknown) => (v === '' ? null : trimString(v)))
    .uuid(V.oneOf(label))
    .nullable()
    .optional();

/** The `{id, name}` of a record an answer points at (a company, an accreditation body). */
export const refSchema = () => yup.object({ id: outId(), name: yup.string().defined() });
