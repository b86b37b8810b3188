import PDFDocument from 'pdfkit';
import {
  type CertificatePdfInput,
  type CertificatePdfSite,
  pdfDate,
  pdfDateRows,
  pdfSafeText as t,
  sectorCodesText,
  sectorNamesText,
} from './pdf-certificate-text';

export {
  type CertificatePdfInput,
  type CertificatePdfSite,
  certificateFileName,
  fullAddress,
} from './pdf-certificate-text';

type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT = A4.width - 2 * MARGIN;
/** The first page's foot (QR, accreditation mark, signature) starts here. */
const FOOT = A4.height - MARGIN - 120;
/** Where an annex page's list ends (the page number goes below). */
const ANNEX_BOTTOM = A4.height - MARGIN - 20;
/** Sites stay on the first page when at most this many and they take at most a third of its free room. */
const FIRST_PAGE_SITES = 3;

/** Draws an image fitted into a box; a broken image is left out rather than failing the certificate. */
function image(doc: Doc, data: Buffer | null, x: number, y: number, w: number, h: number) {
  if (!data) return;
  try {
    doc.image(data, x, y, { fit: [w, h], align: 'center', valign: 'center' });
  } catch {
    // Not a PNG or JPEG pdfkit can read: the certificate goes out without it.
  }
}

function frame(doc: Doc) {
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
}

/** The height `text` takes in `font` at `size` over `width`. */
const heightOf = (doc: Doc, text: string, font: string, size: number, width: number) =>
  doc.font(font).fontSize(size).heightOfString(t(text), { width });

/** A centered paragraph at the current y, then `gap` points. */
function centered(doc: Doc, text: string, font: string, size: number, gap = 6) {
  doc.font(font).fontSize(size).text(t(text), MARGIN, doc.y, { width: CONTENT, align: 'center' });
  doc.y += gap;
}

/**
 * A centered paragraph shrunk from `size` down to `min` points until it takes at most `maxHeight`
 * (what is still longer is cut with an ellipsis), then `gap` points: long names and addresses never
 * push the page's lower parts down.
 */
function fitted(
  doc: Doc,
  text: string,
  font: string,
  size: number,
  min: number,
  maxHeight: number,
  gap: number,
) {
  while (size > min && heightOf(doc, text, font, size, CONTENT) > maxHeight) size -= 0.5;
  doc
    .font(font)
    .fontSize(size)
    .text(t(text), MARGIN, doc.y, { width: CONTENT, align: 'center', height: maxHeight, ellipsis: true });
  doc.y += gap;
}

/** A site as the certificate lists it: `n. name`, its address and its scope (indented). */
const siteLines = (site: CertificatePdfSite, n: number): [string, string][] => [
  ['Helvetica-Bold', `${n}. ${site.name}`],
  ['Helvetica', site.address || '-'],
  ['Helvetica-Oblique', `Lingkup / Scope: ${site.scope ?? '-'}`],
];
const INDENT = 12;

function siteHeight(doc: Doc, lines: [string, string][], size: number, width: number): number {
  return lines.reduce(
    (h, [font, text], i) => h + heightOf(doc, text, font, size, width - (i ? INDENT : 0)) + 1,
    4,
  );
}

/** Draws a site's lines from `y`; answers the y below it. */
function drawSite(doc: Doc, lines: [string, string][], x: number, y: number, width: number, size: number) {
  for (const [i, [font, text]] of lines.entries()) {
    const left = x + (i ? INDENT : 0);
    doc
      .font(font)
      .fontSize(size)
      .text(t(text), left, y, { width: width - (i ? INDENT : 0) });
    y = doc.y + 1;
  }
  return y + 4;
}

/** The label / value rows above the foot: dates and the accreditation. */
function rowsOf(input: CertificatePdfInput): [string, string][] {
  const acc = input.accreditation;
  return [
    ...pdfDateRows(input),
    ...(acc
      ? ([['Akreditasi / Accreditation', acc.acronym ? `${acc.name} (${acc.acronym})` : acc.name]] as [
          string,
          string,
        ][])
      : []),
  ];
}
const LABEL_X = MARGIN + 20;
const VALUE_X = MARGIN + 255;
const VALUE_W = CONTENT - 255 - 20;
const rowHeight = (doc: Doc, [label, value]: [string, string]) =>
  Math.max(
    heightOf(doc, label, 'Helvetica', 9, VALUE_X - LABEL_X - 8),
    heightOf(doc, value, 'Helvetica-Bold', 9.5, VALUE_W),
  ) + 4;

/**
 * The first page: the company's certificate mark, number with its revision, client and address,
 * standard, then scope, sector codes and sites in the room left above the dates (the scope shrinks
 * to fit; sites that do not fit go to the annex), the dates and accreditation, and the foot.
 * Answers whether the sites go to the annex.
 */
