import { render, screen } from '@testing-library/react';
import { Formik } from 'formik';
import { AppThemeProvider } from '@sertifikasi/shared-ui/core';
import { ImageInput } from '../form/ImageInput';
import { TextInput } from '../form/TextInput';
import { emulateScreenWidth } from '../test/viewport';
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
