/**
 * Users' optional 'Email' (the weekly digest goes there): on the user form and the profile, unique
 * ignoring case when given, removable.
 */
import { call, useTestContext, expect422 } from '../../../test/helpers';

const ctx = useTestContext();
let role: string;

beforeAll(async () => {
  role = await ctx.make.role('Staf Email', ['statistik']);
});

const userBody = (username: string, over: Record<string, unknown> = {}) => ({
  name: username,
  username,
  password: 'password-123',
  roles_id: role,
  company_ids: '"ALL"',
  ...over,
});
/** The administrator adds a user with the usual body and `over`. */
const addUser = (username: string, over: Record<string, unknown> = {}) =>
  call(ctx.app, ctx.adminToken, 'POST', '/api/user', userBody(username, over));

describe('a user’s email', () => {
  it('is optional, unique ignoring case, kept when absent and removed when empty', async () => {
    const none = await addUser('tanpa.email');
    expect(none.statusCode).toBe(201);
    expect(none.json()).toMatchObject({ email: null });

    const res = await addUser('sari', { email: ' Sari@LSP.test ' });
    expect(res.statusCode).toBe(201);
    const sari = res.json<{ id: string; email: string }>();
    expect(sari.email).toBe('Sari@LSP.test');

    const taken = await addUser('sari2', { email: 'sari@lsp.TEST' });
    expect422.errors(taken, { email: 'Email sudah digunakan' });

    const bad = await addUser('sari3', { email: 'bukan email' });
    expect(bad.json().errors).toEqual({ email: 'Email harus berupa alamat email yang valid' });

    const { password: _p, ...edit } = userBody('sari');
    const kept = await call(ctx.app, ctx.adminToken, 'PUT', `/api/user/${sari.id}`, {
      ...edit,
      name: 'Sari W',
    });
    expect(kept.json()).toMatchObject({ name: 'Sari W', email: 'Sari@LSP.test' });
    const removed = await call(ctx.app, ctx.adminToken, 'PUT', `/api/user/${sari.id}`, {
      ...edit,
      email: '',
    });
    expect(removed.json()).toMatchObject({ email: null });
    // Free again.
    const reused = await addUser('sari4', { email: 'sari@lsp.test' });
    expect(reused.statusCode).toBe(201);
  });

  it('is set on one’s own profile, and shown there', async () => {
    const budi = await ctx.make.user({ username: 'budi.profil', roles_id: role, company_ids: 'ALL' });
    const put = await call(ctx.app, budi.token, 'PUT', '/api/profile', {
      name: 'Budi',
      username: 'budi.profil',
      email: 'budi@lsp.test',
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ email: 'budi@lsp.test' });
    expect((await call(ctx.app, budi.token, 'GET', '/api/profile')).json()).toMatchObject({
      email: 'budi@lsp.test',
    });
    expect((await call(ctx.app, budi.token, 'GET', '/api/user-info')).json().user).toMatchObject({
      email: 'budi@lsp.test',
    });
    const taken = await call(ctx.app, budi.token, 'PUT', '/api/profile', {
      name: 'Budi',
      username: 'budi.profil',
      email: 'SARI@lsp.test',
    });
    expect422.errors(taken, { email: 'Email sudah digunakan' });
  });
});
