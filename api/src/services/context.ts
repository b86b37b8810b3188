/**
 * What every service write takes (docs/architecture.md): the transaction it writes in, the acting
 * user, the app's clock and configuration. A write is one service function called with such a
 * context, from a route (the signed-in caller), the import, the demo generator, the command line
 * or a test alike; none of them needs HTTP.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALL, type CompanyScope, PERMISSION_KEYS, type PermissionKey } from '@sertifikasi/shared-contracts';
import type { Config } from '../config';
import type { Executor } from '../db';
import type { Clock } from '../lib/clock';

/** Where a write came from; written to the audit log with it. */
export type WriteSource = 'api' | 'import' | 'demo' | 'cli' | 'system';

/** Who writes: the signed-in caller of a route, or the system (seed, demo, command line). */
export interface Actor {
  /** The user's id and username; null for the system. */
  user: { id: string; username: string } | null;
  permissions: ReadonlySet<PermissionKey>;
  /** Companies the actor may write to (ALL: every one). */
  scope: CompanyScope;
  /** The HTTP request id, for the audit log; null outside a request. */
  requestId: string | null;
  /** The caller's session (a password change ends the others, not this one); absent outside a request. */
  sessionId?: string | null;
  source: WriteSource;
}

export interface ServiceContext {
  tx: Executor;
  actor: Actor;
  clock: Clock;
  config: Config;
}

/** The signed-in caller of a route (after the auth hook) as an actor. */
export function actorOf(req: FastifyRequest, source: WriteSource = 'api'): Actor {
  return {
    user: req.auth ? { id: req.auth.user.id, username: req.auth.user.username } : null,
    permissions: req.auth?.permissions ?? new Set(),
    scope: req.auth?.scope ?? [],
    requestId: String(req.id),
    sessionId: req.auth?.sessionId ?? null,
    source,
  };
}

/** The system itself (seed, demo generator, command line): every permission, every company. */
export function systemActor(source: WriteSource = 'system'): Actor {
  return { user: null, permissions: new Set(PERMISSION_KEYS), scope: ALL, requestId: null, source };
}

/** A service context for a route's caller, inside the transaction `tx`. */
export function contextOf(app: FastifyInstance, req: FastifyRequest, tx: Executor): ServiceContext {
  return { tx, actor: actorOf(req), clock: app.clock, config: app.config };
}
