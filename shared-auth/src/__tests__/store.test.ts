import { authStore, LoginFailure, refreshUserInfo, setApiErrorNotifier } from '../index';
import { fakeFetch, json } from './fake-fetch';
import { ADMIN, COMPANY_A, COMPANY_B, PROFILE, resetSession, signIn, userInfo } from './session';

const realFetch = globalThis.fetch;
beforeEach(resetSession);
afterEach(() => {
  globalThis.fetch = realFetch;
});

const state = () => authStore.getState();

async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!done()) throw new Error('the condition never held');
}

async function loginFailure(username = 'admin', password = 'rahasia123'): Promise<LoginFailure> {
  const err: unknown = await state()
    .login(username, password)
    .then(
      () => null,
      (e: unknown) => e,
    );
  if (!(err instanceof LoginFailure)) throw new Error(`expected a LoginFailure, got ${String(err)}`);
  return err;
}

describe('login', () => {
  it('stores the token (state and local storage) and the user, and sends the credentials', async () => {
    const { requests, bodies } = fakeFetch({
      'POST /api/login': { body: { token: 'tok-abc', user: ADMIN } },
    });
    const loading = state().login('admin', 'rahasia123');
    expect(state().status).toBe('loading');
    await loading;

    expect(state()).toMatchObject({ token: 'tok-abc', user: ADMIN, status: 'success' });
    expect(localStorage.getItem('sertifikasi.token')).toBe('tok-abc');
    const [request] = requests();
    expect(request!.url).toBe('http://localhost/api/login');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(bodies()[0]!)).toEqual({ username: 'admin', password: 'rahasia123' });
  });

  it.each([
    [401, 'l-failed', 'Data user tidak ditemukan'],
    [401, 'l-unverified', 'Status user anda tidak aktif'],
    [401, 'l-wrong', 'Nama pengguna & kata sandi salah'],
    [429, 'l-throttled', 'Terlalu banyak percobaan login, coba lagi nanti'],
    [401, 'something-new', 'Data user tidak ditemukan'],
    [500, 'internal', 'Data user tidak ditemukan'],
    [503, 'unavailable', 'Layanan sedang tidak tersedia, silakan coba lagi beberapa saat lagi'],
  ])('a %i %s answer reads %p and clears token and user', async (status, code, message) => {
    signIn('old-token');
    fakeFetch({ 'POST /api/login': { status, body: { code, message: 'server text' } } });

    const err = await loginFailure();

    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
    expect(state()).toMatchObject({ token: null, user: null, status: 'failed' });
    expect(localStorage.getItem('sertifikasi.token')).toBeNull();
  });

  it('a network failure reads Data user tidak ditemukan', async () => {
    signIn('old-token');
    globalThis.fetch = jest.fn(() => Promise.reject(new TypeError('fetch failed')));

    const err = await loginFailure();

    expect(err.message).toBe('Data user tidak ditemukan');
    expect(err.code).toBe('l-failed');
    expect(state()).toMatchObject({ token: null, user: null, status: 'failed' });
    expect(localStorage.getItem('sertifikasi.token')).toBeNull();
  });

  it('an answer without an error body reads Data user tidak ditemukan', async () => {
    globalThis.fetch = jest.fn(() => Promise.resolve(new Response('Bad Gateway', { status: 502 })));
    expect((await loginFailure()).message).toBe('Data user tidak ditemukan');
  });

  it("forgets the previous user's permissions and companies", async () => {
    authStore.setState({ roles: ['statistik', 'company'], company_ids: 'ALL', companies: [COMPANY_A] });
    fakeFetch({ 'POST /api/login': { body: { token: 'tok-2', user: ADMIN } } });
    await state().login('admin', 'rahasia123');
    expect(state()).toMatchObject({ roles: ['statistik'], company_ids: null, companies: [] });
  });
});

describe('logout', () => {
  it('revokes the token on the server, then clears token, user, roles, company selection and profile', async () => {
    signIn('tok-out');
    authStore.setState({
      roles: ['statistik', 'user'],
      profile: PROFILE,
      company_ids: 'ALL',
      companies: [COMPANY_A],
    });
    state().setCompany(COMPANY_A.id);
    const { requests } = fakeFetch({ 'POST /api/logout': { body: { success: true, message: 'ok' } } });

    await state().logout();

    expect(requests().map((r) => [r.method, r.url, r.headers.get('authorization')])).toEqual([
      ['POST', 'http://localhost/api/logout', 'Bearer tok-out'],
    ]);
    expect(state()).toMatchObject({
      token: null,
      user: null,
      roles: ['statistik'],
      company_ids: null,
      companies: [],
      company_id: null,
      profile: null,
    });
    expect(localStorage.getItem('sertifikasi.token')).toBeNull();
    expect(localStorage.getItem('sertifikasi.company_id')).toBeNull();
  });

  it('signs out locally even when the server call fails', async () => {
    signIn('tok-out');
    globalThis.fetch = jest.fn(() => Promise.reject(new TypeError('fetch failed')));
    await expect(state().logout()).resolves.toBeUndefined();
    expect(state()).toMatchObject({ token: null, user: null });
    expect(localStorage.getItem('sertifikasi.token')).toBeNull();
  });
});

