import { eq } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import { ADMIN_PASSWORD, call, login, useTestContext, expect422, postRaw } from '../../../test/helpers';

const ctx = useTestContext();

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('POST /api/login', () => {
  it('answers a token and the user, without any hash', async () => {
    const res = await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.user).toMatchObject({ username: 'admin', company_ids: 'ALL', is_active: 'true' });
    expect(body.user.roles).toMatchObject({ name: 'Administrator' });
    expect(res.body).not.toMatch(/argon2|password_hash|token_hash/);
  });

  it('accepts the username in any case', async () => {
    const res = await post('/api/login', { username: 'ADMIN', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it('answers l-wrong alike for an unknown username and a wrong password', async () => {
    const unknown = await post('/api/login', { username: 'nobody-here', password: 'whatever-1' });
    const wrong = await post('/api/login', { username: 'admin', password: 'not-the-password' });
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'l-wrong', message: 'Nama pengguna & kata sandi salah' });
    }
  });

  it('refuses missing fields with 422 and field errors, malformed JSON with 400', async () => {
    const missing = await post('/api/login', { username: '' });
    expect422.including(missing, {
      username: 'Username wajib diisi',
      password: 'Password wajib diisi',
    });
    const malformed = await postRaw(ctx.app, '/api/login', 'application/json', '{"username": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'bad-request' });
    const unknownField = await post('/api/login', { username: 'a', password: 'b', admin: true });
    expect(unknownField.statusCode).toBe(422);
    expect(unknownField.json().errors).toHaveProperty('admin');
    const huge = await post('/api/login', { username: 'x'.repeat(5000), password: 'y' });
    expect(huge.statusCode).toBe(422);
  });

  it('answers l-unverified only to an inactive user with the right password', async () => {
    const role = await ctx.make.role('Pemeriksa Login', ['statistik']);
    const user = await ctx.make.user({ username: 'nonaktif', roles_id: role, company_ids: 'ALL' });
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `/api/user/${user.id}`, {
      name: 'nonaktif',
      username: 'nonaktif',
      roles_id: role,
      company_ids: '"ALL"',
      is_active: 'false',
    });
    expect(res.statusCode).toBe(200);
    const right = await post('/api/login', { username: 'nonaktif', password: 'password-123' });
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual({ code: 'l-unverified', message: 'Status user anda tidak aktif' });
    const wrong = await post('/api/login', { username: 'nonaktif', password: 'password-xyz' });
    expect(wrong.json().code).toBe('l-wrong');
    // Deactivation ended the session the user had.
    expect((await call(ctx.app, user.token, 'GET', '/api/profile')).statusCode).toBe(401);
  });

  it('throttles after 10 failures for one username within 15 minutes, even with the right password', async () => {
    await ctx.make.user({ username: 'target', keys: ['statistik'], company_ids: 'ALL' });
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/login', { username: 'target', password: `wrong-${i}-pass` });
      expect(res.json().code).toBe('l-wrong');
    }
    const blocked = await post('/api/login', { username: 'TARGET', password: 'password-123' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      code: 'l-throttled',
      message: 'Terlalu banyak percobaan login, coba lagi nanti',
    });
    // Another username from the same address still signs in.
    expect((await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('401 without a token, with a malformed one and with an unknown one', async () => {
    expect((await ctx.app.inject({ url: '/api/profile' })).statusCode).toBe(401);
    const bad = await ctx.app.inject({ url: '/api/profile', headers: { authorization: 'Bearer x' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'unauthenticated' });
    const unknown = await call(ctx.app, 'A'.repeat(43), 'GET', '/api/profile');
    expect(unknown.statusCode).toBe(401);
  });

  it('logout revokes the token', async () => {
    const token = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    expect((await call(ctx.app, token, 'GET', '/api/profile')).statusCode).toBe(200);
    expect((await call(ctx.app, token, 'POST', '/api/logout')).json()).toMatchObject({ success: true });
    expect((await call(ctx.app, token, 'GET', '/api/profile')).statusCode).toBe(401);
  });

  it('ends a session after 12 hours unused and after 7 days at most', async () => {
    const idle = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const old = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const { hashToken } = await import('../../lib/crypto');
    const db = ctx.database.db;
    await db
      .update(sessions)
      .set({ last_used_at: new Date(Date.now() - 13 * 3600_000) })
      .where(eq(sessions.token_hash, hashToken(idle)));
    await db
      .update(sessions)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(sessions.token_hash, hashToken(old)));
    expect((await call(ctx.app, idle, 'GET', '/api/profile')).statusCode).toBe(401);
    expect((await call(ctx.app, old, 'GET', '/api/profile')).statusCode).toBe(401);
  });

  it('stores only a hash of the token', async () => {
    const token = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const rows = await ctx.database.db.select().from(sessions);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });
});

describe('profile and user-info', () => {
  it('user-info lists permission keys, scope and pickable companies', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/user-info');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.roles).toEqual(
      expect.arrayContaining(['statistik', 'user', 'user:create', 'company:delete']),
    );
    expect(body.company_ids).toBe('ALL');
    expect(Array.isArray(body.companies)).toBe(true);
  });

  it('updates own profile; a new password ends the other sessions but not this one', async () => {
    const role = await ctx.make.role('Profil', ['statistik']);
    const me = await ctx.make.user({ username: 'profil', roles_id: role, company_ids: 'ALL' });
    const other = await login(ctx.app, 'profil', 'password-123');
    const res = await call(ctx.app, me.token, 'PUT', '/api/profile', {
      name: 'Nama Baru',
      username: 'profil.baru',
      password: 'new-password-9',
      current_password: 'password-123',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Nama Baru', username: 'profil.baru' });
    expect((await call(ctx.app, me.token, 'GET', '/api/profile')).statusCode).toBe(200);
    expect((await call(ctx.app, other, 'GET', '/api/profile')).statusCode).toBe(401);
    await login(ctx.app, 'profil.baru', 'new-password-9');
  });

  it('refuses a taken username (ignoring case), a short password and a blank name', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'PUT', '/api/profile', {
      name: '',
      username: 'PROFIL.BARU',
      password: 'short',
    });
    expect422.including(res, {
      name: 'Nama User wajib diisi',
      password: 'Password minimal 8 karakter',
    });
    const taken = await call(ctx.app, ctx.adminToken, 'PUT', '/api/profile', {
      name: 'Admin',
      username: 'PROFIL.BARU',
    });
    expect422.errors(taken, { username: 'Username sudah digunakan' });
  });

  it('a new password needs the current one: missing or wrong answers 422 on current_password and changes nothing', async () => {
    const me = await ctx.make.user({ username: 'profil.sandi', keys: ['statistik'], company_ids: 'ALL' });
    const other = await login(ctx.app, 'profil.sandi', 'password-123');
    const base = { name: 'Diambil Alih', username: 'profil.sandi', password: 'taken-over-pw' };
    const missing = await call(ctx.app, me.token, 'PUT', '/api/profile', base);
    expect422.field(missing, 'current_password', 'Password Saat Ini wajib diisi');
    const wrong = await call(ctx.app, me.token, 'PUT', '/api/profile', {
      ...base,
      current_password: 'not-my-password',
    });
    expect422.field(wrong, 'current_password', 'Password Saat Ini salah');
    // Nothing changed: the old password still signs in, the name stayed, no session ended.
    expect((await call(ctx.app, me.token, 'GET', '/api/profile')).json().name).toBe('profil.sandi');
    expect((await call(ctx.app, other, 'GET', '/api/profile')).statusCode).toBe(200);
    await login(ctx.app, 'profil.sandi', 'password-123');
    // Name and username alone need no password.
    const rename = await call(ctx.app, me.token, 'PUT', '/api/profile', {
      name: 'Nama Saja',
      username: 'profil.sandi',
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().name).toBe('Nama Saja');
  });

  it('guesses of the current password count as failed sign-ins: past the limit 429, the right one refused too', async () => {
    const me = await ctx.make.user({ username: 'profil.tebak', keys: ['statistik'], company_ids: 'ALL' });
    const change = (current: string) =>
      call(ctx.app, me.token, 'PUT', '/api/profile', {
        name: 'Tebak',
        username: 'profil.tebak',
        password: 'new-password-9',
        current_password: current,
      });
    for (let i = 0; i < 10; i++) expect((await change(`guess-number-${i}`)).statusCode).toBe(422);
    const throttled = await change('password-123');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().code).toBe('l-throttled');
    // The sign-in page from the same address is throttled for this account as well.
    expect(
      (await post('/api/login', { username: 'profil.tebak', password: 'password-123' })).statusCode,
    ).toBe(429);
  });

  it('refuses a new password of only spaces (422), even with the right current password', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'PUT', '/api/profile', {
      name: 'Administrator',
      username: 'admin',
      password: '          ',
      current_password: ADMIN_PASSWORD,
    });
    expect422.errors(res, { password: 'Password tidak boleh hanya berisi spasi' });
    await login(ctx.app, 'admin', ADMIN_PASSWORD);
  });
});