function firstPage(doc: Doc, input: CertificatePdfInput): boolean {
  frame(doc);
  image(doc, input.logo, MARGIN + CONTENT / 2 - 90, 42, 180, 70);
  doc.y = 120;
  centered(doc, 'SERTIFIKAT', 'Helvetica-Bold', 24, 0);
  centered(doc, 'CERTIFICATE', 'Helvetica-Oblique', 10, 6);
  centered(doc, `No. ${input.certNumber}`, 'Helvetica-Bold', 12, 1);
  centered(
    doc,
    `Revisi ${input.revision} / Revision ${input.revision}: ${pdfDate(input.latestIssueDate)}`,
    'Helvetica',
    8.5,
    10,
  );
  centered(doc, 'Dengan ini menyatakan bahwa / This is to certify that', 'Helvetica-Oblique', 10, 5);
  fitted(doc, input.client, 'Helvetica-Bold', 17, 10, 44, 3);
  if (input.address) fitted(doc, input.address, 'Helvetica', 9.5, 6, 54, 8);
  centered(
    doc,
    'telah dinilai dan memenuhi persyaratan / has been assessed and found to conform with the requirements of',
    'Helvetica-Oblique',
    9.5,
    5,
  );
  fitted(doc, input.standard, 'Helvetica-Bold', 14, 9, 36, 10);

  const rows = rowsOf(input);
  const rowsTop = FOOT - 10 - rows.reduce((h, row) => h + rowHeight(doc, row), 0);
  const top = doc.y;
  const room = rowsTop - 10 - top;

  // Sector codes (with their names when the scope still has room), sites, and what is left: the scope.
  const codes = sectorCodesText(input.sectorCodes);
  const codesLine = codes
    ? `Kode Sektor IAF / IAF Sectors: ${codes}`
    : input.eaCode
      ? `Kode EA / EA Code: ${input.eaCode}`
      : '';
  const codesH = codesLine ? heightOf(doc, codesLine, 'Helvetica-Bold', 9, CONTENT) + 4 : 0;
  const names = sectorNamesText(input.sectorCodes);
  const namesH = names ? heightOf(doc, names, 'Helvetica-Oblique', 7.5, CONTENT) + 4 : 0;
  const siteList = input.sites.map((s, i) => siteLines(s, i + 1));
  const sitesHeader = 'Lokasi / Sites:';
  const headerH = heightOf(doc, sitesHeader, 'Helvetica-Bold', 9, CONTENT) + 2;
  const listH = siteList.reduce((h, lines) => h + siteHeight(doc, lines, 8.5, CONTENT - 40), 0);
  const annex = siteList.length > FIRST_PAGE_SITES || headerH + listH > room / 3;
  const annexNote = `Lokasi / Sites: ${siteList.length} lokasi, lihat Lampiran / see Annex`;
  const sitesH =
    siteList.length === 0
      ? 0
      : annex
        ? heightOf(doc, annexNote, 'Helvetica-Bold', 9, CONTENT) + 6
        : headerH + listH + 4;
  const scope = input.scope ? t(input.scope) : '';
  const scopeHeaderH = scope ? heightOf(doc, 'Lingkup / Scope:', 'Helvetica-Bold', 10, CONTENT) + 3 : 0;
  const fixed = codesH + sitesH + scopeHeaderH + (scope ? 8 : 0);
  const withNames =
    namesH > 0 && (!scope || room - fixed - namesH >= heightOf(doc, scope, 'Helvetica', 9, CONTENT));
  const scopeRoom = Math.max(30, room - fixed - (withNames ? namesH : 0));

  let y = top;
  if (scope) {
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text('Lingkup / Scope:', MARGIN, y, { width: CONTENT, align: 'center' });
    let size = 11;
    doc.font('Helvetica');
    while (size > 6 && doc.fontSize(size).heightOfString(scope, { width: CONTENT }) > scopeRoom) size -= 0.5;
    doc
      .fontSize(size)
      .text(scope, MARGIN, doc.y + 3, { width: CONTENT, align: 'center', height: scopeRoom, ellipsis: true });
    y = doc.y + 8;
  }
  if (codesLine) {
    doc.font('Helvetica-Bold').fontSize(9).text(t(codesLine), MARGIN, y, { width: CONTENT, align: 'center' });
    y = doc.y + 4;
    if (withNames) {
      doc
        .font('Helvetica-Oblique')
        .fontSize(7.5)
        .text(t(names), MARGIN, y - 2, { width: CONTENT, align: 'center' });
      y = doc.y + 4;
    }
  }
  if (siteList.length > 0 && annex) {
    doc.font('Helvetica-Bold').fontSize(9).text(t(annexNote), MARGIN, y, { width: CONTENT, align: 'center' });
  } else if (siteList.length > 0) {
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .text(sitesHeader, MARGIN + 20, y, { width: CONTENT - 40 });
    y = doc.y + 2;
    for (const lines of siteList) y = drawSite(doc, lines, MARGIN + 20, y, CONTENT - 40, 8.5);
  }

  y = Math.max(doc.y + 10, rowsTop);
  for (const row of rows) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(t(row[0]), LABEL_X, y, { width: VALUE_X - LABEL_X - 8 });
    doc.font('Helvetica-Bold').fontSize(9.5).text(t(row[1]), VALUE_X, y, { width: VALUE_W });
    y += rowHeight(doc, row);
  }
  foot(doc, input);
  return annex && siteList.length > 0;
}

