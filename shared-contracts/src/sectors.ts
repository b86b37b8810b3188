/**
 * The IAF sector codes (IAF ID 1, the EA codes 1-39) a certificate's scope is classified by
 * (docs/rules.md#register-data), with their English and Indonesian names, and the one reading of
 * free text (a client's 'Kode EA', an import cell) into codes. yup-free.
 */

/** One IAF sector: its code (1-39) and its names. */
export interface IafSector {
  code: number;
  en: string;
  id: string;
}

export const IAF_SECTORS: readonly IafSector[] = [
  { code: 1, en: 'Agriculture, forestry and fishing', id: 'Pertanian, kehutanan dan perikanan' },
  { code: 2, en: 'Mining and quarrying', id: 'Pertambangan dan penggalian' },
  { code: 3, en: 'Food products, beverages and tobacco', id: 'Produk makanan, minuman dan tembakau' },
  { code: 4, en: 'Textiles and textile products', id: 'Tekstil dan produk tekstil' },
  { code: 5, en: 'Leather and leather products', id: 'Kulit dan produk kulit' },
  { code: 6, en: 'Wood and wood products', id: 'Kayu dan produk kayu' },
  { code: 7, en: 'Pulp, paper and paper products', id: 'Pulp, kertas dan produk kertas' },
  { code: 8, en: 'Publishing companies', id: 'Perusahaan penerbitan' },
  { code: 9, en: 'Printing companies', id: 'Perusahaan percetakan' },
  {
    code: 10,
    en: 'Manufacture of coke and refined petroleum products',
    id: 'Pembuatan kokas dan produk minyak bumi olahan',
  },
  { code: 11, en: 'Nuclear fuel', id: 'Bahan bakar nuklir' },
  { code: 12, en: 'Chemicals, chemical products and fibres', id: 'Bahan kimia, produk kimia dan serat' },
  { code: 13, en: 'Pharmaceuticals', id: 'Farmasi' },
  { code: 14, en: 'Rubber and plastic products', id: 'Produk karet dan plastik' },
  { code: 15, en: 'Non-metallic mineral products', id: 'Produk mineral bukan logam' },
  { code: 16, en: 'Concrete, cement, lime, plaster etc.', id: 'Beton, semen, kapur, gips dan sejenisnya' },
  {
    code: 17,
    en: 'Basic metals and fabricated metal products',
    id: 'Logam dasar dan produk logam fabrikasi',
  },
  { code: 18, en: 'Machinery and equipment', id: 'Mesin dan peralatan' },
  { code: 19, en: 'Electrical and optical equipment', id: 'Peralatan listrik dan optik' },
  { code: 20, en: 'Shipbuilding', id: 'Pembuatan kapal' },
  { code: 21, en: 'Aerospace', id: 'Kedirgantaraan' },
  { code: 22, en: 'Other transport equipment', id: 'Peralatan transportasi lainnya' },
  {
    code: 23,
    en: 'Manufacturing not elsewhere classified',
    id: 'Industri pengolahan yang tidak diklasifikasikan di tempat lain',
  },
  { code: 24, en: 'Recycling', id: 'Daur ulang' },
  { code: 25, en: 'Electricity supply', id: 'Pasokan listrik' },
  { code: 26, en: 'Gas supply', id: 'Pasokan gas' },
  { code: 27, en: 'Water supply', id: 'Pasokan air' },
  { code: 28, en: 'Construction', id: 'Konstruksi' },
  {
    code: 29,
    en: 'Wholesale and retail trade; repair of motor vehicles, motorcycles and personal and household goods',
    id: 'Perdagangan besar dan eceran; reparasi kendaraan bermotor, sepeda motor serta barang pribadi dan rumah tangga',
  },
  { code: 30, en: 'Hotels and restaurants', id: 'Hotel dan restoran' },
  { code: 31, en: 'Transport, storage and communication', id: 'Transportasi, pergudangan dan komunikasi' },
  {
    code: 32,
    en: 'Financial intermediation; real estate; renting',
    id: 'Perantara keuangan; real estat; persewaan',
  },
  { code: 33, en: 'Information technology', id: 'Teknologi informasi' },
  { code: 34, en: 'Engineering services', id: 'Jasa keteknikan' },
  { code: 35, en: 'Other services', id: 'Jasa lainnya' },
  { code: 36, en: 'Public administration', id: 'Administrasi publik' },
  { code: 37, en: 'Education', id: 'Pendidikan' },
  { code: 38, en: 'Health and social work', id: 'Kesehatan dan pekerjaan sosial' },
  { code: 39, en: 'Other social services', id: 'Jasa sosial lainnya' },
];

export const MIN_SECTOR_CODE = 1;
export const MAX_SECTOR_CODE = 39;

/** True for a whole number that is one of the 39 IAF sector codes. */
export const isSectorCode = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isInteger(value) &&
  value >= MIN_SECTOR_CODE &&
  value <= MAX_SECTOR_CODE;

/** The sector of a code, or undefined. */
export const sectorOf = (code: number): IafSector | undefined =>
  isSectorCode(code) ? IAF_SECTORS[code - 1] : undefined;

/** The code with its Indonesian name ('28 - Konstruksi'), as the forms list them. */
export const sectorLabel = (code: number): string => {
  const sector = sectorOf(code);
  return sector ? `${sector.code} - ${sector.id}` : String(code);
};

/**
 * The reading of free text as sector codes (docs/rules.md#register-data), the same one the data
 * migration that fills schemes' codes from their client's 'Kode EA' does in SQL: the words `EA` and
 * `IAF` (any case, with an optional `:`, `.` or `-` after them) are left out; what remains must be
 * numbers of one or two digits separated by commas, semicolons, slashes, `&` or spaces, each
 * between 1 and 39. Answers the codes in ascending order without repeats, or null when the text
 * does not read so (empty text included).
 */
export const SECTOR_PREFIX = /(EA|IAF)\s*[:.-]?\s*/gi;
export const SECTOR_LIST = /^\d{1,2}(\s*[,;/&]\s*\d{1,2}|\s+\d{1,2})*$/;
export const SECTOR_SEPARATOR = /[\s,;/&]+/;

export function parseSectorCodes(text: string | null | undefined): number[] | null {
  if (typeof text !== 'string') return null;
  const rest = text.replace(SECTOR_PREFIX, '').trim();
  if (!SECTOR_LIST.test(rest)) return null;
  const codes = rest.split(SECTOR_SEPARATOR).map(Number);
  if (!codes.every(isSectorCode)) return null;
  return [...new Set(codes)].sort((a, b) => a - b);
}

/** Codes as an export or import cell writes them: '28, 33' ('' for none). */
export const formatSectorCodes = (codes: readonly number[] | null | undefined): string =>
  (codes ?? []).join(', ');
