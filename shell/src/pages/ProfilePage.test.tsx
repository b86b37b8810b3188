import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { authStore, STORAGE_KEYS } from '@sertifikasi/shared-auth';
import { App, routeObjects } from '../App';
import { type Answer, type Call, fakeApi } from '@sertifikasi/shared-ui/test';
import { sessionUser, userInfo } from '../__tests__/session';

jest.mock('../remotes', () => ({ loadRemoteRoutes: jest.fn(), registerRemotesFromServer: jest.fn() }));

const initial = authStore.getState();
beforeEach(() => {
  localStorage.clear();
  authStore.setState(initial, true);
});

/** Signed in on /profile with the 'Ubah Profil' modal open; `save` answers PUT /api/profile. */
async function openProfileModal(save: (call: Call) => Answer) {
  localStorage.setItem(STORAGE_KEYS.token, 'T'.repeat(43));
  authStore.setState({ token: 'T'.repeat(43) });
  const api = fakeApi({
    'GET /api/user-info': { body: userInfo(['statistik']) },
    'GET /api/profile': { body: sessionUser },
    'PUT /api/profile': save,
  });
  render(<App router={createMemoryRouter(routeObjects, { initialEntries: ['/profile'] })} />);
  // The profile page's code loads lazily (on a cold jest cache that takes more than a second).
  await userEvent.click(await screen.findByRole('button', { name: 'Ubah Profil' }, { timeout: 10_000 }));
  const dialog = await screen.findByRole('dialog', { name: 'Ubah Profil' });
  return { dialog, puts: () => api.calls.filter((c) => c.method === 'PUT') };
}

const newPassword = (dialog: HTMLElement) => within(dialog).getByLabelText(/^Password$/);
const currentPassword = (dialog: HTMLElement) => within(dialog).queryByLabelText(/^Password Saat Ini/);

describe('the profile modal', () => {
  it('asks for the current password once a new one is typed, and sends both', async () => {
    const { dialog, puts } = await openProfileModal(() => ({ body: sessionUser }));
    expect(currentPassword(dialog)).not.toBeInTheDocument();
    await userEvent.type(newPassword(dialog), 'sandi-baru-123');
    expect(currentPassword(dialog)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Password Saat Ini wajib diisi')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);
    await userEvent.type(currentPassword(dialog)!, 'sandi-lama-123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts().map((c) => c.json)).toEqual([
      {
        name: sessionUser.name,
        username: sessionUser.username,
        email: '',
        password: 'sandi-baru-123',
        current_password: 'sandi-lama-123',
      },
    ]);
  });

  it('shows a wrong current password under its field and stays open', async () => {
    const { dialog } = await openProfileModal(() => ({
      status: 422,
      body: {
        code: 'validation',
        message: 'Password Saat Ini salah',
        errors: { current_password: 'Password Saat Ini salah' },
      },
    }));
    await userEvent.type(newPassword(dialog), 'sandi-baru-123');
    await userEvent.type(currentPassword(dialog)!, 'bukan-sandi-saya');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    const field = currentPassword(dialog)!;
    await waitFor(() => expect(field).toHaveAccessibleDescription('Password Saat Ini salah'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Ubah Profil' })).toBeInTheDocument();
  });

  it('refuses a new password of only spaces', async () => {
    const { dialog, puts } = await openProfileModal(() => ({ body: sessionUser }));
    await userEvent.type(newPassword(dialog), '          ');
    await userEvent.type(currentPassword(dialog)!, 'sandi-lama-123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    expect(await within(dialog).findByText('Password tidak boleh hanya berisi spasi')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);
  });

  it('changes name and username alone without asking for any password', async () => {
    const { dialog, puts } = await openProfileModal(() => ({ body: { ...sessionUser, name: 'Siti Baru' } }));
    const name = within(dialog).getByLabelText(/^Nama User/);
    await userEvent.clear(name);
    await userEvent.type(name, 'Siti Baru');
    expect(currentPassword(dialog)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts().map((c) => c.json)).toEqual([
      { name: 'Siti Baru', username: sessionUser.username, email: '' },
    ]);
  });

  it('sets the email', async () => {
    const { dialog, puts } = await openProfileModal((call) => ({
      body: { ...sessionUser, ...(call.json as object) },
    }));
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'siti@lsp.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Simpan Data' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts().map((c) => (c.json as { email: string }).email)).toEqual(['siti@lsp.test']);
  });
});
