/**
 * The auth hook's access modes, on a small app of their own: in particular "public, and more with
 * this permission" (the certificate PDF), where the route only asks whether the caller holds it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { sessions } from '../db/schema';
import { hashToken } from '../lib/crypto';
import { forbidden } from '../lib/errors';
import { call, createTestContext, type TestContext } from '../../test/helpers';
import auth, { holdsMore, publicRefusal } from './auth';
import errors from './errors';

let ctx: TestContext;
let app: FastifyInstance;
let companyA: string;
let companyB: string;
/** company-certificate, scope company A. */
let staffA: { id: string; token: string };
/** statistik only, scope ALL. */
let reader: { id: string; token: string };

beforeAll(async () => {
  ctx = await createTestContext();
  companyA = await ctx.make.company('PT Akses Lebih Alpha');
  companyB = await ctx.make.company('PT Akses Lebih Beta');
  staffA = await ctx.make.user({
    username: 'staf.alpha',
    roles_id: await ctx.make.role('Staf Sertifikat', ['company-certificate']),
    company_ids: [companyA],
  });
  reader = await ctx.make.user({
    username: 'pembaca.saja',
    roles_id: await ctx.make.role('Pembaca Saja', ['statistik']),
    company_ids: 'ALL',
  });
  app = Fastify();
  app.decorate('db', ctx.database.db);
  app.decorate('clock', ctx.app.clock);
  await app.register(errors);
  await app.register(auth);
  // Public for company B's records; more for holders of company-certificate with the record in scope.
  app.get<{ Params: { company: string } }>(
    '/more/:company',
    { config: { access: { public: true, more: 'company-certificate' } } },
    async (req) => {
      const company = req.params.company === 'a' ? companyA : companyB;
      if (holdsMore(req, company)) return { answer: 'more' };
      if (company === companyB) return { answer: 'public' };
      throw publicRefusal(req, forbidden('Hanya untuk staf'));
    },
  );
  app.get('/public', { config: { access: { public: true } } }, async (req) => ({
    more: holdsMore(req),
    signedIn: !!req.auth,
  }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

const get = (url: string, token?: string) =>
  app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('public, and more with a permission', () => {
  it('answers the public part to anyone: no token, a malformed header, a token without the permission', async () => {
    for (const token of [undefined, 'x', reader.token]) {
      const res = await get('/more/b', token);
      expect([token, res.statusCode, res.json()]).toEqual([token, 200, { answer: 'public' }]);
    }
  });

  it('gives more to a holder of the permission, for a company in their scope only', async () => {
    expect((await get('/more/a', staffA.token)).json()).toEqual({ answer: 'more' });
    expect((await get('/more/a', ctx.adminToken)).json()).toEqual({ answer: 'more' });
    // Company B is outside staff A's scope: they get what the public gets.
    expect((await get('/more/b', staffA.token)).json()).toEqual({ answer: 'public' });
  });

  it('refuses the rest with the route’s refusal, or 401 when the token sent has ended', async () => {
    const refused = await get('/more/a', reader.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Hanya untuk staf' });
    expect((await get('/more/a')).statusCode).toBe(403);
    const ended = await ctx.make.user({
      username: 'staf.keluar',
      roles_id: (await call(ctx.app, staffA.token, 'GET', '/api/profile')).json<{ roles_id: string }>()
        .roles_id,
      company_ids: [companyA],
    });
    expect((await get('/more/a', ended.token)).json()).toEqual({ answer: 'more' });
    await ctx.database.db.delete(sessions).where(eq(sessions.token_hash, hashToken(ended.token)));
    expect((await get('/more/a', ended.token)).statusCode).toBe(401);
    // The public part still answers with the ended token.
    expect((await get('/more/b', ended.token)).json()).toEqual({ answer: 'public' });
  });

  it('a plain public route reads no token at all', async () => {
    expect((await get('/public', ctx.adminToken)).json()).toEqual({ more: false, signedIn: false });
  });
});
