import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@sertifikasi/shared-contracts';
import { hideToast } from '@sertifikasi/shared-ui/core';
import { deferred, fakeApi, type Answer } from '../test/fakeApi';
import { renderInApp } from '../test/render';
import { catchDownloads } from '../test/downloads';
import { signIn } from '../test/barang';
import { ExportButton } from './ExportButton';

const EXPORT = 'GET /api/barang';
const workbook = () =>
  new Response(new Blob(['xlsx']), {
    headers: { 'content-disposition': 'attachment; filename="export-barang.xlsx"' },
  });

beforeEach(() => {
  signIn();
  act(() => hideToast());
});

describe('ExportButton', () => {
  it("asks for the list's workbook with its filters, reads 'Export Data...' and is disabled until the file is saved", async () => {
    const answer = deferred<Answer>();
    const api = fakeApi({ [EXPORT]: () => answer.promise });
    const downloads = catchDownloads();
    renderInApp(
      <ExportButton path="barang" filename="export-barang.xlsx" searchParams={() => ({ search: 'baut' })} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export Excel' }));
    const busy = await screen.findByRole('button', { name: 'Export Data...' });
    expect(busy).toBeDisabled();
    expect(Object.fromEntries(api.calls[0]!.params)).toEqual({ search: 'baut', type: 'export' });
    await act(async () => answer.resolve(workbook()));
    await waitFor(() => expect(downloads.saved.map((f) => f.name)).toEqual(['export-barang.xlsx']));
    expect(await screen.findByRole('button', { name: 'Export Excel' })).toBeEnabled();
    downloads.restore();
  });

  it('toasts a failed export (docs/rules.md#messages) and can be pressed again', async () => {
    fakeApi({
      [EXPORT]: { status: 403, body: { code: 'forbidden', message: 'Perusahaan di luar akses anda' } },
    });
    renderInApp(<ExportButton path="barang" filename="export-barang.xlsx" searchParams={() => ({})} />);
    await userEvent.click(screen.getByRole('button', { name: 'Export Excel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.systemError);
    expect(await screen.findByRole('button', { name: 'Export Excel' })).toBeEnabled();
  });
});
