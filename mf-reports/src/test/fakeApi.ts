/**
 * The network edge for this module's screen tests: globalThis.fetch answers from a table of routes
 * ('GET /api/path', or a prefix ending in '/*') and records each call. A call with no route answers
 * 404, so a call to the wrong place shows in the test.
 */
import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 5 s instead of 1 s: MUI in jsdom on a busy 2-core machine is slow, and
// a screen that answers later than that is still right (speed is measured in bench/, not here).
configure({ asyncUtilTimeout: 5000 });

export interface Call {
  method: string;
  path: string;
  params: URLSearchParams;
  signal: AbortSignal;
}

/** A JSON body (status 200 unless given), or a ready Response (a file, a stream). */
export type Answer = { status?: number; body?: unknown } | Response;
export type Route = Answer | ((call: Call) => Answer | Promise<Answer>);

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export function fakeApi(routes: Record<string, Route>) {
  const calls: Call[] = [];
  const find = (method: string, path: string): Route | undefined => {
    const exact = routes[`${method} ${path}`];
    if (exact !== undefined) return exact;
    const key = Object.keys(routes).find((k) => {
      const [m, p] = k.split(' ');
      return m === method && p?.endsWith('/*') && path.startsWith(p.slice(0, -1));
    });
    return key === undefined ? undefined : routes[key];
  };
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const call: Call = {
      method: request.method,
      path: url.pathname,
      params: url.searchParams,
      signal: request.signal,
    };
    calls.push(call);
    const route = find(call.method, call.path);
    if (route === undefined) return json(404, { code: 'not-found', message: 'no fake' });
    const answer = typeof route === 'function' ? await route(call) : route;
    return answer instanceof Response ? answer : json(answer.status ?? 200, answer.body);
  }) as typeof fetch;
  return {
    calls,
    /** The calls to `METHOD /path` (exact path). */
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A promise with its resolve function outside, to hold an answer back while the test looks. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The list answer of a paginated endpoint. */
export const listOf = <T>(data: T[], page = 1, perPage = 20, total = data.length) => ({
  total,
  per_page: perPage,
  data,
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  from: data.length ? (page - 1) * perPage + 1 : null,
  to: data.length ? (page - 1) * perPage + data.length : null,
});
