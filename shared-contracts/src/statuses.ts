export const SCHEME_STATUSES = ['ACTIVE', 'SUSPENDED', 'WITHDRAWN', 'DRAFT', 'NOACTIVE'] as const;
export type SchemeStatus = (typeof SCHEME_STATUSES)[number];
export const SCHEME_STATUS_LABELS: Record<SchemeStatus, string> = {
  ACTIVE: 'ACTIVE',
  SUSPENDED: 'SUSPENDED',
  WITHDRAWN: 'WITHDRAWN',
  DRAFT: 'DRAFT',
  NOACTIVE: 'NOT ACTIVE',
};

export const VALID_FOR_TYPES = ['YEAR', 'MONTH', 'DAY'] as const;
export type ValidForType = (typeof VALID_FOR_TYPES)[number];
export const VALID_FOR_TYPE_LABELS: Record<ValidForType, string> = {
  YEAR: 'TAHUN',
  MONTH: 'BULAN',
  DAY: 'HARI',
};

/** Flags travel as these strings (docs/rules.md#data). */
export const FLAG_VALUES = ['true', 'false'] as const;
export type Flag = (typeof FLAG_VALUES)[number];
export const toFlag = (value: boolean): Flag => (value ? 'true' : 'false');

/**
 * What a scheme shows (docs/rules.md#status): its stored status, except that an ACTIVE scheme past
 * its `expired_date` is EXPIRED ('KADALUARSA'). Derived, never stored.
 */
export const EFFECTIVE_STATUSES = [
  'ACTIVE',
  'EXPIRED',
  'SUSPENDED',
  'WITHDRAWN',
  'NOACTIVE',
  'DRAFT',
] as const;
export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];
export const EFFECTIVE_STATUS_LABELS: Record<EffectiveStatus, string> = {
  ...SCHEME_STATUS_LABELS,
  EXPIRED: 'KADALUARSA',
};

/** The effective status of a scheme on `today` (both dates `YYYY-MM-DD`, compared as text). */
export function effectiveStatus(status: SchemeStatus, expiredDate: string, today: string): EffectiveStatus {
  return status === 'ACTIVE' && expiredDate < today ? 'EXPIRED' : status;
}

/** The chart and report filters' 'NOTACTIVE' means NOACTIVE (docs/rules.md#data and #wire-formats). */
export const normaliseStatus = (value: string): string => (value === 'NOTACTIVE' ? 'NOACTIVE' : value);
