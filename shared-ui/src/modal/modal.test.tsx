import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Formik } from 'formik';
import { AppThemeProvider } from '@sertifikasi/shared-ui/core';
import { ImageInput } from '../form/ImageInput';
import { TextInput } from '../form/TextInput';
import { emulateScreenWidth } from '../test/viewport';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
import { FormModal } from './FormModal';

function renderModal(width?: number) {
  render(
    <AppThemeProvider>
      <FormModal
        open
        title="Tambah Perusahaan"
        onClose={() => undefined}
        initialValues={{ name: '' }}
        onSubmit={() => undefined}
        width={width}
      >
        <TextInput name="name" label="Nama Perusahaan" />
      </FormModal>
    </AppThemeProvider>,
  );
  return screen.getByRole('dialog', { name: 'Tambah Perusahaan' });
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe('FormModal on a phone and on a wide screen', () => {
  it('takes the whole screen below 600 px (390 px phone), its save button inside', () => {
    restore = emulateScreenWidth(390);
    const dialog = renderModal(720);
    const style = getComputedStyle(dialog);
    expect(style.width).toBe('100%');
    expect(style.maxWidth).toBe('100%');
    expect(style.height).toBe('100%');
    expect(style.margin).toBe('0px');
    expect(screen.getByRole('button', { name: 'Simpan Data' })).toBeInTheDocument();
  });

  it('is a dialog of the asked width, never wider than the screen, from 600 px up', () => {
    restore = emulateScreenWidth(1280);
    const dialog = renderModal(720);
    const style = getComputedStyle(dialog);
    expect(style.width).toBe('720px');
    expect(style.maxWidth).toBe('calc(100% - 32px)');
    expect(style.height).not.toBe('100%');
  });
});

describe('ImageInput', () => {
  it("keeps 'Pilih Gambar' and 'Hapus Gambar' on one line", () => {
    render(
      <AppThemeProvider>
        <Formik initialValues={{ logo: 'logo-1.png' }} onSubmit={() => undefined}>
          <ImageInput name="logo" label="Logo" />
        </Formik>
      </AppThemeProvider>,
    );
    expect(getComputedStyle(screen.getByText('Pilih Gambar')).whiteSpace).toBe('nowrap');
    expect(getComputedStyle(screen.getByRole('button', { name: 'Hapus Gambar' })).whiteSpace).toBe('nowrap');
  });
});

describe('ConfirmDialog', () => {
  function renderConfirm(props: Partial<ConfirmDialogProps> = {}) {
    const onCancel = jest.fn();
    const onConfirm = jest.fn();
    render(
      <AppThemeProvider>
        <ConfirmDialog open onCancel={onCancel} onConfirm={onConfirm} {...props} />
      </AppThemeProvider>,
    );
    return { onCancel, onConfirm };
  }

  it("asks the delete question with 'Batalkan' and 'Yakin' when given nothing else", async () => {
    const { onCancel, onConfirm } = renderConfirm();
    const dialog = screen.getByRole('dialog', { name: 'Kamu yakin untuk menghapus data ini' });
    expect(dialog).not.toHaveAttribute('aria-describedby');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Batalkan', 'Yakin']);
    await userEvent.click(screen.getByRole('button', { name: 'Yakin' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('asks its own question, says what follows, and names its buttons as asked', async () => {
    const { onCancel, onConfirm } = renderConfirm({
      text: 'Batalkan Audit?',
      description: 'Tim audit akan diberi tahu lewat email.',
      confirmLabel: 'Ya, Batalkan Audit',
      cancelLabel: 'Kembali',
    });
    const dialog = screen.getByRole('dialog', { name: 'Batalkan Audit?' });
    expect(dialog).toHaveAccessibleDescription('Tim audit akan diberi tahu lewat email.');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Kembali',
      'Ya, Batalkan Audit',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Kembali' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('disables both buttons while busy', () => {
    renderConfirm({ busy: true, cancelLabel: 'Kembali', confirmLabel: 'Ya, Tandai Selesai' });
    expect(screen.getByRole('button', { name: 'Kembali' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Ya, Tandai Selesai' })).toBeDisabled();
  });
});
