import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ALL, type CompanyScope, isUuid, type PermissionKey } from '@sertifikasi/shared-contracts';
import { type AppError, forbidden, invalid, unauthenticated } from '../lib/errors';
import { type AuthContext, authenticate } from '../services/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller; set on every non-public route. */
    auth: AuthContext;
    /** The raw bearer token of the request, when one was sent. */
    bearerToken: string | null;
    /**
     * On a public route with `more` (lib/route.ts): a token was sent but has ended (expired, revoked,
     * unknown). The public part still answers; a refusal says 401 so the caller signs in again.
     */
    sentEndedToken: boolean;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec(header.trim());
  return match ? match[1]! : null;
}

const keysOf = (keys: PermissionKey | PermissionKey[]) => (Array.isArray(keys) ? keys : [keys]);
const inScope = (scope: CompanyScope, companyId: string) => scope === ALL || scope.includes(companyId);

/**
 * The one place where permission and company scope are enforced: every route declares its access
 * (lib/route.ts) and this hook checks it before the body is read. 401 without a valid token, 403
 * without the permission or without scope ALL where the route needs it. A public route with `more`
 * answers everyone; a valid token signs its caller in (req.auth) for `holdsMore`, an ended one is
 * remembered for `publicRefusal`. Failed look-ups are limited per address (`app.badTokens`, 429), and
 * only a request whose token was found counts as signed in when the pool is short
 * (docs/architecture.md#overload).
 */
export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.decorateRequest('bearerToken', null);
  app.decorateRequest('sentEndedToken', false);
  // A look-up of a bearer token; the failed ones are limited per address (plugins/rate-limit.ts, when
  // the app has it).
  const lookUp = async (req: FastifyRequest, reply: FastifyReply, token: string) => {
    const limit = app.hasDecorator('badTokens') ? app.badTokens : undefined;
    limit?.check(req, reply);
    const ctx = await authenticate(app.db, token, app.clock.now());
    if (!ctx) await limit?.failed(req, reply);
    return ctx;
  };
  app.addHook('onRequest', async (req, reply) => {
    const access = req.routeOptions.config?.access;
    if (!access) {
      // Only the OpenAPI viewer and unknown paths (404) go without a declared access; anything else
      // fails closed.
      const url = req.routeOptions.url;
      if (url === undefined || url.startsWith('/api/docs')) return;
      throw unauthenticated();
    }
    if (access.public === true) {
      if (!access.more) return;
      // Public, and more for the permission: a token is optional, and never refused here.
      const token = bearerToken(req);
      if (!token) return;
      const ctx = await lookUp(req, reply, token);
      if (!ctx) {
        req.sentEndedToken = true;
        return;
      }
      req.auth = ctx;
      req.bearerToken = token;
      return;
    }
    const token = bearerToken(req);
    if (!token) throw unauthenticated();
    const ctx = await lookUp(req, reply, token);
    if (!ctx) throw unauthenticated();
    req.auth = ctx;
    req.bearerToken = token;
    if (access.permission && !keysOf(access.permission).some((key) => ctx.permissions.has(key))) {
      throw forbidden();
    }
    if (access.scopeAll && ctx.scope !== ALL)
      throw forbidden('Tindakan ini memerlukan akses ke semua perusahaan');
  });
});

/**
 * On a public route with `more` (lib/route.ts): is the caller signed in with one of its permission
 * keys and, when `companyId` is given, that company in their scope? False on any other route.
 */
export function holdsMore(req: FastifyRequest, companyId?: string): boolean {
  const access = req.routeOptions.config?.access;
  const more = access?.public === true ? access.more : undefined;
  const auth = req.auth as AuthContext | null;
  if (!more || !auth) return false;
  if (!keysOf(more).some((key) => auth.permissions.has(key))) return false;
  return companyId === undefined || inScope(auth.scope, companyId.toLowerCase());
}

/**
 * What a public route with `more` answers a caller it refuses: 401 when they sent a token that has
 * ended (sign in again and you may get more), otherwise `refusal`.
 */
export function publicRefusal(req: FastifyRequest, refusal: AppError): AppError {
  return req.sentEndedToken ? unauthenticated() : refusal;
}

/**
 * The companies a list or report covers: `company_id=ALL` (or none) means every company in the
 * caller's scope; a company outside it is refused with 403.
 */
export function companyFilter(req: FastifyRequest, companyId: string | undefined | null): CompanyScope {
  const scope = req.auth.scope;
  if (!companyId || companyId === ALL) return scope;
  if (!isUuid(companyId)) throw invalid({ company_id: 'Perusahaan tidak valid' });
  if (scope !== ALL && !scope.includes(companyId.toLowerCase()))
    throw forbidden('Perusahaan di luar akses anda');
  return [companyId.toLowerCase()];
}
