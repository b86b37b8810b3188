/**
 * Pictures of the demo data set, drawn as SVG and turned into PNG with sharp, then stored the way an
 * upload is: checked and re-encoded by prepareImage and written by insertImage (the `images` table,
 * served at /images/<name>).
 */
import sharp from 'sharp';
import type { Semaphore } from '../lib/semaphore';
import { type PreparedImage, prepareImage } from '../services/images';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

/** A square logo: initials on a coloured tile. */
export function logoSvg(initials: string, colour: string, shape: 'tile' | 'circle' = 'tile'): string {
  const size = initials.length > 3 ? 64 : initials.length === 3 ? 80 : 104;
  const back =
    shape === 'circle'
      ? `<circle cx="128" cy="128" r="120" fill="${colour}"/>`
      : `<rect x="8" y="8" width="240" height="240" rx="44" fill="${colour}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">${back}` +
    `<path d="M40 196 Q128 236 216 196" stroke="#ffffff" stroke-opacity="0.5" stroke-width="8" fill="none"/>` +
    `<text x="128" y="${128 + size * 0.36}" font-family="${FONT}" font-size="${size}" font-weight="bold" ` +
    `fill="#ffffff" text-anchor="middle">${escape(initials)}</text></svg>`
  );
}

/** The wide logo printed on certificates: initials and the full name. */
export function certificateLogoSvg(initials: string, name: string, colour: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="200">` +
    `<rect x="10" y="20" width="160" height="160" rx="30" fill="${colour}"/>` +
    `<text x="90" y="122" font-family="${FONT}" font-size="56" font-weight="bold" fill="#fff" text-anchor="middle">${escape(initials)}</text>` +
    `<text x="195" y="95" font-family="${FONT}" font-size="34" font-weight="bold" fill="${colour}">${escape(name)}</text>` +
    `<text x="195" y="140" font-family="${FONT}" font-size="24" fill="#555">Lembaga Sertifikasi Sistem Manajemen</text></svg>`
  );
}

/** A handwritten-looking signature over a name, for ttd_cert. */
export function signatureSvg(name: string, colour = '#1a237e'): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="200">` +
    `<path d="M30 120 C 60 30, 90 170, 120 90 S 170 40, 190 110 S 250 150, 270 80 S 330 60, 350 120 ` +
    `C 370 160, 420 90, 450 100" stroke="${colour}" stroke-width="5" fill="none" stroke-linecap="round"/>` +
    `<line x1="40" y1="160" x2="440" y2="160" stroke="#333" stroke-width="2"/>` +
    `<text x="240" y="190" font-family="${FONT}" font-size="22" fill="#222" text-anchor="middle">${escape(name)}</text></svg>`
  );
}

/** A badge icon: a label inside a ring (standards and accreditation bodies). */
export function badgeSvg(label: string, colour: string): string {
  const size = label.length > 5 ? 40 : label.length > 4 ? 48 : label.length > 3 ? 58 : 70;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">` +
    `<circle cx="128" cy="128" r="118" fill="#ffffff" stroke="${colour}" stroke-width="16"/>` +
    `<circle cx="128" cy="128" r="92" fill="${colour}"/>` +
    `<text x="128" y="${128 + size * 0.36}" font-family="${FONT}" font-size="${size}" font-weight="bold" ` +
    `fill="#ffffff" text-anchor="middle">${escape(label)}</text></svg>`
  );
}

export const pngOf = (svg: string): Promise<Buffer> => sharp(Buffer.from(svg)).png().toBuffer();

/**
 * Draws one picture, checked and re-encoded under the run's image work limit as an upload is
 * (services/images.ts): what a service's write stores with the record.
 */
export async function preparedSvg(svg: string, label: string, work: Semaphore): Promise<PreparedImage> {
  return prepareImage(await pngOf(svg), label, 'demo', work);
}

/** Initials of a name, skipping legal forms and short words: "PT Sinar Jaya Abadi" -> "SJA". */
export function initialsOf(name: string, max = 3): string {
  const skip = new Set(['pt', 'cv', 'tbk', 'koperasi', 'yayasan', 'dan', '&']);
  const letters = name
    .split(/\s+/)
    .filter((w) => w && !skip.has(w.toLowerCase()))
    .map((w) => w[0]!.toUpperCase());
  return letters.slice(0, max).join('') || '?';
}
