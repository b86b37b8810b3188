import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ALL, type CompanyScope, isUuid, type PermissionKey } from '@sertifikasi/shared-contracts';
import { forbidden, invalid, unauthenticated } from '../lib/errors';
import { type AuthContext, authenticate } from '../services/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller; set on every non-public route. */
    auth: AuthContext;
    /** The raw bearer token of the request, when one was sent. */
    bearerToken: string | null;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/**
 * The one place where permission and company scope are enforced: every route declares its access
 * (lib/route.ts) and this hook checks it before the body is read. 401 without a valid token, 403
 * without the permission or without scope ALL where the route needs it.
 */
export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.decorateRequest('bearerToken', null);
  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access) {
      // Only the OpenAPI viewer and unknown paths (404) go without a declared access; anything else
      // fails closed.
      const url = req.routeOptions.url;
      if (url === undefined || url.startsWith('/api/docs')) return;
      throw unauthenticated();
    }
    if (access.public === true) return;
    const token = bearerToken(req);
    if (!token) throw unauthenticated();
    const ctx = await authenticate(app.db, token, app.clock.now());
    if (!ctx) throw unauthenticated();
    req.auth = ctx;
    req.bearerToken = token;
    if (access.permission) {
      const wanted = Array.isArray(access.permission) ? access.permission : [access.permission];
      if (!wanted.some((key) => ctx.permissions.has(key))) throw forbidden();
    }
    if (access.scopeAll && ctx.scope !== ALL)
      throw forbidden('Tindakan ini memerlukan akses ke semua perusahaan');
  });
});

export const hasPermission = (req: FastifyRequest, key: PermissionKey): boolean =>
  req.auth.permissions.has(key);

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
