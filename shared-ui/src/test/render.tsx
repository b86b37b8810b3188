import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AppThemeProvider, ToastHost } from '@sertifikasi/shared-ui/core';

/**
 * Renders `ui` as the shell would host it: the app's theme, a router (at `at`, `/` by default) and
 * the toasts.
 */
export function renderInApp(ui: ReactNode, { at = '/' }: { at?: string } = {}) {
  return render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
      <ToastHost />
    </AppThemeProvider>,
  );
}
