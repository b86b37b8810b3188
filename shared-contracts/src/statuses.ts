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

/** Flags travel as these strings (DECISIONS.md section 8). */
export const FLAG_VALUES = ['true', 'false'] as const;
export type Flag = (typeof FLAG_VALUES)[number];
export const toFlag = (value: boolean): Flag => (value ? 'true' : 'false');
