import { useMemo } from 'react';
import { useFetch } from '../fetch/useFetch';
import type { SelectOption } from './options';

/** A lookup entry as the `select/...` endpoints answer it. */
export interface LookupEntry {
  id: string;
  name: string;
}

const byIdAndName = (e: LookupEntry): SelectOption => ({ value: e.id, label: e.name });

/**
 * Loads the choices of a select from a lookup endpoint (docs/rules.md#calls: `select/roles`,
 * `select/company`, ...) as `{value: id, label: name}`, through {@link useFetch}. A failed lookup
 * leaves the list empty (the spec shows no handling for lookups). `path` null loads nothing (e.g.
 * until a company is chosen).
 */
export function useLookupOptions(
  path: string | null,
  toOption: (entry: LookupEntry) => SelectOption = byIdAndName,
): { options: SelectOption[]; loading: boolean } {
  const { data, loading } = useFetch<LookupEntry[]>(path || null);
  const options = useMemo(
    () => (data ?? []).map(toOption),
    // `toOption` is a mapping, usually written inline: only a new answer maps again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data],
  );
  return { options, loading };
}
