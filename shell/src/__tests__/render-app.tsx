import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { authStore, STORAGE_KEYS } from '@sertifikasi/shared-auth';
import { App, routeObjects } from '../App';
import { fakeApi } from '@sertifikasi/shared-ui/test';
import { userInfo } from './session';

/** Renders the whole shell at `path`, as a direct hit on that address would. */
export function renderAt(path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  render(<App router={router} />);
  return router;
}

/** A signed-in session holding `roles`; the API answers user-info, and `more` besides. */
export function signedIn(roles: string[], more: Parameters<typeof fakeApi>[0] = {}) {
  localStorage.setItem(STORAGE_KEYS.token, 'T'.repeat(43));
  authStore.setState({ token: 'T'.repeat(43) });
  return fakeApi({ 'GET /api/user-info': { body: userInfo(roles) }, ...more });
}
