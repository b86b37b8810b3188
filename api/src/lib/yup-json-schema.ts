/**
 * Turns the shared yup schemas into JSON Schema, so the OpenAPI document and Fastify's response
 * serialisation come from the same schemas the routes validate with.
 */
import type { AnySchema } from 'yup';

export type JsonSchema = Record<string, unknown>;

/** The parts of yup's describe() output read here. */
interface Desc {
  type: string;
  label?: string;
  meta?: unknown;
  optional?: boolean;
  nullable?: boolean;
  oneOf?: unknown[];
  tests?: { name?: string; params?: Record<string, unknown> | undefined }[];
  fields?: Record<string, Desc>;
  innerType?: Desc | Desc[];
}

function param(desc: Desc, name: string, key: string): unknown {
  return desc.tests?.find((t) => t.name === name)?.params?.[key];
}

function convert(desc: Desc): JsonSchema {
  let out: JsonSchema;
  switch (desc.type) {
    case 'string': {
      out = { type: 'string' };
      const min = param(desc, 'min', 'min');
      const max = param(desc, 'max', 'max');
      if (typeof min === 'number') out.minLength = min;
      if (typeof max === 'number') out.maxLength = max;
      const regex = param(desc, 'matches', 'regex');
      if (regex instanceof RegExp) out.pattern = regex.source;
      if (desc.tests?.some((t) => t.name === 'email')) out.format = 'email';
      if (desc.tests?.some((t) => t.name === 'url')) out.format = 'uri';
      if (desc.tests?.some((t) => t.name === 'uuid')) out.format = 'uuid';
      break;
    }
    case 'number': {
      out = { type: desc.tests?.some((t) => t.name === 'integer') ? 'integer' : 'number' };
      const min = param(desc, 'min', 'min');
      const max = param(desc, 'max', 'max');
      if (typeof min === 'number') out.minimum = min;
      if (typeof max === 'number') out.maximum = max;
      break;
    }
    case 'boolean':
      out = { type: 'boolean' };
      break;
    case 'date':
      out = { type: 'string', format: 'date' };
      break;
    case 'array': {
      out = { type: 'array' };
      if (desc.innerType && !Array.isArray(desc.innerType)) out.items = convert(desc.innerType);
      const max = param(desc, 'max', 'max');
      if (typeof max === 'number') out.maxItems = max;
      break;
    }
    case 'object': {
      const fields = desc.fields ?? {};
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(fields)) {
        properties[key] = convert(field);
        if (field.optional === false && field.nullable !== true) required.push(key);
        else if (field.optional === false) required.push(key);
      }
      out = { type: 'object', properties };
      if (required.length) out.required = required;
      if (desc.tests?.some((t) => t.name === 'noUnknown')) out.additionalProperties = false;
      break;
    }
    default:
      out = {};
  }
  const oneOf = (desc.oneOf ?? []).filter((v) => v !== undefined && v !== null);
  if (oneOf.length) out.enum = oneOf;
  if (desc.nullable && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (out.enum) (out.enum as unknown[]).push(null);
  }
  if (desc.label) out.title = desc.label;
  const meta = desc.meta as { description?: string } | undefined;
  if (meta?.description) out.description = meta.description;
  return out;
}

export function toJsonSchema(schema: AnySchema): JsonSchema {
  return convert(schema.describe());
}
