import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { authStore, STORAGE_KEYS } from '@sertifikasi/shared-auth';
import { loadRemoteRoutes, type RemoteRoutes } from '../remotes';
import { fakeApi } from '@sertifikasi/shared-ui/test';
import { sessionUser, userInfo } from './session';
import { renderAt, signedIn } from './render-app';

// MUI in jsdom on a busy machine: give the first render of a file time.
configure({ asyncUtilTimeout: 5000 });

jest.mock('../remotes', () => ({ loadRemoteRoutes: jest.fn(), registerRemotesFromServer: jest.fn() }));
const loadRemote = loadRemoteRoutes as jest.MockedFunction<typeof loadRemoteRoutes>;

const initial = authStore.getState();
/** A promise the test settles when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

beforeEach(() => {
  localStorage.clear();
  authStore.setState(initial, true);
  loadRemote.mockReset();
});

describe('layout: header, menu and content never overlap', () => {
  it('keeps the header in the page flow (sticky at the top) with the content right below it', async () => {
    signedIn(['statistik', 'user']);
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    renderAt('/user');
    await screen.findByText('Layar User');
    const header = screen.getByRole('banner');
    // A fixed header takes no room, so content under a header that wraps to more rows is hidden;
    // a sticky one pushes the content down by its real height.
    expect(getComputedStyle(header).position).toBe('sticky');
    expect(header.nextElementSibling).toBe(screen.getByRole('main'));
  });

  it('opens the phone menu above the header, so its first links can be tapped, and closes it', async () => {
    signedIn(['statistik', 'user', 'roles']);
    loadRemote.mockResolvedValue({
      screens: { '/user': () => <p>Layar User</p>, '/roles': () => <p>Layar Akses</p> },
    });
    const user = userEvent.setup();
    const router = renderAt('/user');
    await screen.findByText('Layar User');

    await user.click(screen.getByRole('button', { name: 'Buka menu' }));
    const close = await screen.findByRole('button', { name: 'Tutup menu' });
    const drawer = close.closest<HTMLElement>('.MuiDrawer-root')!;
    const layer = (el: HTMLElement) => Number(getComputedStyle(el).zIndex);
    // (The open menu is modal: the rest of the page, the header included, is hidden from the a11y tree.)
    expect(layer(drawer)).toBeGreaterThan(layer(screen.getByRole('banner', { hidden: true })));
    const menu = within(drawer).getByRole('navigation', { name: 'Navigasi utama' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Statistik', 'Akses User', 'User']);

    await user.click(close);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Tutup menu' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Buka menu' }));
    const again = (await screen.findByRole('button', { name: 'Tutup menu' })).closest<HTMLElement>(
      '.MuiDrawer-root',
    )!;
    await user.click(within(again).getByRole('link', { name: 'Akses User' }));
    expect(await screen.findByText('Layar Akses')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/roles');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Tutup menu' })).not.toBeInTheDocument());
  });
});

describe('no blank screen', () => {
  it('goes from the login page straight to the layout, with a progress bar while the module loads', async () => {
    const remote = deferred<RemoteRoutes>();
    loadRemote.mockReturnValue(remote.promise);
    fakeApi({
      'POST /api/login': { body: { token: 'N'.repeat(43), user: sessionUser } },
      'GET /api/user-info': { body: userInfo(['statistik']) },
    });
    const router = renderAt('/login');
    // Every state the page goes through shows the login form or the layout's header, never neither.
    const blank: string[] = [];
    const observer = new MutationObserver(() => {
      const login = screen.queryByRole('heading', { name: 'Login Sistem Sertifikasi' });
      if (!login && !screen.queryByRole('banner')) blank.push(document.body.innerHTML);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'siti');
    await user.type(screen.getByLabelText(/Password/), 'password-123');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/statistik'));

    const main = await screen.findByRole('main');
    expect(within(main).getByRole('progressbar', { name: 'Memuat modul...' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('banner')).getByRole('heading', { name: 'Statistik' }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Statistik' }).length).toBeGreaterThan(0);
    observer.disconnect();
    expect(blank).toEqual([]);

    await act(async () => remote.resolve({ screens: { '/statistik': () => <p>Layar Statistik</p> } }));
    expect(await within(main).findByText('Layar Statistik')).toBeInTheDocument();
    expect(within(main).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it("on a reload shows the layout with the page's title and a progress bar while the permissions load", async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'T'.repeat(43));
    authStore.setState({ token: 'T'.repeat(43) });
    const info = deferred<{ body: unknown }>();
    fakeApi({ 'GET /api/user-info': () => info.promise });
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    renderAt('/user');

    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('heading', { name: 'User' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('progressbar')).toBeInTheDocument();
    // No menu links until the permissions are known (rather than the few a signed-out page has).
    expect(screen.queryAllByRole('link', { name: 'Statistik' })).toHaveLength(0);

    await act(async () => info.resolve({ body: userInfo(['statistik', 'user']) }));
    expect(await within(main).findByText('Layar User')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'User' }).length).toBeGreaterThan(0);
  });
});
