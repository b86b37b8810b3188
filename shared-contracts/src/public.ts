/**
 * The public verification API (docs/rules.md#public-check and #status) as client and server agree on it:
 * the answers' types, their JSON Schemas (the API's response schemas, which keep every other field
 * out) and the labels the public pages show. `@sertifikasi/shared-contracts/public` is a small,
 * yup-free entry: the public page (mf-public-check) imports it without pulling yup or the staff
 * contracts into its bundle. Import nothing here that imports yup.
 */
import type { RoutePath } from './routes';
import { EFFECTIVE_STATUSES, type EffectiveStatus, SCHEME_STATUSES, type SchemeStatus } from './statuses';

export { EFFECTIVE_STATUSES, SCHEME_STATUSES, type EffectiveStatus, type SchemeStatus };
export { ROUTES, routeOf, routesOf, type PathsOf, type RoutePath } from './routes';

/** What a check answers for a number nobody holds (or a DRAFT): `404`, `text/plain`. */
export const NOT_FOUND_TEXT = 'NOT FOUND';

/** The statuses a public answer can carry (DRAFT is never found). */
export type PublicStatus = Exclude<EffectiveStatus, 'DRAFT'>;

/** One entry of the public status history: the status and the date from which it held (no "who"). */
export interface PublicHistoryEntry {
  status: EffectiveStatus;
  /** `YYYY-MM-DD`. */
  from: string;
}

/** The answer to `?on=YYYY-MM-DD`: the status on that date and whether the certificate was valid. */
export interface PointInTime {
  date: string;
  /** null before the certificate was issued. */
  status: EffectiveStatus | null;
  /** Issued by then, not yet expired, and ACTIVE on that date (docs/rules.md#status). */
  valid: boolean;
}

/** `GET /api/check-certificate-company/{number}`. */
export interface CompanyCheck {
  cert_number: string;
  /** The certified client's name ('Company'). */
  name: string;
  address: string | null;
  /** The scheme's own scope when it has one, else the client's. */
  scope: string | null;
  ea_code: string | null;
  /** The certification type's name ('Standard'). */
  standard: string;
  /** The accreditation body's name when the scheme is accredited. */
  accreditation: string | null;
  issue_date: string;
  /** The first issue of the certificate when the scheme records one ('Date of Issue of Original Certificate'); else null. */
  original_issue_date: string | null;
  expired_date: string;
  surveillance_date: string | null;
  /** Effective: an ACTIVE scheme past its expiry is EXPIRED, never ACTIVE. */
  status: PublicStatus;
  /** The scheme's description, only when not ACTIVE (null otherwise). */
  desc: string | null;
  /** The company shows only Issue Date and Expire Date. */
  simple_dates: boolean;
  /** The company offers certificate downloads to the public. */
  public_certificate_download: boolean;
  /** The scheme's id for `GET /api/download-certificate/{id}` when the public may download it; else null. */
  download_id: string | null;
  /** Oldest first. */
  history: PublicHistoryEntry[];
  /** Present when asked with `?on=`. */
  on: PointInTime | null;
}

/** `GET /api/check-certificate-training/{number}`. */
export interface TrainingCheck {
  name: string;
  certificate_number: string;
  training: string;
  location: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

/** The exact key sets of the answers (tests assert them; the pages rely on nothing else). */
export const COMPANY_CHECK_KEYS = [
  'cert_number',
  'name',
  'address',
  'scope',
  'ea_code',
  'standard',
  'accreditation',
  'issue_date',
  'original_issue_date',
  'expired_date',
  'surveillance_date',
  'status',
  'desc',
  'simple_dates',
  'public_certificate_download',
  'download_id',
  'history',
  'on',
] as const satisfies readonly (keyof CompanyCheck)[];
export const TRAINING_CHECK_KEYS = [
  'name',
  'certificate_number',
  'training',
  'location',
  'date',
] as const satisfies readonly (keyof TrainingCheck)[];

const str = { type: 'string' } as const;
const strOrNull = { type: 'string', nullable: true } as const;
const effectiveStatus = { type: 'string', enum: [...EFFECTIVE_STATUSES] } as const;

/** JSON Schema (OpenAPI 3.0) of CompanyCheck: the response schema that keeps every other field out. */
export const companyCheckJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...COMPANY_CHECK_KEYS],
  properties: {
    cert_number: str,
    name: str,
    address: strOrNull,
    scope: strOrNull,
    ea_code: strOrNull,
    standard: str,
    accreditation: strOrNull,
    issue_date: { type: 'string', format: 'date' },
    original_issue_date: { type: 'string', format: 'date', nullable: true },
    expired_date: { type: 'string', format: 'date' },
    surveillance_date: { type: 'string', format: 'date', nullable: true },
    status: { type: 'string', enum: EFFECTIVE_STATUSES.filter((s) => s !== 'DRAFT') },
    desc: strOrNull,
    simple_dates: { type: 'boolean' },
    public_certificate_download: { type: 'boolean' },
    download_id: { type: 'string', format: 'uuid', nullable: true },
    history: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['status', 'from'],
        properties: { status: effectiveStatus, from: { type: 'string', format: 'date' } },
      },
    },
    on: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['date', 'status', 'valid'],
      properties: {
        date: { type: 'string', format: 'date' },
        status: { ...effectiveStatus, nullable: true },
        valid: { type: 'boolean' },
      },
    },
  },
};

/** JSON Schema of TrainingCheck. */
export const trainingCheckJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...TRAINING_CHECK_KEYS],
  properties: {
    name: str,
    certificate_number: str,
    training: str,
    location: str,
    date: { type: 'string', format: 'date' },
  },
};

/** How the public pages name each status, in both languages. */
export const PUBLIC_STATUS_LABELS: Record<'id' | 'en', Record<EffectiveStatus, string>> = {
  id: {
    ACTIVE: 'AKTIF',
    EXPIRED: 'KADALUARSA',
    SUSPENDED: 'DIBEKUKAN',
    WITHDRAWN: 'DICABUT',
    NOACTIVE: 'TIDAK AKTIF',
    DRAFT: 'DRAF',
  },
  en: {
    ACTIVE: 'ACTIVE',
    EXPIRED: 'EXPIRED',
    SUSPENDED: 'SUSPENDED',
    WITHDRAWN: 'WITHDRAWN',
    NOACTIVE: 'NOT ACTIVE',
    DRAFT: 'DRAFT',
  },
};

/**
 * A certificate number as it goes into a check path: each `/` written `+` (docs/rules.md#calls), the
 * rest percent-encoded (a `+` of the number itself becomes `%2B`; the API tries it both ways).
 */
export const checkPathNumber = (number: string): string =>
  number.split('/').map(encodeURIComponent).join('+');

/**
 * The public page of a certificate (what its QR encodes), docs/rules.md#public-check: paths of the route
 * registry (routes.ts), so a path that is not one of its routes does not compile.
 */
export const PUBLIC_CHECK_PATHS = {
  company: '/check-certification-company',
  training: '/check-certification-training',
} as const satisfies Record<string, RoutePath>;
