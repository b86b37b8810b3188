/** The network edge for tests: globalThis.fetch answers from a table of routes and records each call. */

export interface FakeAnswer {
  status?: number;
  body?: unknown;
}

export type FakeRoute = FakeAnswer | ((request: Request) => FakeAnswer | Promise<FakeAnswer>);

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Replaces globalThis.fetch. Routes are keyed 'METHOD /path' (e.g. 'POST /api/login'); a route missing
 * from the table answers 404 so that a call to the wrong place fails the test visibly.
 */
export function fakeFetch(routes: Record<string, FakeRoute>) {
  const sent: { request: Request; body: string }[] = [];
  const mock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    // Like the real fetch, a cancelled call never reaches the server.
    const signal = init?.signal ?? request.signal;
    if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
    sent.push({ request, body: await request.clone().text() });
    const key = `${request.method} ${new URL(request.url).pathname}`;
    const route = routes[key];
    if (route === undefined) return json(404, { code: 'not-found', message: `no fake for ${key}` });
    const answer = typeof route === 'function' ? await route(request) : route;
    return json(answer.status ?? 200, answer.body);
  });
  globalThis.fetch = mock;
  /** The requests made so far, in order. */
  const requests = (): Request[] => sent.map((s) => s.request);
  /** The request bodies as sent, in order. */
  const bodies = (): string[] => sent.map((s) => s.body);
  return { mock, requests, bodies };
}
