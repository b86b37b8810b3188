/** The certificate PDF's input and the text it writes (pdf-certificate.ts draws it). */
import { countryName, longDate, sectorOf } from '@sertifikasi/shared-contracts';

/** A site the certificate covers: its name, full address and the scope it shows there. */
export interface CertificatePdfSite {
  name: string;
  address: string;
  scope: string | null;
}

/**
 * What the certificate PDF shows (docs/rules.md#what-the-certificate-shows, docs/rules.md#public-check). Dates
 * are `YYYY-MM-DD`.
 */
export interface CertificatePdfInput {
  certNumber: string;
  /** The scheme's revision and its date (the latest issue date). */
  revision: number;
  client: string;
  /** The client's full address, one line (fullAddress). */
  address: string | null;
  /** The scheme's scope, else the client's. */
  scope: string | null;
  /** The IAF sector codes; the client's free-text EA code shows only when there are none. */
  sectorCodes: readonly number[];
  eaCode: string | null;
  sites: readonly CertificatePdfSite[];
  /** The certification type's name (it carries the standard's edition, e.g. `ISO 9001:2015`). */
  standard: string;
  /** The accreditation body when the scheme is accredited: name, acronym and mark. */
  accreditation: { name: string; acronym: string | null; mark: Buffer | null } | null;
  issueDate: string;
  originalIssueDate: string | null;
  latestIssueDate: string;
  expiredDate: string;
  surveillanceDate: string | null;
  /** The company shows only the issue and expiry dates (and the original issue date when set). */
  simpleDates: boolean;
  /** The certification body (the company issuing the certificate): name and address. */
  issuer: string;
  issuerAddress: string | null;
  /** The company's `logo_cert` (its mark) and `ttd_cert` images (PNG or JPEG bytes), when it has them. */
  logo: Buffer | null;
  signature: Buffer | null;
  /** The QR code (PNG) of the public check URL, and the URL printed under it. */
  qrPng: Buffer | null;
  checkUrl: string;
  /** When the PDF is made (the app clock's now): its creation date. */
  createdAt: Date;
}

/**
 * An address on one line: street, city, province and postcode, country by its Indonesian name
 * (docs/rules.md#register-data); empty parts are left out, line breaks in the street become commas.
 */
export function fullAddress(a: {
  address: string | null;
  city: string | null;
  province: string | null;
  postcode: string | null;
  country: string | null;
}): string {
  const region = [a.province, a.postcode]
    .map((v) => v?.trim())
    .filter(Boolean)
    .join(' ');
  return [a.address, a.city, region, countryName(a.country)]
    .map((v) => v?.replace(/\s*\n\s*/g, ', ').trim())
    .filter(Boolean)
    .join(', ');
}

/** Characters of Windows-1252 beyond Latin-1's printable range, which the standard PDF fonts also have. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Text the standard fonts (Helvetica, WinAnsi encoding) can draw: Indonesian needs only Latin
 * letters, and names with accents (é, ü, ñ) are in WinAnsi; anything else is written without its
 * accents (ş -> s), and what still cannot be drawn becomes '?', never a wrong glyph. Control
 * characters other than newline become spaces.
 */
export function pdfSafeText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (ch === '\n') out += ch;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else if (code <= 0xff || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else {
      const plain = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out +=
        [...plain].every((c) => c.codePointAt(0)! <= 0xff && c.codePointAt(0)! >= 0x20) && plain
          ? plain
          : '?';
    }
  }
  return out;
}

/** `2024-03-05` -> `05 March 2024` (DD MMMM YYYY, the product's date format, in English like the certificate). */
export function pdfDate(date: string | null): string {
  return date ? longDate(date, 'en') : '-';
}

/**
 * The date rows the certificate carries, bilingual labels (docs/rules.md#what-the-certificate-shows): the original
 * issue date (the issue date stands in when not set, except on the simple layout, which shows it
 * only when set), the latest issue date, the next surveillance and the expiry. The company's
 * `simple_dates` setting leaves surveillance out (docs/rules.md#records).
 */
export function pdfDateRows(input: CertificatePdfInput): [string, string][] {
  const original: [string, string][] =
    input.originalIssueDate || !input.simpleDates
      ? [['Tanggal Terbit Awal / Original Issue Date', pdfDate(input.originalIssueDate ?? input.issueDate)]]
      : [];
  return [
    ...original,
    ['Tanggal Terbit Terakhir / Latest Issue Date', pdfDate(input.latestIssueDate)],
    ...(input.simpleDates
      ? []
      : ([['Survailen Berikutnya / Next Surveillance', pdfDate(input.surveillanceDate)]] as [
          string,
          string,
        ][])),
    ['Berlaku Hingga / Expiry Date', pdfDate(input.expiredDate)],
  ];
}

/**
 * The file name `CERT. NO. {number} {client}.pdf` (docs/rules.md#calls) for a Content-Disposition
 * header: `/` and `\` become `_` (docs/rules.md#public-check), and so do the other characters no file
 * system takes (`:*?"<>|` and controls). `ascii` is the plain `filename` (non-ASCII as `_`); `header`
 * adds `filename*` with the UTF-8 name.
 */
export function certificateFileName(number: string, client: string): { name: string; header: string } {
  const name = `CERT. NO. ${number.trim()} ${client.trim()}`
    // eslint-disable-next-line no-control-regex
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .concat('.pdf');
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return { name, header: `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}` };
}

/** The sector codes as the certificate writes them: `IAF 28, 33` ('' for none). */
export const sectorCodesText = (codes: readonly number[]): string =>
  codes.length ? `IAF ${codes.join(', ')}` : '';

/** The codes with their names, Indonesian / English: `28 Konstruksi / Construction; 33 ...`. */
export const sectorNamesText = (codes: readonly number[]): string =>
  codes
    .map((code) => {
      const s = sectorOf(code);
      return s ? `${code} ${s.id} / ${s.en}` : String(code);
    })
    .join('; ');