describe('loadUserInfo', () => {
  beforeEach(() => signIn());

  it('takes the user, permission keys, scope and pickable companies', async () => {
    const { requests } = fakeFetch({ 'GET /api/user-info': { body: userInfo() } });
    await state().loadUserInfo();
    expect(requests()[0]!.url).toBe('http://localhost/api/user-info');
    expect(state()).toMatchObject({
      user: ADMIN,
      roles: ['statistik', 'user', 'user:edit'],
      company_ids: 'ALL',
      companies: [COMPANY_A, COMPANY_B],
    });
  });

  it('keeps the saved company when it is still allowed', async () => {
    state().setCompany(COMPANY_B.id);
    fakeFetch({ 'GET /api/user-info': { body: userInfo() } });
    await state().loadUserInfo();
    expect(state().company_id).toBe(COMPANY_B.id);
  });

  it("starts an administrator with scope ALL on 'Semua Perusahaan' when nothing was saved, and saves it", async () => {
    fakeFetch({
      'GET /api/user-info': { body: userInfo({ company_ids: 'ALL', companies: [COMPANY_A, COMPANY_B] }) },
    });
    await state().loadUserInfo();
    expect(state().company_id).toBe('ALL');
    expect(localStorage.getItem('sertifikasi.company_id')).toBe('ALL');
  });

  it('starts a user limited to a list of companies on the first of them when nothing was saved', async () => {
    const limited = { company_ids: [COMPANY_A.id, COMPANY_B.id], companies: [COMPANY_B, COMPANY_A] };
    fakeFetch({ 'GET /api/user-info': { body: userInfo(limited) } });
    await state().loadUserInfo();
    expect(state().company_id).toBe(COMPANY_B.id);
    expect(localStorage.getItem('sertifikasi.company_id')).toBe(COMPANY_B.id);
  });

  it('moves off a saved company that is no longer allowed: to ALL for scope ALL, else to the first company', async () => {
    state().setCompany('cccccccc-0000-4000-8000-000000000003');
    fakeFetch({ 'GET /api/user-info': { body: userInfo() } });
    await state().loadUserInfo();
    expect(state().company_id).toBe('ALL');
    expect(localStorage.getItem('sertifikasi.company_id')).toBe('ALL');

    state().setCompany('cccccccc-0000-4000-8000-000000000003');
    fakeFetch({
      'GET /api/user-info': { body: userInfo({ company_ids: [COMPANY_A.id], companies: [COMPANY_A] }) },
    });
    await state().loadUserInfo();
    expect(state().company_id).toBe(COMPANY_A.id);
    expect(localStorage.getItem('sertifikasi.company_id')).toBe(COMPANY_A.id);
  });

  it('keeps a saved ALL for scope ALL and for several companies', async () => {
    state().setCompany('ALL');
    fakeFetch({ 'GET /api/user-info': { body: userInfo({ company_ids: 'ALL', companies: [COMPANY_A] }) } });
    await state().loadUserInfo();
    expect(state().company_id).toBe('ALL');

    fakeFetch({
      'GET /api/user-info': {
        body: userInfo({ company_ids: [COMPANY_A.id, COMPANY_B.id], companies: [COMPANY_A, COMPANY_B] }),
      },
    });
    await state().loadUserInfo();
    expect(state().company_id).toBe('ALL');
  });

  it('drops a saved ALL for a user limited to one company', async () => {
    state().setCompany('ALL');
    fakeFetch({
      'GET /api/user-info': { body: userInfo({ company_ids: [COMPANY_B.id], companies: [COMPANY_B] }) },
    });
    await state().loadUserInfo();
    expect(state().company_id).toBe(COMPANY_B.id);
  });

  it('ignores an answer that arrives after the user signed out', async () => {
    let answer: (r: Response) => void = () => undefined;
    globalThis.fetch = jest.fn((input: RequestInfo | URL) =>
      new Request(input).url.endsWith('/api/user-info')
        ? new Promise<Response>((resolve) => (answer = resolve))
        : Promise.resolve(json(200, { success: true, message: 'ok' })),
    );
    const loading = state().loadUserInfo();
    await new Promise((r) => setTimeout(r, 0));
    await state().logout();
    answer(json(200, userInfo()));
    await loading;
    expect(state()).toMatchObject({
      token: null,
      user: null,
      roles: ['statistik'],
      companies: [],
      company_id: null,
    });
    expect(localStorage.getItem('sertifikasi.company_id')).toBeNull();
  });

  it('rejects when the call fails, leaving the state as it was', async () => {
    fakeFetch({ 'GET /api/user-info': { status: 500, body: { code: 'internal', message: 'x' } } });
    await expect(state().loadUserInfo()).rejects.toThrow();
    expect(state()).toMatchObject({ roles: ['statistik'], companies: [], token: 'token-1' });
  });
});

