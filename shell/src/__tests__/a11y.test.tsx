import { useState } from 'react';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { authStore } from '@sertifikasi/shared-auth';
import { loadRemoteRoutes } from '../remotes';
import { renderAt, signedIn } from './render-app';

configure({ asyncUtilTimeout: 5000 });

jest.mock('../remotes', () => ({ loadRemoteRoutes: jest.fn(), registerRemotesFromServer: jest.fn() }));
const loadRemote = loadRemoteRoutes as jest.MockedFunction<typeof loadRemoteRoutes>;

const initial = authStore.getState();
beforeEach(() => {
  localStorage.clear();
  authStore.setState(initial, true);
  loadRemote.mockReset();
});

/** A screen with a button that goes away when pressed (as a deleted row's 'Hapus' does). */
function Vanishing() {
  const [shown, setShown] = useState(true);
  return shown ? <button onClick={() => setShown(false)}>Hapus baris</button> : <p>Baris terhapus</p>;
}

describe('keyboard and screen readers on signed-in screens', () => {
  it("the first Tab reaches 'Langsung ke konten utama', which moves the focus to the content", async () => {
    signedIn(['statistik', 'user']);
    loadRemote.mockResolvedValue({ screens: { '/user': () => <button>Tambah User</button> } });
    const user = userEvent.setup();
    renderAt('/user');
    await screen.findByRole('button', { name: 'Tambah User' });

    await user.tab();
    const skip = screen.getByRole('link', { name: 'Langsung ke konten utama' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    // The next Tab is in the content, past the menu and the header.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Tambah User' })).toHaveFocus();
  });

  it('names the page once: one h1 (the route title) and the tab title', async () => {
    signedIn(['user']);
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    renderAt('/user');
    await screen.findByText('Layar User');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['User']);
    expect(document.title).toBe('User - Sistem Sertifikasi');
  });

  it('the menu is one list: links and groups are list items, each group a named list its toggle controls', async () => {
    signedIn(['statistik', 'user', 'roles', 'company']);
    loadRemote.mockResolvedValue({ screens: { '/user': () => <p>Layar User</p> } });
    const user = userEvent.setup();
    renderAt('/user');
    await screen.findByText('Layar User');
    const nav = screen.getAllByRole('navigation', { name: 'Navigasi utama' })[0]!;
    // Every list holds only list items (what axe's `list` rule asks).
    for (const list of nav.querySelectorAll('ul')) {
      expect([...list.children].map((c) => c.tagName)).toEqual([...list.children].map(() => 'LI'));
    }
    const group = within(nav).getByRole('list', { name: 'Master Data' });
    expect(
      within(group)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Akses User', 'User', 'Perusahaan']);
    const toggle = within(nav).getByRole('button', { name: 'Master Data' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', group.id);
    act(() => toggle.focus());
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(within(nav).queryByRole('list', { name: 'Master Data' })).toBeNull());
    await user.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await within(nav).findByRole('list', { name: 'Master Data' })).toBeInTheDocument();
  });

  it('when the focused control goes away, the focus goes to the content, not the page start', async () => {
    signedIn(['user']);
    loadRemote.mockResolvedValue({ screens: { '/user': Vanishing } });
    const user = userEvent.setup();
    renderAt('/user');
    const button = await screen.findByRole('button', { name: 'Hapus baris' });
    act(() => button.focus());
    await user.keyboard('{Enter}');
    await screen.findByText('Baris terhapus');
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });
});
