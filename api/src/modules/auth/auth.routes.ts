import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import {
  ERROR_CODES,
  LOGIN_MESSAGES,
  loginSchema,
  profileSchema,
  userSchema,
} from '@sertifikasi/shared-contracts';
import { AppError, invalid, unauthenticated } from '../../lib/errors';
import { verifyPassword } from '../../lib/crypto';
import { defineRoute } from '../../lib/route';
import { contextOf } from '../../services/context';
import { createSession, revokeToken } from '../../services/sessions';
import { findUser, findUserByUsername, findUserRow, toUserDto } from '../users/users.repository';
import { preparePassword, updateProfile } from '../users/users.service';
import { companyOptions } from '../companies/companies.repository';

const loginFailure = (status: number, code: string) => new AppError(status, code, LOGIN_MESSAGES[code]!);

/** The signed-in user as the API shows it, from what the auth hook read with the session. */
const signedInUser = (req: FastifyRequest) => toUserDto(req.auth.user, req.auth.user.role, req.auth.scope);

const okSchema = yup.object({ success: yup.boolean().defined(), message: yup.string().defined() });

export default async function authRoutes(app: FastifyInstance) {
  defineRoute(app, {
    method: 'POST',
    url: '/api/login',
    summary: 'Sign in with username and password',
    tags: ['auth'],
    access: { public: true },
    rateLimit: { max: app.config.publicRateLimit, timeWindow: 60_000 },
    body: loginSchema,
    response: { 200: yup.object({ token: yup.string().defined(), user: userSchema }) },
    handler: async (req) => {
      const { username, password } = req.body;
      // Reserves this password check atomically; it counts as a failure unless the sign-in succeeds.
      if (!(await app.loginThrottle.reserve(username, req.ip))) {
        throw loginFailure(429, ERROR_CODES.loginThrottled);
      }
      const row = await findUserByUsername(app.db, username);
      // Unknown usernames cost the same as wrong passwords and answer the same (no user discovery).
      const ok = await verifyPassword(row?.password_hash ?? (await app.dummyPasswordHash), password);
      if (!row || !ok) throw loginFailure(401, ERROR_CODES.loginWrong);
      if (!row.is_active) throw loginFailure(401, ERROR_CODES.loginUnverified);
      if (!row.roles_id) throw loginFailure(401, ERROR_CODES.loginFailed);
      const token = await createSession(app.db, row.id, app.clock.now());
      const user = await findUser(app.db, row.id);
      if (!user) throw loginFailure(401, ERROR_CODES.loginFailed);
      await app.loginThrottle.succeeded(username, req.ip);
      req.log.info({ userId: row.id }, 'signed in');
      return { token, user };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/logout',
    summary: 'Sign out: revokes the current token',
    tags: ['auth'],
    access: {},
    response: { 200: okSchema },
    handler: async (req) => {
      await revokeToken(app.db, req.bearerToken!);
      return { success: true, message: 'Berhasil keluar' };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/profile',
    summary: 'The signed-in user',
    tags: ['auth'],
    access: {},
    response: { 200: userSchema },
    // The user as read with the session, in this same request: no second query.
    handler: async (req) => signedInUser(req),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/profile',
    summary: 'Update own name, username and (optionally) password, which needs current_password',
    tags: ['auth'],
    access: {},
    body: profileSchema,
    response: { 200: userSchema },
    handler: async (req) => {
      const { password, current_password: currentPassword } = req.body;
      // A new password needs the current one: a session left open (or taken) cannot lock the owner out.
      // Guesses of the current password count as failed sign-ins of this account (a stolen session
      // cannot try passwords faster than the sign-in page allows).
      if (password) {
        const row = await findUserRow(app.db, req.auth.user.id);
        if (!row) throw unauthenticated();
        if (!(await app.loginThrottle.reserve(row.username, req.ip))) {
          throw loginFailure(429, ERROR_CODES.loginThrottled);
        }
        if (!currentPassword || !(await verifyPassword(row.password_hash, currentPassword))) {
          throw invalid({ current_password: 'Password Saat Ini salah' });
        }
        await app.loginThrottle.succeeded(row.username, req.ip);
      }
      const prepared = await preparePassword(app.config, password);
      return app.db.transaction((tx) => updateProfile(contextOf(app, req, tx), req.body, prepared));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/user-info',
    summary: 'The signed-in user, their permission keys and the companies they may pick',
    tags: ['auth'],
    access: {},
    response: {
      200: yup.object({
        user: userSchema,
        roles: yup.array(yup.string().defined()).defined(),
        company_ids: yup.mixed().defined(),
        companies: yup
          .array(yup.object({ id: yup.string().defined(), name: yup.string().defined() }))
          .defined(),
      }),
    },
    handler: async (req) => {
      return {
        user: signedInUser(req),
        // The keys the auth hook read with the session, in this same request.
        roles: [...req.auth.permissions],
        company_ids: req.auth.scope,
        companies: await companyOptions(app.db, req.auth.scope),
      };
    },
  });
}
