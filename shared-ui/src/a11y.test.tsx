/**
 * Accessibility (docs/conventions.md#accessibility-wcag-21-aa) in the shared pieces: colours readable at WCAG AA, status chips, the sideways-scrolling
 * table box reachable by keyboard, the image field without a control inside another, dialogs that
 * take the focus and give it back, and toasts announced without taking the focus.
 */
import { useState } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Formik } from 'formik';
import { getContrastRatio } from '@mui/material/styles';
import { EFFECTIVE_STATUS_LABELS, type EffectiveStatus } from '@sertifikasi/shared-contracts';
import { AppThemeProvider, showToast, theme, ToastHost } from '@sertifikasi/shared-ui/core';
import { STATUS_CHIP_COLORS, StatusChip } from './display';
import { ImageInput } from './form/ImageInput';
import { ConfirmDialog } from './modal/ConfirmDialog';
import { FormModal } from './modal/FormModal';
import { TextInput } from './form/TextInput';
import { WideTableContainer } from './resource/WideTableContainer';

const AA = 4.5;
const COLORS = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;

describe('theme colours (WCAG 1.4.3, 4.5:1 for text)', () => {
  it.each(COLORS)('%s: its text on it, and it as text on white and on the page', (name) => {
    const { main, contrastText } = theme.palette[name];
    expect(getContrastRatio(main, contrastText)).toBeGreaterThanOrEqual(AA);
    expect(getContrastRatio(main, theme.palette.background.paper)).toBeGreaterThanOrEqual(AA);
    expect(getContrastRatio(main, theme.palette.background.default)).toBeGreaterThanOrEqual(AA);
  });

  it('secondary text on white and on the page', () => {
    const { secondary } = theme.palette.text;
    expect(getContrastRatio(secondary, theme.palette.background.paper)).toBeGreaterThanOrEqual(AA);
    expect(getContrastRatio(secondary, theme.palette.background.default)).toBeGreaterThanOrEqual(AA);
  });
});

describe('StatusChip', () => {
  it.each(Object.keys(STATUS_CHIP_COLORS) as EffectiveStatus[])(
    '%s reads its label, in a colour whose text contrast holds',
    (status) => {
      render(
        <AppThemeProvider>
          <StatusChip status={status} />
        </AppThemeProvider>,
      );
      expect(screen.getByText(EFFECTIVE_STATUS_LABELS[status])).toBeInTheDocument();
      const color = STATUS_CHIP_COLORS[status];
      if (color !== 'default') {
        const { main, contrastText } = theme.palette[color];
        expect(getContrastRatio(main, contrastText)).toBeGreaterThanOrEqual(AA);
      }
    },
  );
});

describe('WideTableContainer', () => {
  const widths = { scrollWidth: 0, clientWidth: 0 };
  let restore: () => void = () => undefined;
  beforeEach(() => {
    const scroll = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollWidth')!;
    const client = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
    Object.defineProperty(Element.prototype, 'scrollWidth', {
      configurable: true,
      get: () => widths.scrollWidth,
    });
    Object.defineProperty(Element.prototype, 'clientWidth', {
      configurable: true,
      get: () => widths.clientWidth,
    });
    restore = () => {
      Object.defineProperty(Element.prototype, 'scrollWidth', scroll);
      Object.defineProperty(Element.prototype, 'clientWidth', client);
    };
  });
  afterEach(() => restore());

  const table = () => (
    <WideTableContainer label="Laporan Sertifikasi Perusahaan">
      <table>
        <tbody>
          <tr>
            <td>PT Alpha</td>
          </tr>
        </tbody>
      </table>
    </WideTableContainer>
  );

  it('while the table is wider than its box: a named region in the Tab order', async () => {
    widths.scrollWidth = 900;
    widths.clientWidth = 390;
    render(table());
    const region = screen.getByRole('region', { name: 'Laporan Sertifikasi Perusahaan' });
    await userEvent.tab();
    expect(region).toHaveFocus();
    expect(screen.getByText('Geser untuk melihat kolom lain')).toBeInTheDocument();
  });

  it('when the table fits: no extra Tab stop, no region', async () => {
    widths.scrollWidth = 600;
    widths.clientWidth = 1200;
    render(table());
    expect(screen.queryByRole('region')).toBeNull();
    await userEvent.tab();
    expect(document.body).toHaveFocus();
  });
});

describe('ImageInput', () => {
  it("'Pilih Gambar' is a button of its own, named with the field, holding no other control", async () => {
    const { container } = render(
      <AppThemeProvider>
        <Formik initialValues={{ logo: 'logo-1.png' }} onSubmit={() => undefined}>
          <ImageInput name="logo" label="Logo" />
        </Formik>
      </AppThemeProvider>,
    );
    const choose = screen.getByRole('button', { name: 'Pilih Gambar Logo' });
    expect(choose.querySelector('input, button, a, [tabindex]')).toBeNull();
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
    const opened = jest.fn();
    input.addEventListener('click', opened);
    await userEvent.tab();
    expect(choose).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(opened).toHaveBeenCalledTimes(1);
    // The Tab order: 'Pilih Gambar', then 'Hapus Gambar' (the file input is not a stop of its own).
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Hapus Gambar' })).toHaveFocus();
  });
});

describe('dialogs: the focus goes in when they open and back to the opener when they close', () => {
  function Opener({ kind }: { kind: 'form' | 'confirm' }) {
    const [open, setOpen] = useState(false);
    return (
      <AppThemeProvider>
        <button onClick={() => setOpen(true)}>Ubah</button>
        {kind === 'form' ? (
          <FormModal
            open={open}
            title="Ubah User"
            onClose={() => setOpen(false)}
            initialValues={{ name: 'Siti' }}
            onSubmit={() => undefined}
          >
            <TextInput name="name" label="Nama User" />
          </FormModal>
        ) : (
          <ConfirmDialog open={open} onCancel={() => setOpen(false)} onConfirm={() => setOpen(false)} />
        )}
      </AppThemeProvider>
    );
  }

  it.each(['form', 'confirm'] as const)('%s dialog, closed with Esc', async (kind) => {
    const user = userEvent.setup();
    render(<Opener kind={kind} />);
    const opener = screen.getByRole('button', { name: 'Ubah' });
    await user.tab();
    expect(opener).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(opener).toHaveFocus();
  });

  it('the form dialog: Tab stays inside it', async () => {
    const user = userEvent.setup();
    render(<Opener kind="form" />);
    await user.click(screen.getByRole('button', { name: 'Ubah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah User' });
    for (let i = 0; i < 6; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });
});

describe('toasts', () => {
  it('are announced (role alert) and leave the focus where it was', async () => {
    render(
      <AppThemeProvider>
        <input aria-label="Nama" />
        <ToastHost />
      </AppThemeProvider>,
    );
    const field = screen.getByRole('textbox', { name: 'Nama' });
    act(() => field.focus());
    act(() => showToast('success', 'Berhasil menambahkan data'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Berhasil menambahkan data');
    expect(field).toHaveFocus();
  });
});
