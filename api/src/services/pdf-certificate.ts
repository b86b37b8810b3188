import PDFDocument from 'pdfkit';
import { longDate } from '@sertifikasi/shared-contracts';

/** What the certificate PDF shows (docs/rules.md#public-check). Dates are `YYYY-MM-DD`. */
export interface CertificatePdfInput {
  certNumber: string;
  client: string;
  address: string | null;
  scope: string | null;
  eaCode: string | null;
  standard: string;
  accreditation: string | null;
  issueDate: string;
  expiredDate: string;
  surveillanceDate: string | null;
  /** The company shows only Issue Date and Expire Date. */
  simpleDates: boolean;
  /** The certification body (the company issuing the certificate). */
  issuer: string;
  /** The company's `logo_cert` and `ttd_cert` images (PNG or JPEG bytes), when it has them. */
  logo: Buffer | null;
  signature: Buffer | null;
  /** The QR code (PNG) of the public check URL, and the URL printed under it. */
  qrPng: Buffer | null;
  checkUrl: string;
  /** When the PDF is made (the app clock's now): its creation date. */
  createdAt: Date;
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

/** The date rows the certificate carries, as the company's `simple_dates` setting says (docs/rules.md#records). */
export function pdfDateRows(input: CertificatePdfInput): [string, string][] {
  if (input.simpleDates) {
    return [
      ['Issue Date', pdfDate(input.issueDate)],
      ['Expire Date', pdfDate(input.expiredDate)],
    ];
  }
  return [
    ['Date of Issue of Original Certificate', pdfDate(input.issueDate)],
    ['Date of Issue of Latest', pdfDate(input.issueDate)],
    ['Next Surveillance Date', pdfDate(input.surveillanceDate)],
    ['Re-certificate Due on', pdfDate(input.expiredDate)],
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

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT = A4.width - 2 * MARGIN;

/** Draws an image fitted into a box; a broken image is left out rather than failing the certificate. */
function image(doc: PDFKit.PDFDocument, data: Buffer | null, x: number, y: number, w: number, h: number) {
  if (!data) return;
  try {
    doc.image(data, x, y, { fit: [w, h], align: 'center', valign: 'center' });
  } catch {
    // Not a PNG or JPEG pdfkit can read: the certificate goes out without it.
  }
}

/**
 * The certificate as an A4 PDF: the company's certificate logo, the client, address, standard,
 * scope (shrunk to fit one page), number, dates, accreditation, the signature image and the QR of
 * the public check page. Standard Helvetica (WinAnsi, text passed through pdfSafeText).
 */
export function certificatePdf(input: CertificatePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: pdfSafeText(`Certificate ${input.certNumber}`),
      Author: pdfSafeText(input.issuer),
      Subject: pdfSafeText(`${input.standard} - ${input.client}`),
      CreationDate: input.createdAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const t = pdfSafeText;
  const center = (text: string, font: string, size: number, gap = 6) => {
    doc.font(font).fontSize(size).text(t(text), MARGIN, doc.y, { width: CONTENT, align: 'center' });
    doc.y += gap;
  };

  // Frame.
  doc
    .lineWidth(2)
    .strokeColor('#1f3b63')
    .rect(25, 25, A4.width - 50, A4.height - 50)
    .stroke();
  doc
    .lineWidth(0.5)
    .rect(31, 31, A4.width - 62, A4.height - 62)
    .stroke();
  doc.fillColor('#111111');

  image(doc, input.logo, MARGIN + CONTENT / 2 - 90, 45, 180, 70);
  doc.y = 125;
  center('CERTIFICATE', 'Helvetica-Bold', 26, 2);
  center(`Certificate No. ${input.certNumber}`, 'Helvetica', 12, 14);
  center('This is to certify that', 'Helvetica-Oblique', 11, 6);
  center(input.client, 'Helvetica-Bold', 18, 4);
  if (input.address) center(input.address, 'Helvetica', 10, 10);
  center('has been assessed and found to conform with the requirements of', 'Helvetica-Oblique', 11, 6);
  center(input.standard, 'Helvetica-Bold', 15, 12);

  // The scope, shrunk until it fits the room left above the dates (long scopes are common).
  const bottomBlock = A4.height - MARGIN - 150;
  const dateRows = pdfDateRows(input);
  const extraRows = (input.eaCode ? 1 : 0) + (input.accreditation ? 1 : 0);
  const datesHeight = (dateRows.length + extraRows) * 15 + 12;
  const scopeTop = doc.y;
  const scopeRoom = Math.max(40, bottomBlock - datesHeight - scopeTop - 16);
  if (input.scope) {
    doc.font('Helvetica-Bold').fontSize(10).text('Scope of certification:', MARGIN, scopeTop, {
      width: CONTENT,
      align: 'center',
    });
    const scope = t(input.scope);
    let size = 11;
    doc.font('Helvetica');
    while (size > 6 && doc.fontSize(size).heightOfString(scope, { width: CONTENT }) > scopeRoom) size -= 0.5;
    doc.fontSize(size).text(scope, MARGIN, doc.y + 3, {
      width: CONTENT,
      align: 'center',
      height: scopeRoom,
      ellipsis: true,
    });
  }

  // Number, dates, EA code, accreditation: label / value rows.
  let y = Math.max(doc.y + 14, bottomBlock - datesHeight);
  const rows: [string, string][] = [
    ...(input.eaCode ? ([['EA Code', input.eaCode]] as [string, string][]) : []),
    ...dateRows,
    ...(input.accreditation ? ([['Accreditation', input.accreditation]] as [string, string][]) : []),
  ];
  for (const [label, value] of rows) {
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(t(label), MARGIN + 40, y, { width: 220 });
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(t(value), MARGIN + 270, y, { width: CONTENT - 310 });
    y += 15;
  }

  // QR (left) and signature (right) at the foot.
  const foot = A4.height - MARGIN - 120;
  image(doc, input.qrPng, MARGIN, foot, 95, 95);
  doc
    .font('Helvetica')
    .fontSize(6.5)
    .fillColor('#444444')
    .text(t(`Verify: ${input.checkUrl}`), MARGIN, foot + 98, { width: 300 });
  image(doc, input.signature, A4.width - MARGIN - 180, foot, 180, 70);
  doc
    .moveTo(A4.width - MARGIN - 180, foot + 76)
    .lineTo(A4.width - MARGIN, foot + 76)
    .lineWidth(0.5)
    .strokeColor('#333333')
    .stroke();
  doc
    .fillColor('#111111')
    .font('Helvetica-Bold')
    .fontSize(10)
    .text(t(input.issuer), A4.width - MARGIN - 180, foot + 80, { width: 180, align: 'center' });
  doc.end();
  return done;
}
