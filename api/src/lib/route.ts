import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { type PermissionKey, V } from '@sertifikasi/shared-contracts';
import { routeSchema } from './validation';
import { type JsonSchema, toJsonSchema } from './yup-json-schema';

/**
 * Who may call a route: anyone; anyone, and more to a signed-in holder of a permission; or a
 * signed-in user with (any of) the permissions and scope ALL. The auth hook (plugins/auth.ts)
 * enforces it, and is the only code that reads a token.
 */
export type Access =
  | {
      public: true;
      /**
       * Public, and more for a signed-in caller holding any one of these keys (the certificate PDF:
       * staff download what the public may not). The hook signs such a caller in (req.auth);
       * the route asks `holdsMore(req, company)` and refuses the rest with `publicRefusal`.
       */
      more?: PermissionKey | PermissionKey[];
    }
  | {
      public?: false;
      /** Any one of these permission keys is enough. */
      permission?: PermissionKey | PermissionKey[];
      /** The caller's company scope must be ALL. */
      scopeAll?: boolean;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** The routes this app declared through defineRoute, by `METHOD url` (app-instance state, app.ts). */
    routeMap: Map<string, DeclaredRoute>;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
type Infer<S> = S extends yup.Schema<infer T> ? T : undefined;

export interface RouteDef<
  B extends yup.AnySchema | undefined,
  Q extends yup.AnySchema | undefined,
  P extends yup.AnySchema | undefined,
> {
  method: Method | Method[];
  url: string;
  summary: string;
  tags: string[];
  access: Access;
  body?: B;
  query?: Q;
  params?: P;
  /** Status -> yup schema of the answer, or a ready JSON Schema. */
  response: Record<number, yup.AnySchema | JsonSchema>;
  /** The body may also come as multipart/form-data (image uploads). */
  multipart?: boolean;
  /**
   * Requests per `timeWindow` ms, counted per address unless `keyGenerator` says per what: per user
   * with `hook: 'preHandler'` (counted once the sign-in is checked).
   */
  rateLimit?: {
    max: number;
    timeWindow: number;
    keyGenerator?: (req: FastifyRequest) => string;
    hook?: 'onRequest' | 'preHandler';
  };
  handler: (
    req: FastifyRequest & { body: Infer<B>; query: Infer<Q>; params: Infer<P> },
    reply: FastifyReply,
  ) => Promise<unknown>;
}

export const errorJsonSchema: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['code', 'message'],
};

/** Routes that declare no query take none: any parameter is unknown (422), not silently ignored. */
const noQuery = yup.object({}).noUnknown(V.unknown);

/** A route as declared: what the 401/403/404 conventions test walks (test/conventions.test.ts). */
export interface DeclaredRoute {
  method: Method;
  url: string;
  access: Access;
}
/** An empty route map, for app.ts to decorate the app with. */
export const createRouteMap = (): Map<string, DeclaredRoute> => new Map();
/** Every route the app declared through defineRoute, once per method and path. */
export const declaredRoutes = (app: FastifyInstance): DeclaredRoute[] => [...app.routeMap.values()];

/**
 * The OpenAPI operationId of a route, from its method and path: `GET /api/company-certificate/:company_id/:id`
 * is `getCompanyCertificateByCompanyIdAndId`, `POST /api/company/:id` `postCompanyById`. Unique as long
 * as method and path are, so every route has one without anyone thinking of it.
 */
export function operationIdOf(method: string, url: string): string {
  const camel = (text: string) =>
    text
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join('');
  let name = method.toLowerCase();
  let params: string[] = [];
  const flush = () => {
    if (params.length) name += `By${params.join('And')}`;
    params = [];
  };
  for (const segment of url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)) {
    if (segment.startsWith(':') || segment.startsWith('{')) params.push(camel(segment));
    else {
      flush();
      name += camel(segment);
    }
  }
  flush();
  return name;
}

const isYup = (s: unknown): s is yup.AnySchema => typeof (s as yup.AnySchema)?.describe === 'function';

/** Declares a route: its access, validated params/query/body and answer shape, all in one place. */
export function defineRoute<
  B extends yup.AnySchema | undefined = undefined,
  Q extends yup.AnySchema | undefined = undefined,
  P extends yup.AnySchema | undefined = undefined,
>(app: FastifyInstance, def: RouteDef<B, Q, P>): void {
  const response: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(def.response)) {
    response[status] = isYup(schema) ? toJsonSchema(schema) : schema;
  }
  response['4xx'] = errorJsonSchema;
  const isPublic = 'public' in def.access && def.access.public === true;
  const methods = Array.isArray(def.method) ? def.method : [def.method];
  // One route a method, so each has its own operationId in the document.
  for (const method of methods) {
    app.routeMap.set(`${method} ${def.url}`, { method, url: def.url, access: def.access });
    app.route({
      method,
      url: def.url,
      config: { access: def.access, ...(def.rateLimit ? { rateLimit: def.rateLimit } : {}) },
      schema: {
        // What generated clients call it: from the method and path, the one place it comes from.
        operationId: operationIdOf(method, def.url),
        summary: def.summary,
        tags: def.tags,
        // A public operation says so (`[]`: no credentials), a signed-in one names the bearer token.
        security: isPublic ? [] : [{ bearer: [] }],
        ...(def.params ? { params: routeSchema(def.params) } : {}),
        querystring: routeSchema(def.query ?? noQuery),
        ...(def.body ? { body: routeSchema(def.body) } : {}),
        ...(def.multipart ? { consumes: ['application/json', 'multipart/form-data'] } : {}),
        response,
      },
      handler: def.handler as never,
    });
  }
}
