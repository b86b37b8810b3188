import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@sertifikasi/shared-contracts';
import { notifyApiError } from '@sertifikasi/shared-auth';
import { hideToast, showToast, TOAST_DURATION_MS } from './toast';
import { ToastHost } from './ToastHost';

beforeEach(() => {
  jest.useFakeTimers();
  act(() => hideToast());
});
afterEach(() => {
  jest.useRealTimers();
});

describe('ToastHost', () => {
  it.each([
    ['warning', 'Peringatan'],
    ['danger', 'Gagal'],
    ['success', 'Berhasil'],
  ] as const)('shows a %s toast with the title %s and the text', (type, title) => {
    render(<ToastHost />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    act(() => showToast(type, 'Teks pesan'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(title);
    expect(alert).toHaveTextContent('Teks pesan');
  });

  it('hides itself after 2.5 seconds', () => {
    render(<ToastHost />);
    act(() => showToast('success', MESSAGES.created));
    act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.created);
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('replaces the current toast with a new one and gives the new one its full 2.5 seconds', () => {
    render(<ToastHost />);
    act(() => showToast('success', 'Pertama'));
    act(() => jest.advanceTimersByTime(2000));
    act(() => showToast('danger', 'Kedua'));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Kedua');
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getByRole('alert')).toHaveTextContent('Kedua');
    act(() => jest.advanceTimersByTime(500));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('can be closed at once', async () => {
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    render(<ToastHost />);
    act(() => showToast('warning', 'Tutup saya'));
    await user.click(screen.getByRole('button', { name: 'Tutup' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows shared-auth's API failures as a warning once mounted", () => {
    render(<ToastHost />);
    act(() => notifyApiError(new Error('network down')));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Peringatan');
    expect(alert).toHaveTextContent('Maaf, ada kesalahan pada sistem');
  });
});
