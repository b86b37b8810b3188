/** The network edge for screen tests: globalThis.fetch answers from a table of routes and records each call. */

export interface Call {
  method: string;
  /** The path, e.g. '/api/barang/id-1'. */
  path: string;
  params: URLSearchParams;
  headers: Headers;
  /** The call's signal: aborted when the screen gave the call up. */
  signal: AbortSignal;
  /** The JSON body, when one was sent. */
  json?: unknown;
  /** The multipart body, when one was sent. */
  form?: FormData;
}

/**
 * A JSON answer (status 200 unless given; `headers` added to `content-type: application/json`), or
 * a ready Response (a file, a stream).
 */
export type Answer = { status?: number; body?: unknown; headers?: Record<string, string> } | Response;

export type Route = Answer | ((call: Call) => Answer | Promise<Answer>);

function respond(answer: Answer): Response {
  if (answer instanceof Response) return answer;
  const { status = 200, body, headers } = answer;
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function readCall(request: Request): Promise<Call> {
  const url = new URL(request.url);
  const call: Call = {
    method: request.method,
    path: url.pathname,
    params: url.searchParams,
    headers: request.headers,
    signal: request.signal,
  };
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/json')) call.json = await request.json();
  else if (type.includes('multipart/form-data')) call.form = await request.formData();
  return call;
}

/**
 * Replaces globalThis.fetch. Routes are keyed 'METHOD /path'; a key ending in '/*' matches any path
 * below it ('DELETE /api/barang/*'). A call with no route answers 404, so that a call to the wrong
 * place shows in the test. A route that throws stands for a network failure.
 */
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
  const mock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const call = await readCall(request);
    calls.push(call);
    const route = find(call.method, call.path);
    if (route === undefined) return respond({ status: 404, body: { code: 'not-found', message: 'no fake' } });
    return respond(typeof route === 'function' ? await route(call) : route);
  });
  globalThis.fetch = mock as typeof fetch;
  return {
    calls,
    /** The calls made to `METHOD /path` (exact path). */
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
