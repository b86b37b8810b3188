/**
 * The one mapping from our records to IAF CertSearch's (docs/rules.md#iaf-certsearch): which schemes
 * go, what each is missing before it can, the API v1 record of a scheme, and the rows of the upload
 * workbook's four sheets, with their header names and the one date format of both.
 */
import {
  effectiveStatus,
  IAF_SECTORS,
  type IafMissingField,
  type SchemeStatus,
} from '@sertifikasi/shared-contracts';

/** A scheme as the mapping reads it: the scheme, its client, certification type, accreditation body and covered sites. */
export interface IafSource {
  id: string;
  cert_number: string | null;
  status: SchemeStatus;
  issue_date: string;
  original_issue_date: string | null;
  issue_date2: string | null;
  expired_date: string;
  scope: string | null;
  sector_codes: number[];
  client: {
    id: string;
    name: string;
    name_en: string | null;
    address: string | null;
    city: string | null;
    province: string | null;
    postcode: string | null;
    country: string | null;
    scope: string | null;
  };
  type: { name: string; category: string };
  body: { name: string; acronym: string | null };
  sites: {
    address: string | null;
    city: string | null;
    province: string | null;
    postcode: string | null;
    country: string | null;
    scope: string | null;
  }[];
  /** The latest change of any record the mapping reads. */
  changed_at: Date;
}

/** IAF's statuses, from the effective one (an ACTIVE scheme past its expiry goes as expired). */
const IAF_STATUS: Record<string, string> = {
  ACTIVE: 'active',
  EXPIRED: 'expired',
  SUSPENDED: 'suspended',
  WITHDRAWN: 'withdrawn',
  // 'NOT ACTIVE' is no longer certified: withdrawn is IAF's word for it.
  NOACTIVE: 'withdrawn',
};

/** Every date IAF gets, in the API and in the workbook: `YYYY-MM-DD`. */
export const IAF_DATE = (date: string | null): string => (date ?? '').slice(0, 10);

const englishNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** A country as IAF reads it: its English name (`ID` is Indonesia). */
export const countryEn = (code: string | null): string => {
  if (!code) return '';
  try {
    return englishNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
};

const blank = (value: string | null | undefined) => !value || !value.trim();

/** The scope that goes: the scheme's, else the client's. */
const scopeOf = (s: IafSource) => (blank(s.scope) ? (s.client.scope ?? '') : s.scope!).trim();

/** What a scheme misses before it can go (empty: ready). */
export function missingOf(s: IafSource): IafMissingField[] {
  const missing: IafMissingField[] = [];
  if (blank(s.cert_number)) missing.push('cert_number');
  if (blank(scopeOf(s))) missing.push('scope');
  if (blank(s.client.address)) missing.push('address');
  if (blank(s.client.city)) missing.push('city');
  if (blank(s.client.country)) missing.push('country');
  if (!s.sector_codes.length) missing.push('sector_codes');
  if (blank(s.body.acronym)) missing.push('accreditation_body_acronym');
  if (blank(s.expired_date)) missing.push('expiry_date');
  return missing;
}

/** The status a scheme goes with on `today`. */
export const iafStatus = (s: IafSource, today: string): string =>
  IAF_STATUS[effectiveStatus(s.status, s.expired_date, today)] ?? 'withdrawn';

/** A sector as the API and the workbook name it. */
const sectorsOf = (s: IafSource) =>
  s.sector_codes.map((code) => ({
    iaf_code: String(code),
    description: IAF_SECTORS.find((sector) => sector.code === code)?.en ?? '',
  }));

/** The IAF CertSearch API v1 record of a ready scheme. */
export function toIafRecord(s: IafSource, today: string) {
  const scope = scopeOf(s);
  return {
    certificate_number: s.cert_number!.trim(),
    certification_status: iafStatus(s, today),
    certificate_accreditation_status: 'Accredited',
    certification_type: 'Management System',
    certification_scope: scope,
    certification_original_issue_date: IAF_DATE(s.original_issue_date ?? s.issue_date),
    certification_issue_date: IAF_DATE(s.issue_date2 ?? s.issue_date),
    certification_expiry_date: IAF_DATE(s.expired_date),
    certified_entity_name: s.client.name,
    certified_entity_english_name: s.client.name_en ?? '',
    certified_entity_unique_id: s.client.id,
    certified_entity_street_address: s.client.address ?? '',
    certified_entity_street_city: s.client.city ?? '',
    certified_entity_state: s.client.province ?? '',
    certified_entity_post_code: s.client.postcode ?? '',
    certified_entity_country: countryEn(s.client.country),
    accreditation_body_name: s.body.name,
    accreditation_body_acronym_name: s.body.acronym ?? '',
    schemes: [{ scheme_name: s.type.category, standard_list: [{ standards_name: s.type.name }] }],
    sites: s.sites.map((site) => ({
      street: site.address ?? '',
      city: site.city ?? '',
      state: site.province ?? '',
      country: countryEn(site.country),
      postcode: site.postcode ?? '',
      scope_description: blank(site.scope) ? scope : site.scope!,
    })),
    sectors: sectorsOf(s),
  };
}
export type IafRecord = ReturnType<typeof toIafRecord>;

type Cell = string | number | null;

/** The upload workbook's sheets, with the template's header names. */
export const IAF_SHEETS = {
  entity: {
    name: 'Certified Entity',
    header: [
      'Certified Entity Unique ID',
      'Certified Entity Name',
      'English Name',
      'Street Address',
      'City',
      'State/Province',
      'Post Code',
      'Country',
    ],
  },
  certification: {
    name: 'Certification',
    header: [
      'Certificate Number',
      'Certified Entity Unique ID',
      'Certification Status',
      'Accreditation Status',
      'Certification Type',
      'Scheme',
      'Standard',
      'Certification Scope',
      'Original Issue Date',
      'Issue Date',
      'Expiry Date',
      'Accreditation Body Name',
      'Accreditation Body Acronym',
    ],
  },
  site: {
    name: 'Certification Site',
    header: [
      'Certificate Number',
      'Street Address',
      'City',
      'State/Province',
      'Post Code',
      'Country',
      'Scope',
    ],
  },
  sector: {
    name: 'Certification Sector',
    header: ['Certificate Number', 'IAF Code', 'Sector Description'],
  },
} as const;

/** The rows the workbook's sheets get from one record (the entity once per client: `entity` null after the first). */
export function sheetRows(r: IafRecord, firstOfEntity: boolean) {
  const entity: Cell[] | null = firstOfEntity
    ? [
        r.certified_entity_unique_id,
        r.certified_entity_name,
        r.certified_entity_english_name,
        r.certified_entity_street_address,
        r.certified_entity_street_city,
        r.certified_entity_state,
        r.certified_entity_post_code,
        r.certified_entity_country,
      ]
    : null;
  const certification: Cell[] = [
    r.certificate_number,
    r.certified_entity_unique_id,
    r.certification_status,
    r.certificate_accreditation_status,
    r.certification_type,
    r.schemes[0]!.scheme_name,
    r.schemes[0]!.standard_list[0]!.standards_name,
    r.certification_scope,
    r.certification_original_issue_date,
    r.certification_issue_date,
    r.certification_expiry_date,
    r.accreditation_body_name,
    r.accreditation_body_acronym_name,
  ];
  const sites: Cell[][] = r.sites.map((s) => [
    r.certificate_number,
    s.street,
    s.city,
    s.state,
    s.postcode,
    s.country,
    s.scope_description,
  ]);
  const sectors: Cell[][] = r.sectors.map((s) => [r.certificate_number, s.iaf_code, s.description]);
  return { entity, certification, sites, sectors };
}
