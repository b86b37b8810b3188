import { useCallback, useEffect, useState } from 'react';
import { api, readApiError } from '@sertifikasi/shared-auth';
import type { ApiError } from '@sertifikasi/shared-contracts';

type Params = Record<string, string | number>;

export interface ApiGet<T> {
  /** The last answer for the current question; null while it loads or after a failure. */
  data: T | null;
  loading: boolean;
  /** The API's error body when the last call failed with one (e.g. a 422 with its message). */
  error: ApiError | null;
  failed: boolean;
  reload: () => void;
}

/**
 * GET `path` with `searchParams`, again whenever either changes (compared by value) or on reload();
 * an answer to an older question is dropped, and a question given up (unmount, new question) is
 * aborted. `path` null asks nothing (no company chosen yet). Failures are logged only (SPEC.md
 * section 8: dashboard and chart load failures), and kept in `error`/`failed` for the caller.
 */
export function useApiGet<T>(path: string | null, searchParams?: Params): ApiGet<T> {
  const key = JSON.stringify([path, searchParams ?? {}]);
  const [reloads, setReloads] = useState(0);
  const [state, setState] = useState<{
    key: string;
    data: T | null;
    error: ApiError | null;
    failed: boolean;
  }>({ key: '', data: null, error: null, failed: false });

  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    const [p, params] = JSON.parse(key) as [string, Params];
    setState({ key: '', data: null, error: null, failed: false });
    api
      .get(p, { searchParams: params, signal: controller.signal })
      .json<T>()
      .then(
        (data) => {
          if (!controller.signal.aborted) setState({ key, data, error: null, failed: false });
        },
        async (err: unknown) => {
          if (controller.signal.aborted) return;
          console.error(`GET ${p} failed`, err);
          const error = await readApiError(err);
          if (!controller.signal.aborted) setState({ key, data: null, error, failed: true });
        },
      );
    return () => controller.abort();
  }, [key, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const current = path !== null && state.key === key;
  return {
    data: current ? state.data : null,
    loading: path !== null && !current,
    error: current ? state.error : null,
    failed: current && state.failed,
    reload,
  };
}
