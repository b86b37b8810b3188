import { useEffect, useState } from 'react';
import { api } from '@sertifikasi/shared-auth';
import type { SelectOption } from './options';

/** A lookup entry as the `select/...` endpoints answer it. */
export interface LookupEntry {
  id: string;
  name: string;
}

/**
 * Loads the choices of a select from a lookup endpoint (SPEC.md section 7: `select/roles`,
 * `select/company`, ...) as `{value: id, label: name}`. A failed lookup leaves the list empty (the
 * spec shows no handling for lookups). `path` null loads nothing (e.g. until a company is chosen).
 */
export function useLookupOptions(
  path: string | null,
  toOption: (entry: LookupEntry) => SelectOption = (e) => ({ value: e.id, label: e.name }),
): { options: SelectOption[]; loading: boolean } {
  const [state, setState] = useState<{ path: string | null; options: SelectOption[]; loading: boolean }>({
    path: null,
    options: [],
    loading: false,
  });

  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    setState({ path, options: [], loading: true });
    api
      .get(path, { signal: controller.signal })
      .json<LookupEntry[]>()
      .then(
        (entries) => {
          if (!controller.signal.aborted) setState({ path, options: entries.map(toOption), loading: false });
        },
        () => {
          if (!controller.signal.aborted) setState({ path, options: [], loading: false });
        },
      );
    return () => controller.abort();
    // `toOption` is a mapping, usually written inline: it must not reload the lookup each render.
  }, [path]);

  return path ? { options: state.options, loading: state.loading } : { options: [], loading: false };
}
