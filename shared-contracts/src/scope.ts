/** A user's company scope: every company, or a list of company ids (docs/rules.md#sign-in). */
export type CompanyScope = 'ALL' | string[];
export const ALL = 'ALL' as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_RE.test(value);

/**
 * Reads `company_ids` as it travels: a string holding JSON text (`"ALL"` or `["id", ...]`), or the
 * bare word ALL. Returns null when the text is not one of those.
 */
export function parseCompanyIds(raw: unknown): CompanyScope | null {
  if (Array.isArray(raw)) return raw.every(isUuid) ? [...new Set(raw.map((id) => id.toLowerCase()))] : null;
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (text === ALL) return ALL;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === ALL) return ALL;
  if (Array.isArray(value)) return parseCompanyIds(value);
  return null;
}

/** Writes a scope the way requests carry it. */
export const serializeCompanyIds = (scope: CompanyScope): string => JSON.stringify(scope);

/**
 * True when `inner` lies inside `outer`. An empty scope (no company) lies inside ALL only: a user
 * with no company is not "inside" any limited administrator's scope (docs/rules.md#scope).
 */
export function scopeWithin(inner: CompanyScope, outer: CompanyScope): boolean {
  if (outer === ALL) return true;
  if (inner === ALL || inner.length === 0) return false;
  const allowed = new Set(outer);
  return inner.every((id) => allowed.has(id));
}

/** True when the scope lets its holder see `companyId`. */
export const scopeIncludes = (scope: CompanyScope, companyId: string): boolean =>
  scope === ALL || scope.includes(companyId);
