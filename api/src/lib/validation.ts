import type { FastifySchemaCompiler } from 'fastify';
import * as yup from 'yup';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';
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

/** Validates with yup, the same schema the forms use; casts (trims, parses numbers) on the way. */
export function validateWith(schema: yup.AnySchema, data: unknown, part: string): unknown {
  // yup's noUnknown only strips unknown keys when casting; they are refused here instead.
  if (schema instanceof yup.ObjectSchema && data && typeof data === 'object' && !Array.isArray(data)) {
    const known = schema.fields as Record<string, unknown>;
    const unknown = Object.keys(data).filter((key) => !(key in known));
    if (unknown.length && refusesUnknown(schema)) {
      const errors = Object.fromEntries(unknown.map((key) => [key, 'Field tidak dikenal']));
      if (part === 'params') throw new AppError(404, ERROR_CODES.notFound, MESSAGES.notFound);
      throw new AppError(422, ERROR_CODES.validation, `Field tidak dikenal: ${unknown.join(', ')}`, errors);
    }
  }
  try {
    return schema.validateSync(data ?? {}, { abortEarly: false }) as unknown;
  } catch (err) {
    if (!(err instanceof yup.ValidationError)) throw err;
    const errors = fieldErrors(err);
    if (part === 'params') throw new AppError(404, ERROR_CODES.notFound, MESSAGES.notFound);
    if (errors._ && Object.keys(errors).length === 1) {
      throw new AppError(400, ERROR_CODES.badRequest, MESSAGES.badRequest);
    }
    const first = Object.values(errors)[0] ?? MESSAGES.validation;
    throw new AppError(422, ERROR_CODES.validation, first, errors);
  }
}

/** Fastify validator compiler: routes declare yup schemas through routeSchema(). */
export const yupValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const yupSchema = yupOf.get(schema as object);
  if (!yupSchema) return () => ({ value: undefined as unknown });
  return (data: unknown) => {
    try {
      return { value: validateWith(yupSchema, data, httpPart ?? 'body') };
    } catch (error) {
      return { error: error as Error };
    }
  };
};
