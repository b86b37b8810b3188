import * as yup from 'yup';
import { optionalText, outId, outText, requiredText, trimString, uuidField } from './fields';
import { V } from './messages';
import { DEFAULT_COUNTRY, isCountryCode } from './countries';
import { MAX_SECTOR_CODE, MIN_SECTOR_CODE } from './sectors';

/**
 * The register's address and certificate data (docs/rules.md#register-data): the structured
 * address of a client and of its sites ('Lokasi'), and the scheme fields that say what a
 * certificate covers (sector codes, sites).
 */

export const COUNTRY_LABEL = 'Negara';
export const SECTOR_CODES_LABEL = 'Kode Sektor IAF';
export const SITES_LABEL = 'Lokasi';

/** 'Negara': an ISO 3166-1 alpha-2 code (any case sent, stored upper case); empty or absent: 'ID'. */
export const countryField = () =>
  yup
    .string()
    .typeError(V.string(COUNTRY_LABEL))
    .transform((v: unknown) => {
      const t = trimString(v);
      if (t === '' || t === null || t === undefined) return DEFAULT_COUNTRY;
      return typeof t === 'string' ? t.toUpperCase() : t;
    })
    .test('country', V.oneOf(COUNTRY_LABEL), (v) => v === undefined || isCountryCode(v))
    .default(DEFAULT_COUNTRY);

/** The structured address beside the street line (`address`). */
export const addressFields = () => ({
  city: optionalText('Kota/Kabupaten', 100),
  province: optionalText('Provinsi', 100),
  postcode: optionalText('Kode Pos', 20),
  country: countryField(),
});

/** The same, as answered. */
export const addressOut = () => ({
  city: outText(),
  province: outText(),
  postcode: outText(),
  country: yup.string().defined(),
});

const SECTOR_RANGE = `${SECTOR_CODES_LABEL} harus antara ${MIN_SECTOR_CODE} dan ${MAX_SECTOR_CODE}`;

/** 'Kode Sektor IAF': whole numbers 1-39, kept in ascending order without repeats; absent or null: none. */
export const sectorCodesField = () =>
  yup
    .array(
      yup
        .number()
        .typeError(SECTOR_RANGE)
        .integer(SECTOR_RANGE)
        .min(MIN_SECTOR_CODE, SECTOR_RANGE)
        .max(MAX_SECTOR_CODE, SECTOR_RANGE)
        .required(SECTOR_RANGE),
    )
    .typeError(V.oneOf(SECTOR_CODES_LABEL))
    .transform((v: unknown) =>
      Array.isArray(v) && v.every((n) => typeof n === 'number') ? [...new Set(v)].sort((a, b) => a - b) : v,
    )
    .max(MAX_SECTOR_CODE, SECTOR_RANGE)
    .default([])
    .nullable()
    .transform((v: unknown) => (v === null ? [] : v));

/** One site a scheme covers, with its own scope (empty: the scheme's). */
export const schemeSiteInputSchema = yup
  .object({
    site_id: uuidField(SITES_LABEL),
    scope: optionalText('Lingkup Lokasi', 3000, { multiline: true }),
  })
  .noUnknown(V.unknown);

/** 'Lokasi' of a scheme: sites of the scheme's client, each at most once; absent or null: none. */
export const schemeSitesField = () =>
  yup
    .array(schemeSiteInputSchema.required(V.required(SITES_LABEL)))
    .typeError(V.oneOf(SITES_LABEL))
    .max(500, `${SITES_LABEL} maksimal 500 item`)
    .test('distinct-sites', `${SITES_LABEL} tidak boleh dipilih lebih dari sekali`, (sites) => {
      const ids = (sites ?? []).map((s) => String(s?.site_id ?? '').toLowerCase());
      return new Set(ids).size === ids.length;
    })
    .default([])
    .nullable()
    .transform((v: unknown) => (v === null ? [] : v));

export const schemeSiteSchema = yup.object({
  site_id: outId(),
  scope: outText(),
});
export type SchemeSite = yup.InferType<typeof schemeSiteSchema>;

/** A site ('Lokasi') of a client: its name and address. JSON bodies. */
export const clientSiteInputSchema = yup
  .object({
    client_id: uuidField('Klien'),
    name: requiredText('Nama Lokasi', 200),
    address: optionalText('Alamat', 1000, { multiline: true }),
    ...addressFields(),
  })
  .noUnknown(V.unknown);
export type ClientSiteInput = yup.InferType<typeof clientSiteInputSchema>;

export const clientSiteSchema = yup.object({
  id: outId(),
  client_id: outId(),
  company_id: outId(),
  name: yup.string().defined(),
  address: outText(),
  ...addressOut(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type ClientSite = yup.InferType<typeof clientSiteSchema>;
