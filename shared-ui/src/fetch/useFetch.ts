import { useCallback, useEffect, useRef, useState } from 'react';
import { api, httpStatus, readApiError } from '@sertifikasi/shared-auth';
import type { ApiError } from '@sertifikasi/shared-contracts';

/** Query parameters of a GET, in the order given; undefined ones are left out. */
export type FetchParams = Record<string, string | number | undefined>;

/** Why the last GET failed. */
export interface FetchFailure {
  /** The HTTP status (e.g. 404), or null when no answer came (network, timeout). */
  status: number | null;
  /** The API's error body `{code, message, errors?}` when it sent one. */
  error: ApiError | null;
}

export interface FetchOptions {
  /** Query parameters (compared by value: a new object with the same entries asks nothing again). */
  searchParams?: FetchParams;
  /**
   * Keep the last answer on screen while a different question loads (a list's next page). Without
   * it, a new path or new parameters show no data until their own answer comes. A reload of the
   * same question always keeps the answer on screen.
   */
  keepData?: boolean;
  /**
   * Something whose change asks again though it is not sent (the header's company on a list that
   * is not company-owned): part of the question, not of the address.
   */
  askAgainOn?: string | number | null;
  /** Told of each failure of the current question (a toast, a log); not of a call given up. */
  onError?: (err: unknown) => void;
}

export interface FetchState<T> {
  /** The answer to the current question (see `keepData`), or null. */
  data: T | null;
  /** A call for the current question (or its reload) is running. */
  loading: boolean;
  /** Why the current question failed, once it has; null while it loads or after a success. */
  failure: FetchFailure | null;
  /** Asks the same question again. */
  reload: () => void;
  /** Replaces the data on screen (e.g. with the answer of a save), without a call. */
  setData: (data: T) => void;
}

/** The question as one comparable string: the path and its parameters. */
function questionOf(
  path: string | null,
  params: FetchParams | undefined,
  askAgainOn: string | number | null,
): string | null {
  if (path === null) return null;
  const entries = Object.entries(params ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]): [string, string] => [k, String(v)]);
  return JSON.stringify([path, entries, askAgainOn]);
}

interface Settled<T> {
  /** The question and reload count this state answers. */
  question: string | null;
  round: number;
  data: T | null;
  failure: FetchFailure | null;
}

/**
 * The one way a screen reads from the API: GET `path` (without '/api') with `searchParams`, again
 * whenever the question changes (compared by value) and on `reload()`. `path` null asks nothing (no
 * company chosen yet). A question given up (unmount, a newer question) is aborted and its answer,
 * should it still come, is dropped, so what shows always answers what is asked now.
 */
export function useFetch<T>(path: string | null, options: FetchOptions = {}): FetchState<T> {
  const { searchParams, keepData = false, onError, askAgainOn = null } = options;
  const question = questionOf(path, searchParams, askAgainOn);
  const [round, setRound] = useState(0);
  const [settled, setSettled] = useState<Settled<T>>({
    question: null,
    round: -1,
    data: null,
    failure: null,
  });
  // The caller's handler may be written inline: the newest one is told, and it does not ask again.
  const onErrorRef = useRef(onError);
  useEffect(() => {
    onErrorRef.current = onError;
  });

  useEffect(() => {
    if (question === null) return;
    const controller = new AbortController();
    const [p, entries] = JSON.parse(question) as [string, [string, string][]];
    api
      .get(p, { searchParams: new URLSearchParams(entries), signal: controller.signal })
      .json<T>()
      .then(
        (data) => {
          if (!controller.signal.aborted) setSettled({ question, round, data, failure: null });
        },
        async (err: unknown) => {
          if (controller.signal.aborted) return;
          onErrorRef.current?.(err);
          const failure: FetchFailure = { status: httpStatus(err), error: await readApiError(err) };
          if (controller.signal.aborted) return;
          // A failed question keeps what showed for it (a reload that failed), nothing of another.
          setSettled((s) => ({
            question,
            round,
            data: s.question === question || keepData ? s.data : null,
            failure,
          }));
        },
      );
    return () => controller.abort();
    // `keepData` is read when an answer comes; a change of it alone asks nothing again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [question, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  const setData = useCallback((data: T) => setSettled((s) => ({ ...s, data })), []);

  const current = question !== null && settled.question === question;
  const loading = question !== null && !(current && settled.round === round);
  return {
    data: question === null ? null : current || keepData ? settled.data : null,
    loading,
    failure: loading ? null : settled.failure,
    reload,
    setData,
  };
}

/**
 * The `onError` of a load whose failure the screen shows in place, or not at all
 * (docs/rules.md#messages: detail pages, dashboard, charts, look-ups): logged, not toasted. ky's error names the call.
 */
export function logLoadFailure(err: unknown): void {
  console.error(err);
}
