import { act, renderHook, waitFor } from '@testing-library/react';
import { deferred, fakeApi, type Answer } from '../test';
import { type FetchOptions, useFetch } from './useFetch';

interface Props {
  path: string | null;
  options?: FetchOptions;
}

const render = (initial: Props) =>
  renderHook(({ path, options }: Props) => useFetch<{ name: string }>(path, options), {
    initialProps: initial,
  });

describe('useFetch', () => {
  it('asks once per question (parameters compared by value) and shows the answer', async () => {
    const api = fakeApi({ 'GET /api/thing/1': (call) => ({ body: { name: `x=${call.params.get('x')}` } }) });
    const hook = render({ path: 'thing/1', options: { searchParams: { x: 1, y: undefined } } });
    expect(hook.result.current.loading).toBe(true);
    await waitFor(() => expect(hook.result.current.data).toEqual({ name: 'x=1' }));
    expect(hook.result.current.loading).toBe(false);
    hook.rerender({ path: 'thing/1', options: { searchParams: { x: 1 } } });
    expect(api.calls).toHaveLength(1);
    expect([...api.calls[0]!.params.keys()]).toEqual(['x']);
  });

  it('drops an answer to an older question, and shows nothing of it meanwhile', async () => {
    const first = deferred<Answer>();
    fakeApi({
      'GET /api/thing/1': () => first.promise,
      'GET /api/thing/2': { body: { name: 'two' } },
    });
    const hook = render({ path: 'thing/1' });
    hook.rerender({ path: 'thing/2' });
    await waitFor(() => expect(hook.result.current.data).toEqual({ name: 'two' }));
    await act(async () => first.resolve({ body: { name: 'one' } }));
    expect(hook.result.current.data).toEqual({ name: 'two' });
  });

  it('keeps the last answer while a new question loads when asked to (a list page)', async () => {
    const second = deferred<Answer>();
    fakeApi({
      'GET /api/list': (call) =>
        call.params.get('page') === '1' ? { body: { name: 'page 1' } } : second.promise,
    });
    const hook = render({ path: 'list', options: { searchParams: { page: 1 }, keepData: true } });
    await waitFor(() => expect(hook.result.current.data).toEqual({ name: 'page 1' }));
    hook.rerender({ path: 'list', options: { searchParams: { page: 2 }, keepData: true } });
    expect(hook.result.current).toMatchObject({ loading: true, data: { name: 'page 1' } });
    await act(async () => second.resolve({ body: { name: 'page 2' } }));
    expect(hook.result.current).toMatchObject({ loading: false, data: { name: 'page 2' } });
  });

  it('aborts the call when the screen goes away, and tells no one of it', async () => {
    const held = deferred<Answer>();
    const api = fakeApi({ 'GET /api/thing/1': () => held.promise });
    const onError = jest.fn();
    const hook = render({ path: 'thing/1', options: { onError } });
    await waitFor(() => expect(api.calls).toHaveLength(1));
    hook.unmount();
    expect(api.calls[0]!.signal.aborted).toBe(true);
    await act(async () => held.resolve({ body: { name: 'late' } }));
    expect(onError).not.toHaveBeenCalled();
  });

  it('reloads on demand keeping the answer on screen; a failure says its status and the API message', async () => {
    let answer: Answer = { body: { name: 'first' } };
    const api = fakeApi({ 'GET /api/thing/1': () => answer });
    const onError = jest.fn();
    const hook = render({ path: 'thing/1', options: { onError } });
    await waitFor(() => expect(hook.result.current.data).toEqual({ name: 'first' }));

    answer = { status: 422, body: { code: 'validation', message: 'Rentang terlalu panjang' } };
    act(() => hook.result.current.reload());
    expect(hook.result.current).toMatchObject({ loading: true, data: { name: 'first' }, failure: null });
    await waitFor(() => expect(hook.result.current.loading).toBe(false));
    expect(api.calls).toHaveLength(2);
    expect(hook.result.current.failure).toEqual({
      status: 422,
      error: { code: 'validation', message: 'Rentang terlalu panjang' },
    });
    expect(hook.result.current.data).toEqual({ name: 'first' });
    expect(onError).toHaveBeenCalledTimes(1);

    answer = { body: { name: 'again' } };
    act(() => hook.result.current.reload());
    await waitFor(() => expect(hook.result.current.data).toEqual({ name: 'again' }));
    expect(hook.result.current.failure).toBeNull();
  });

  it('asks nothing for a null path', () => {
    const api = fakeApi({});
    const hook = render({ path: null });
    expect(hook.result.current).toMatchObject({ data: null, loading: false, failure: null });
    expect(api.calls).toHaveLength(0);
  });
});
