import QRCode from 'qrcode';
import sharp from 'sharp';
import { PUBLIC_CHECK_PATHS } from '@sertifikasi/shared-contracts/public';

/** The two public check pages a QR code can point at (docs/rules.md#public-check). */
export type CheckKind = keyof typeof PUBLIC_CHECK_PATHS;

/**
 * The public page that verifies a certificate number: `PUBLIC_BASE_URL/check-certification-company
 * ?cert=<number>` (training: `/check-certification-training`). `baseUrl` is the config's
 * `publicBaseUrl`; a trailing slash is ignored.
 */
export function publicCheckUrl(baseUrl: string, kind: CheckKind, number: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${PUBLIC_CHECK_PATHS[kind]}?cert=${encodeURIComponent(number)}`;
}

/** Side of the QR image in pixels: sharp enough to print, small enough to store (about 2 KB). */
export const QR_SIZE = 300;
/** Quiet zone around the symbol, in modules (the standard asks for 4). */
export const QR_MARGIN = 4;

/**
 * A QR code of `text` as a PNG, base64 without a `data:` prefix (what `qrcode` fields hold).
 * Error correction M (15%): survives a smudged print at a module size that still scans from a phone.
 * `qrcode` makes the symbol; the pixels are drawn here and sharp (libvips, off the event loop)
 * encodes the PNG: qrcode's own PNG writer (pngjs, JavaScript) blocks the event loop for tens of
 * milliseconds per code.
 */
export async function qrPngBase64(text: string): Promise<string> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size + QR_MARGIN * 2;
  const pixels = Buffer.alloc(QR_SIZE * QR_SIZE, 255);
  for (let y = 0; y < QR_SIZE; y++) {
    const row = Math.floor((y * count) / QR_SIZE) - QR_MARGIN;
    if (row < 0 || row >= modules.size) continue;
    for (let x = 0; x < QR_SIZE; x++) {
      const col = Math.floor((x * count) / QR_SIZE) - QR_MARGIN;
      if (col >= 0 && col < modules.size && modules.get(row, col)) pixels[y * QR_SIZE + x] = 0;
    }
  }
  const png = await sharp(pixels, { raw: { width: QR_SIZE, height: QR_SIZE, channels: 1 } })
    .png({ compressionLevel: 9, palette: true, colours: 2, dither: 0 })
    .toBuffer();
  return png.toString('base64');
}
