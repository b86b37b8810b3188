import { HTTPError } from 'ky';
import { api, authStore, notifyApiError, readApiError, setApiErrorNotifier } from '../index';
import { fakeFetch, json } from './fake-fetch';
import { ADMIN, COMPANY_A, PROFILE, resetSession, signIn } from './session';

const realFetch = globalThis.fetch;
beforeEach(resetSession);
afterEach(() => {
  globalThis.fetch = realFetch;
});

const state = () => authStore.getState();

/** The error a failed call rejects with. */
async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
}

describe('api', () => {
  it('calls /api on the page origin with the bearer token of the store', async () => {
    signIn('tok-bearer');
    const { requests } = fakeFetch({ 'GET /api/company': { body: { data: [] } } });

    await expect(api.get('company', { searchParams: { page: 1 } }).json()).resolves.toEqual({ data: [] });
    await api.get('/company').json();

    expect(requests().map((r) => [r.url, r.headers.get('authorization')])).toEqual([
      ['http://localhost/api/company?page=1', 'Bearer tok-bearer'],
      ['http://localhost/api/company', 'Bearer tok-bearer'],
    ]);
  });

  it('follows the token as it changes and sends none when signed out', async () => {
    const { requests } = fakeFetch({ 'GET /api/health': { body: {} } });
    await api.get('health');
    signIn('tok-next');
    await api.get('health');
    expect(requests().map((r) => r.headers.get('authorization'))).toEqual([null, 'Bearer tok-next']);
  });

  it('does not retry a failed call', async () => {
    signIn();
    const { mock } = fakeFetch({
      'GET /api/company': { status: 503, body: { code: 'unavailable', message: 'x' } },
    });
    await failure(api.get('company'));
    expect(mock).toHaveBeenCalledTimes(1);
  });

  it('a 401 on another call clears the session locally (token, user, roles)', async () => {
    signIn('tok-expired');
    authStore.setState({ roles: ['statistik', 'company'], profile: PROFILE, company_id: COMPANY_A.id });
    fakeFetch({ 'GET /api/company': { status: 401, body: { code: 'unauthenticated', message: 'x' } } });

    const err = await failure(api.get('company').json());

    expect(err).toBeInstanceOf(HTTPError);
    expect(state()).toMatchObject({ token: null, user: null, roles: ['statistik'], profile: null });
    expect(localStorage.getItem('sertifikasi.token')).toBeNull();
    // The company choice survives, so the next sign-in lands on the same company.
    expect(state().company_id).toBe(COMPANY_A.id);
  });

  it('a 403 leaves the session alone', async () => {
    signIn('tok-ok');
    fakeFetch({ 'GET /api/company': { status: 403, body: { code: 'forbidden', message: 'x' } } });
    await failure(api.get('company'));
    expect(state()).toMatchObject({ token: 'tok-ok', user: ADMIN });
  });

  it('a 401 answering a call made with an older token does not sign out the new session', async () => {
    signIn('tok-old');
    let answer: (r: Response) => void = () => undefined;
    globalThis.fetch = jest.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    const call = failure(api.get('company'));
    await new Promise((r) => setTimeout(r, 0));
    signIn('tok-new');
    answer(json(401, { code: 'unauthenticated', message: 'x' }));
    await call;
    expect(state().token).toBe('tok-new');
  });
});

describe('readApiError', () => {
  it('reads the {code, message, errors} body of a failed call', async () => {
    signIn();
    const body = {
      code: 'validation',
      message: 'Data yang dikirim tidak valid',
      errors: { name: 'Nama wajib diisi' },
    };
    fakeFetch({ 'POST /api/company': { status: 422, body } });
    const err = await failure(api.post('company', { json: {} }).json());
    await expect(readApiError(err)).resolves.toEqual(body);
  });

  it('is null for a failure without that body, and for errors that are not HTTP errors', async () => {
    globalThis.fetch = jest.fn(() => Promise.resolve(new Response('<h1>Bad Gateway</h1>', { status: 502 })));
    await expect(readApiError(await failure(api.get('company')))).resolves.toBeNull();
    await expect(readApiError(new TypeError('fetch failed'))).resolves.toBeNull();
  });
});

describe('notifyApiError', () => {
  const notify = jest.fn();
  beforeEach(() => {
    notify.mockReset();
    setApiErrorNotifier(notify);
  });

  it('tells the registered notifier Maaf, ada kesalahan pada sistem', async () => {
    signIn();
    fakeFetch({ 'GET /api/company': { status: 500, body: { code: 'internal', message: 'x' } } });
    notifyApiError(await failure(api.get('company')));
    notifyApiError(new TypeError('fetch failed'));
    expect(notify.mock.calls).toEqual([
      ['Maaf, ada kesalahan pada sistem'],
      ['Maaf, ada kesalahan pada sistem'],
    ]);
  });

  it('tells a 503 (database unreachable, overloaded) as the service being unavailable for now', async () => {
    signIn();
    fakeFetch({ 'GET /api/company': { status: 503, body: { code: 'unavailable', message: 'x' } } });
    notifyApiError(await failure(api.get('company')));
    expect(notify.mock.calls).toEqual([
      ['Layanan sedang tidak tersedia, silakan coba lagi beberapa saat lagi'],
    ]);
  });

  it('stays silent for a 401 (the session has ended) and for a cancelled call', async () => {
    signIn();
    fakeFetch({ 'GET /api/company': { status: 401, body: { code: 'unauthenticated', message: 'x' } } });
    notifyApiError(await failure(api.get('company')));
    const controller = new AbortController();
    controller.abort();
    notifyApiError(await failure(api.get('company', { signal: controller.signal })));
    expect(notify).not.toHaveBeenCalled();
  });
});