/** QR and check URL (left), the accreditation body's mark (middle), signature and the body issuing it (right). */
function foot(doc: Doc, input: CertificatePdfInput) {
  image(doc, input.qrPng, MARGIN, FOOT, 95, 95);
  doc
    .font('Helvetica')
    .fontSize(6.5)
    .fillColor('#444444')
    .text(t(`Verifikasi / Verify: ${input.checkUrl}`), MARGIN, FOOT + 98, { width: 300 });
  image(doc, input.accreditation?.mark ?? null, MARGIN + 150, FOOT + 5, 100, 65);
  const right = A4.width - MARGIN - 180;
  image(doc, input.signature, right, FOOT, 180, 70);
  doc
    .moveTo(right, FOOT + 76)
    .lineTo(A4.width - MARGIN, FOOT + 76)
    .lineWidth(0.5)
    .strokeColor('#333333')
    .stroke();
  doc
    .fillColor('#111111')
    .font('Helvetica-Bold')
    .fontSize(10)
    .text(t(input.issuer), right, FOOT + 80, { width: 180, align: 'center' });
  if (input.issuerAddress) {
    const address = t(input.issuerAddress);
    const room = A4.height - 46 - (doc.y + 1);
    let size = 7.5;
    doc.font('Helvetica');
    while (size > 5.5 && doc.fontSize(size).heightOfString(address, { width: 180 }) > room) size -= 0.5;
    doc
      .fontSize(size)
      .text(address, right, doc.y + 1, { width: 180, align: 'center', height: room, ellipsis: true });
  }
}

/** The annex ('Lampiran'): every covered site, as many pages as they take. */
function annexPages(doc: Doc, input: CertificatePdfInput) {
  const start = (continued: boolean) => {
    doc.addPage();
    frame(doc);
    doc.y = 50;
    centered(doc, continued ? 'LAMPIRAN (lanjutan)' : 'LAMPIRAN', 'Helvetica-Bold', 18, 0);
    centered(doc, continued ? 'ANNEX (continued)' : 'ANNEX', 'Helvetica-Oblique', 10, 4);
    centered(
      doc,
      `Sertifikat No. / Certificate No. ${input.certNumber} - Revisi ${input.revision}`,
      'Helvetica',
      9.5,
      2,
    );
    centered(doc, input.client, 'Helvetica-Bold', 11, 4);
    centered(doc, 'Lokasi yang tercakup / Covered sites', 'Helvetica-Bold', 10, 8);
    return doc.y;
  };
  let y = start(false);
  const pageRoom = ANNEX_BOTTOM - y;
  for (const [i, site] of input.sites.entries()) {
    const lines = siteLines(site, i + 1);
    let size = 9.5;
    while (size > 6 && siteHeight(doc, lines, size, CONTENT) > pageRoom) size -= 0.5;
    if (y + siteHeight(doc, lines, size, CONTENT) > ANNEX_BOTTOM) y = start(true);
    y = drawSite(doc, lines, MARGIN, y, CONTENT, size);
    doc
      .moveTo(MARGIN, y - 2)
      .lineTo(A4.width - MARGIN, y - 2)
      .lineWidth(0.3)
      .strokeColor('#999999')
      .stroke();
    y += 3;
  }
}

/**
 * The certificate as an A4 PDF (docs/rules.md#what-the-certificate-shows): the first page, an annex when the
 * covered sites do not fit on it, and `Halaman n dari m` on every page when there is more than one.
 * Standard Helvetica (WinAnsi, text passed through pdfSafeText).
 */
export function certificatePdf(input: CertificatePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    // The layout places everything itself; the low bottom margin only keeps pdfkit from adding pages.
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 },
    bufferPages: true,
    info: {
      Title: t(`Certificate ${input.certNumber}`),
      Author: t(input.issuer),
      Subject: t(`${input.standard} - ${input.client}`),
      CreationDate: input.createdAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (firstPage(doc, input)) annexPages(doc, input);
  const { start, count } = doc.bufferedPageRange();
  if (count > 1) {
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      doc
        .font('Helvetica')
        .fontSize(7)
        .fillColor('#444444')
        .text(
          `Halaman ${i + 1} dari ${count} / Page ${i + 1} of ${count}`,
          A4.width / 2 - 75,
          A4.height - 44,
          {
            width: 150,
            align: 'center',
          },
        );
    }
  }
  doc.end();
  return done;
}