describe('refreshUserInfo', () => {
  afterEach(() => setApiErrorNotifier(() => undefined));

  it('picks up a company added since sign-in, and moves off a deleted selected one', async () => {
    signIn();
    fakeFetch({ 'GET /api/user-info': { body: userInfo({ companies: [COMPANY_A] }) } });
    await state().loadUserInfo();
    state().setCompany(COMPANY_A.id);

    fakeFetch({ 'GET /api/user-info': { body: userInfo({ companies: [COMPANY_A, COMPANY_B] }) } });
    refreshUserInfo();
    await waitUntil(() => state().companies.length === 2);
    expect(state().company_id).toBe(COMPANY_A.id);

    fakeFetch({ 'GET /api/user-info': { body: userInfo({ companies: [COMPANY_B] }) } });
    refreshUserInfo();
    await waitUntil(() => state().companies.length === 1);
    expect(state().company_id).toBe('ALL');
  });

  it('reports a failure through the error notifier and keeps what the store held', async () => {
    signIn();
    fakeFetch({ 'GET /api/user-info': { body: userInfo({ companies: [COMPANY_A] }) } });
    await state().loadUserInfo();
    const notified: string[] = [];
    setApiErrorNotifier((message) => notified.push(message));
    fakeFetch({ 'GET /api/user-info': { status: 500, body: { code: 'internal', message: 'x' } } });
    refreshUserInfo();
    await waitUntil(() => notified.length > 0);
    expect(notified).toEqual(['Maaf, ada kesalahan pada sistem']);
    expect(state().companies).toEqual([COMPANY_A]);
  });

  it('asks for nothing when signed out', () => {
    const { requests } = fakeFetch({});
    refreshUserInfo();
    expect(requests()).toHaveLength(0);
  });
});

describe('loadProfile', () => {
  it('loads the profile', async () => {
    signIn();
    fakeFetch({ 'GET /api/profile': { body: PROFILE } });
    await state().loadProfile();
    expect(state().profile).toEqual(PROFILE);
  });
});

describe('setCompany', () => {
  it('selects and saves a company or ALL', () => {
    state().setCompany(COMPANY_A.id);
    expect(state().company_id).toBe(COMPANY_A.id);
    expect(localStorage.getItem('sertifikasi.company_id')).toBe(COMPANY_A.id);
    state().setCompany('ALL');
    expect(state().company_id).toBe('ALL');
    expect(localStorage.getItem('sertifikasi.company_id')).toBe('ALL');
  });
});

describe('mobile menu', () => {
  it('toggles and closes', () => {
    expect(state().mobileMenuOpen).toBe(false);
    state().toggleMobileMenu();
    expect(state().mobileMenuOpen).toBe(true);
    state().toggleMobileMenu();
    expect(state().mobileMenuOpen).toBe(false);
    state().toggleMobileMenu();
    state().closeMobileMenu();
    expect(state().mobileMenuOpen).toBe(false);
  });
});

describe('after a reload', () => {
  it('starts from the saved token and company, signed out otherwise', () => {
    localStorage.setItem('sertifikasi.token', 'saved-token');
    localStorage.setItem('sertifikasi.company_id', COMPANY_B.id);
    let reloaded: typeof authStore | undefined;
    jest.isolateModules(() => {
      // A fresh copy of the module stands for a new page load here (not for a second importer).
      ({ authStore: reloaded } = jest.requireActual<{ authStore: typeof authStore }>('../index'));
    });
    expect(reloaded!.getState()).toMatchObject({
      token: 'saved-token',
      company_id: COMPANY_B.id,
      user: null,
      roles: ['statistik'],
      status: 'idle',
    });
  });
});
