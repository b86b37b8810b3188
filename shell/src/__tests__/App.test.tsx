import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { authStore, STORAGE_KEYS } from '@sertifikasi/shared-auth';
import { loadRemoteRoutes, type RemoteRoutes } from '../remotes';
import { whenToStart } from '../boot-form';
import { fakeApi } from '@sertifikasi/shared-ui/test';
import { sessionUser, userInfo } from './session';
import { renderAt, signedIn as signedInAs } from './render-app';

jest.mock('../remotes', () => ({ loadRemoteRoutes: jest.fn(), registerRemotesFromServer: jest.fn() }));
const loadRemote = loadRemoteRoutes as jest.MockedFunction<typeof loadRemoteRoutes>;

const initial = authStore.getState();
const signedIn = (roles: string[]) =>
  signedInAs(roles, {
    'GET /api/profile': { body: sessionUser },
    'POST /api/logout': { body: { success: true, message: 'ok' } },
  });

beforeEach(() => {
  localStorage.clear();
  authStore.setState(initial, true);
  loadRemote.mockReset();
});

describe('navigation guard', () => {
  it('sends a signed-out user to the login page', async () => {
    fakeApi({});
    const router = renderAt('/user');
    expect(await screen.findByRole('heading', { name: 'Login Sistem Sertifikasi' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(document.title).toBe('Login - Sistem Sertifikasi');
  });

  it('sends a user whose keys lack the route permission to Not Found', async () => {
    signedIn(['statistik', 'user']);
    const router = renderAt('/roles');
    expect(await screen.findByRole('heading', { name: 'Halaman Tidak Ditemukan' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/notfound');
    // Its button back to Statistik (the menu has such a link too).
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Statistik' })).toHaveAttribute(
      'href',
      '/statistik',
    );
  });

  it('lets a route through with its permission, titled "<title> - Sistem Sertifikasi"', async () => {
    signedIn(['statistik', 'user']);
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    renderAt('/user');
    expect(await screen.findByText('Layar User')).toBeInTheDocument();
    expect(loadRemote).toHaveBeenCalledWith('mf_master_data');
    expect(document.title).toBe('User - Sistem Sertifikasi');
    // Header: title, greeting to /profile, company selector, Log Out.
    expect(screen.getByRole('heading', { name: 'User' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Halo, Siti Operator' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('combobox', { name: /Perusahaan/ })).toHaveValue('PT Satu');
    // Menu shows only what the keys allow, and marks the current page.
    expect(screen.getByRole('link', { name: 'User' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Statistik' })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('link', { name: 'Akses User' })).not.toBeInTheDocument();
    expect(screen.queryByText('Laporan')).not.toBeInTheDocument();
  });

  it('lets a route without permission through (profile)', async () => {
    signedIn([]);
    renderAt('/profile');
    expect(await screen.findByRole('heading', { name: 'Pengaturan Profil', level: 2 })).toBeInTheDocument();
    expect(await screen.findByText('siti')).toBeInTheDocument();
    expect(document.title).toBe('Pengaturan Profil - Sistem Sertifikasi');
  });

  it('shows Not Found on an unknown path when signed in', async () => {
    signedIn(['statistik']);
    renderAt('/tidak/ada');
    expect(await screen.findByRole('heading', { name: 'Halaman Tidak Ditemukan' })).toBeInTheDocument();
  });
});

describe('login page', () => {
  it.each([
    ['l-failed', 401, 'Data user tidak ditemukan'],
    ['l-unverified', 401, 'Status user anda tidak aktif'],
    ['l-wrong', 401, 'Nama pengguna & kata sandi salah'],
    ['l-throttled', 429, 'Terlalu banyak percobaan login, coba lagi nanti'],
    ['something-else', 401, 'Data user tidak ditemukan'],
  ])('shows the message for %s', async (code, status, message) => {
    fakeApi({ 'POST /api/login': { status, body: { code, message: 'server text' } } });
    renderAt('/login');
    await userEvent.type(screen.getByLabelText(/Username/), 'siti');
    await userEvent.type(screen.getByLabelText(/Password/), 'salah-sekali');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('requires both fields and shows "Mohon Ditunggu..." while signing in, then lands on statistik', async () => {
    let release: () => void = () => undefined;
    const { calls } = fakeApi({
      'POST /api/login': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: { token: 'N'.repeat(43), user: sessionUser } });
        }),
      'GET /api/user-info': { body: userInfo(['statistik']) },
    });
    loadRemote.mockRejectedValue(new Error('down'));
    const router = renderAt('/login');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Username wajib diisi')).toBeInTheDocument();
    expect(screen.getByText('Password wajib diisi')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(/Username/), 'siti');
    await userEvent.type(screen.getByLabelText(/Password/), 'password-123');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('button', { name: 'Mohon Ditunggu...' })).toBeDisabled();
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/statistik'));
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('N'.repeat(43));
  });

  it('stays busy after signing in until the landing page is drawn (its module still loading)', async () => {
    fakeApi({
      'POST /api/login': { body: { token: 'N'.repeat(43), user: sessionUser } },
      'GET /api/user-info': { body: userInfo(['statistik']) },
    });
    let arrive: (module: RemoteRoutes) => void = () => undefined;
    loadRemote.mockReturnValue(new Promise<RemoteRoutes>((resolve) => (arrive = resolve)));
    const router = renderAt('/login');
    await userEvent.type(screen.getByLabelText(/Username/), 'siti');
    await userEvent.type(screen.getByLabelText(/Password/), 'password-123');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/statistik'));
    // Whatever is on screen meanwhile, the sign-in form never looks ready for another try.
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    arrive({ screens: { '/statistik': () => <p>Layar Statistik</p> } });
    expect(await screen.findByText('Layar Statistik')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Login Sistem Sertifikasi' })).toBeNull();
  });
});

describe("login.html's drawn form", () => {
  it('keeps what was typed before the scripts arrived, and the focus, when React takes the form over', async () => {
    fakeApi({});
    // login.html's form (shell/src/index.html), typed into; React's first commit replaces it (here the
    // test removes it, the page rendering into a container of its own).
    const drawn = document.createElement('div');
    drawn.innerHTML =
      '<div class="boot"><input id="username" value="siti" /><input id="password" type="password" /></div>';
    document.body.append(drawn);
    drawn.querySelector<HTMLInputElement>('#password')!.value = 'rahasia-1';
    drawn.querySelector<HTMLInputElement>('#password')!.focus();
    renderAt('/login');
    drawn.remove();
    expect(screen.getByLabelText(/Username/)).toHaveValue('siti');
    const password = screen.getByLabelText(/Password/);
    expect(password).toHaveValue('rahasia-1');
    await waitFor(() => expect(password).toHaveFocus());
  });
});

describe('a submit of the drawn form before the login page took over', () => {
  it('signs in with what was typed', async () => {
    const { callsTo } = fakeApi({
      'POST /api/login': { body: { token: 'N'.repeat(43), user: sessionUser } },
      'GET /api/user-info': { body: userInfo(['statistik']) },
    });
    loadRemote.mockRejectedValue(new Error('down'));
    const drawn = document.createElement('div');
    drawn.innerHTML =
      '<div class="boot"><form method="dialog"><input id="username" value="siti" />' +
      '<input id="password" type="password" value="rahasia-1" /></form></div>';
    document.body.append(drawn);
    const start = whenToStart();
    drawn.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await start;
    const router = renderAt('/login');
    drawn.remove();
    await waitFor(() => expect(router.state.location.pathname).toBe('/statistik'));
    expect(callsTo('POST', '/api/login')).toHaveLength(1);
  });
});

describe('a module that cannot load', () => {
  it('shows an Indonesian message with a retry inside the layout; the retry loads it', async () => {
    signedIn(['statistik', 'user', 'company']);
    loadRemote.mockRejectedValueOnce(new Error('remote down'));
    loadRemote.mockResolvedValueOnce({ screens: { '/company': () => <p>Layar Perusahaan</p> } });
    renderAt('/company');
    expect(
      await screen.findByText('Modul ini belum tersedia atau sedang tidak dapat dimuat.'),
    ).toBeInTheDocument();
    // The header and menu keep working.
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'User' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Coba Lagi' }));
    expect(await screen.findByText('Layar Perusahaan')).toBeInTheDocument();
  });

  it('catches a module screen that throws while rendering', async () => {
    signedIn(['statistik', 'user']);
    const Broken = () => {
      throw new Error('boom');
    };
    loadRemote.mockResolvedValue({ screens: { '/user': Broken } });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/user');
    expect(
      await screen.findByText('Modul ini belum tersedia atau sedang tidak dapat dimuat.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
  });
});

describe('header', () => {
  it('Log Out signs out and goes to the login page', async () => {
    const { calls } = signedIn(['statistik', 'user']);
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    const router = renderAt('/user');
    await userEvent.click(await screen.findByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/logout')).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

describe('company selector', () => {
  it('finds one of thousands of companies by typing and keeps the choice across reloads', async () => {
    const companies = Array.from({ length: 3000 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `PT Nomor ${i}`,
    }));
    localStorage.setItem(STORAGE_KEYS.token, 'T'.repeat(43));
    authStore.setState({ token: 'T'.repeat(43) });
    fakeApi({
      'GET /api/user-info': { body: { ...userInfo(['statistik', 'user']), company_ids: 'ALL', companies } },
    });
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    renderAt('/user');
    const selector = await screen.findByRole('combobox', { name: /Perusahaan/ });
    await userEvent.clear(selector);
    await userEvent.type(selector, 'Nomor 2999');
    await userEvent.click(await screen.findByRole('option', { name: 'PT Nomor 2999' }));
    expect(authStore.getState().company_id).toBe(companies[2999]!.id);
    expect(localStorage.getItem(STORAGE_KEYS.companyId)).toBe(companies[2999]!.id);
  });
});
