import type { FastifySchemaCompiler } from 'fastify';
import * as yup from 'yup';
import { ERROR_CODES, hasControlChars, MESSAGES } from '@sertifikasi/shared-contracts';
import { AppError } from './errors';
import { type JsonSchema, toJsonSchema } from './yup-json-schema';

const yupOf = new WeakMap<object, yup.AnySchema>();

/** JSON Schema for a route (docs, serialisation), remembered with the yup schema that validates it. */
export function routeSchema(schema: yup.AnySchema): JsonSchema {
  const json = toJsonSchema(schema);
  yupOf.set(json, schema);
  return json;
}

/** Field errors of a yup failure: `{field: message}`; unknown fields are named one by one. */
export function fieldErrors(err: yup.ValidationError): Record<string, string> {
  const errors: Record<string, string> = {};
  const list = err.inner.length ? err.inner : [err];
  for (const e of list) {
    if (e.type === 'noUnknown') {
      const unknown = String((e.params as { unknown?: string } | undefined)?.unknown ?? '');
      for (const key of unknown
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)) {
        errors[key] ??= 'Field tidak dikenal';
      }
      continue;
    }
    const key = e.path || '_';
    errors[key] ??= e.message;
  }
  return errors;
}

const refusing = new WeakMap<yup.AnySchema, boolean>();
function refusesUnknown(schema: yup.AnySchema): boolean {
  let value = refusing.get(schema);
  if (value === undefined) {
    value = schema.describe().tests.some((t) => t.name === 'noUnknown');
    refusing.set(schema, value);
  }
  return value;
}

/** Numbers travel as numbers or plain decimal strings: not `0x10`, `1e2`, `Infinity` (docs/rules.md#api-conventions). */
const DECIMAL_RE = /^[+-]?\d+(\.\d+)?$/;
/** Field types that take several values, so a repeated query parameter is no mistake there. */
const LIST_TYPES = new Set(['array', 'mixed', 'tuple']);

const CONTROL_MESSAGE = 'Isian tidak boleh berisi karakter kontrol';

/** True when a value holds a control character where it may not (newline and tab only in multi-line text). */
function holdsControlChars(value: unknown, multiline: boolean): boolean {
  if (typeof value === 'string') return hasControlChars(multiline ? value : value.trim(), multiline);
  if (Array.isArray(value)) return value.some((v) => holdsControlChars(v, false));
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.entries(value).some(([k, v]) => hasControlChars(k) || holdsControlChars(v, false));
  }
  return false;
}

const refuse = (part: string, message: string, errors?: Record<string, string>): AppError =>
  part === 'params'
    ? new AppError(404, ERROR_CODES.notFound, MESSAGES.notFound)
    : new AppError(422, ERROR_CODES.validation, message, errors);

/**
 * Validates with yup, the same schema the forms use; casts (trims, parses numbers) on the way.
 * Around it, the rules every route shares (docs/rules.md#api-conventions): unknown fields and query
 * parameters, a repeated single-valued query parameter, numbers written other than as plain
 * decimals, and control characters anywhere (the guard behind the schemas' own rule) answer 422.
 */
export function validateWith(schema: yup.AnySchema, data: unknown, part: string): unknown {
  const isQuery = part === 'querystring';
  let input = data;
  let fields: Record<string, yup.AnySchema> = {};
  if (schema instanceof yup.ObjectSchema && data && typeof data === 'object' && !Array.isArray(data)) {
    fields = schema.fields as Record<string, yup.AnySchema>;
    // yup's noUnknown only strips unknown keys when casting; they are refused here instead.
    const unknown = Object.keys(data).filter((key) => !(key in fields));
    if (unknown.length && (isQuery || refusesUnknown(schema))) {
      const what = isQuery ? 'Parameter' : 'Field';
      const errors = Object.fromEntries(unknown.map((key) => [key, `${what} tidak dikenal`]));
      throw refuse(part, `${what} tidak dikenal: ${unknown.join(', ')}`, errors);
    }
    const copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    const errors: Record<string, string> = {};
    for (const [key, value] of Object.entries(copy)) {
      const type = fields[key]?.type;
      if (isQuery && Array.isArray(value) && type && !LIST_TYPES.has(type)) {
        errors[key] = `Parameter ${key} hanya boleh diberikan satu kali`;
      } else if (
        type === 'number' &&
        typeof value === 'string' &&
        value.trim() !== '' &&
        !DECIMAL_RE.test(value.trim())
      ) {
        // Left for the schema's own "must be a number" message; an empty form input is "no value".
        copy[key] = Number.NaN;
      }
    }
    if (Object.keys(errors).length) throw refuse(part, Object.values(errors)[0]!, errors);
    input = copy;
  }
  let value: unknown;
  try {
    value = schema.validateSync(input ?? {}, { abortEarly: false }) as unknown;
  } catch (err) {
    if (!(err instanceof yup.ValidationError)) throw err;
    const errors = fieldErrors(err);
    if (part === 'params') throw refuse(part, MESSAGES.notFound);
    if (errors._ && Object.keys(errors).length === 1) {
      throw new AppError(400, ERROR_CODES.badRequest, MESSAGES.badRequest);
    }
    const first = Object.values(errors)[0] ?? MESSAGES.validation;
    throw new AppError(422, ERROR_CODES.validation, first, errors);
  }
  // The guard behind the schemas: whatever a schema let through, no control character reaches a query.
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const errors: Record<string, string> = {};
    for (const [key, raw] of Object.entries(data)) {
      const multiline = (fields[key]?.meta() as { multiline?: boolean } | undefined)?.multiline === true;
      if (holdsControlChars(raw, multiline)) errors[key] = CONTROL_MESSAGE;
    }
    if (Object.keys(errors).length) throw refuse(part, CONTROL_MESSAGE, errors);
  } else if (holdsControlChars(data, false)) {
    throw refuse(part, CONTROL_MESSAGE, { _: CONTROL_MESSAGE });
  }
  return value;
}

const isEmptyObject = (data: unknown): boolean => {
  if (!data || typeof data !== 'object') return false;
  for (const _key in data) return false;
  return true;
};

/**
 * What a query schema makes of no parameters at all, when that is every field left undefined (no
 * default, nothing required): the answer of most requests, known once instead of asked of yup on
 * each. Undefined when the schema gives anything else (a default, a refusal).
 */
function emptyQueryAnswer(schema: yup.AnySchema): Record<string, undefined> | undefined {
  try {
    const value = validateWith(schema, {}, 'querystring');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    if (entries.some(([, v]) => v !== undefined)) return undefined;
    return Object.fromEntries(entries.map(([k]) => [k, undefined]));
  } catch {
    return undefined;
  }
}

/** Fastify validator compiler: routes declare yup schemas through routeSchema(). */
export const yupValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const yupSchema = yupOf.get(schema as object);
  if (!yupSchema) return () => ({ value: undefined as unknown });
  const empty = httpPart === 'querystring' ? emptyQueryAnswer(yupSchema) : undefined;
  return (data: unknown) => {
    if (empty && isEmptyObject(data)) return { value: { ...empty } };
    try {
      return { value: validateWith(yupSchema, data, httpPart ?? 'body') };
    } catch (error) {
      return { error: error as Error };
    }
  };
};
