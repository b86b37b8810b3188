/**
 * Countries (ISO 3166-1 alpha-2) of addresses (docs/rules.md#register-data): the short list the forms
 * offer (ASEAN and Indonesia's main partners), and the name of any code, from that list or from
 * `Intl.DisplayNames`. yup-free.
 */

export const DEFAULT_COUNTRY = 'ID';

/** The countries the forms list, Indonesia first, with their Indonesian names. */
export const COUNTRIES: readonly { code: string; name: string }[] = [
  { code: 'ID', name: 'Indonesia' },
  { code: 'BN', name: 'Brunei Darussalam' },
  { code: 'KH', name: 'Kamboja' },
  { code: 'LA', name: 'Laos' },
  { code: 'MY', name: 'Malaysia' },
  { code: 'MM', name: 'Myanmar' },
  { code: 'PH', name: 'Filipina' },
  { code: 'SG', name: 'Singapura' },
  { code: 'TH', name: 'Thailand' },
  { code: 'TL', name: 'Timor Leste' },
  { code: 'VN', name: 'Vietnam' },
  { code: 'AU', name: 'Australia' },
  { code: 'CN', name: 'Tiongkok' },
  { code: 'HK', name: 'Hong Kong' },
  { code: 'TW', name: 'Taiwan' },
  { code: 'JP', name: 'Jepang' },
  { code: 'KR', name: 'Korea Selatan' },
  { code: 'IN', name: 'India' },
  { code: 'NZ', name: 'Selandia Baru' },
  { code: 'SA', name: 'Arab Saudi' },
  { code: 'AE', name: 'Uni Emirat Arab' },
  { code: 'US', name: 'Amerika Serikat' },
  { code: 'CA', name: 'Kanada' },
  { code: 'GB', name: 'Inggris Raya' },
  { code: 'DE', name: 'Jerman' },
  { code: 'FR', name: 'Prancis' },
  { code: 'NL', name: 'Belanda' },
  { code: 'IT', name: 'Italia' },
  { code: 'CH', name: 'Swiss' },
];

const LISTED = new Map(COUNTRIES.map((c) => [c.code, c.name]));

let regions: Intl.DisplayNames | null | undefined;
const regionNames = (): Intl.DisplayNames | null => {
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(['id'], { type: 'region', fallback: 'none' });
    } catch {
      regions = null;
    }
  }
  return regions;
};

/** True for a two-letter code of a country (one of the list, or one `Intl` names). */
export function isCountryCode(code: unknown): code is string {
  if (typeof code !== 'string' || !/^[A-Z]{2}$/.test(code)) return false;
  if (LISTED.has(code)) return true;
  // User-assigned and reserved codes that name no country ('ZZ' is an unknown region).
  if (/^(AA|OO|ZZ|Q[M-Z]|X[A-Z]|EU|EZ|UN)$/.test(code)) return false;
  try {
    return regionNames()?.of(code) !== undefined;
  } catch {
    return false;
  }
}

/** The Indonesian name of a country code; the code itself when nothing names it. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  const listed = LISTED.get(code);
  if (listed) return listed;
  try {
    return regionNames()?.of(code) ?? code;
  } catch {
    return code;
  }
}
