import * as byName from '@sertifikasi/shared-auth';
import * as byPath from '../index';
import { authStore as storeModuleStore } from '../store';
import { fakeFetch } from './fake-fetch';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  localStorage.clear();
});

describe('one auth store', () => {
  it('is the same object whether imported by package name or by path', () => {
    expect(byName.authStore).toBe(byPath.authStore);
    expect(byName.authStore).toBe(storeModuleStore);
    expect(byName.api).toBe(byPath.api);
  });

  it('a token set through one import is what the API client of the other sends', async () => {
    const { requests } = fakeFetch({ 'GET /api/profile': { body: {} } });
    byName.authStore.setState({ token: 'tok-shared' });
    await byPath.api.get('profile');
    expect(requests()[0]!.headers.get('authorization')).toBe('Bearer tok-shared');
    expect(byPath.authStore.getState().token).toBe('tok-shared');
  });
});
