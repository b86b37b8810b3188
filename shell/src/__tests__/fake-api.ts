/** A fake of the API at the network edge: answers by method and path, records the calls. */
export interface FakeCall {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

type Answer =
  | { status?: number; body: unknown }
  | ((call: FakeCall) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>);

export function fakeApi(routes: Record<string, Answer>) {
  const calls: FakeCall[] = [];
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: FakeCall = {
      method: request.method,
      path: url.pathname,
      headers: request.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    const answer = routes[`${request.method} ${url.pathname}`];
    if (!answer) return new Response(JSON.stringify({ code: 'not-found', message: 'x' }), { status: 404 });
    const { status = 200, body } = typeof answer === 'function' ? await answer(call) : answer;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  globalThis.fetch = fetchMock as typeof fetch;
  return { calls, fetchMock };
}

export const sessionUser = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Siti Operator',
  username: 'siti',
  roles_id: '00000000-0000-4000-8000-0000000000aa',
  roles: { id: '00000000-0000-4000-8000-0000000000aa', name: 'Operator' },
  company_ids: ['00000000-0000-4000-8000-0000000000c1'],
  is_active: 'true',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

export const userInfo = (roles: string[]) => ({
  user: sessionUser,
  roles,
  company_ids: sessionUser.company_ids,
  companies: [{ id: '00000000-0000-4000-8000-0000000000c1', name: 'PT Satu' }],
});
