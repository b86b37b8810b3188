import { promisify } from 'node:util';
import zlib from 'node:zlib';
import QRCode from 'qrcode';
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

/** One PNG chunk: length, type, data and the CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes of one image row: 1 bit a pixel (1 = light), after the row's filter byte. */
const ROW_BYTES = Math.ceil(QR_SIZE / 8);
const deflate = promisify(zlib.deflate);

/**
 * A QR code of `text` as a PNG, base64 without a `data:` prefix (what `qrcode` fields hold).
 * Error correction M (15%): survives a smudged print at a module size that still scans from a phone.
 * `qrcode` makes the symbol; the image is written here as a 1-bit greyscale PNG, its rows packed
 * directly and compressed by zlib off the event loop: qrcode's own PNG writer (pngjs, JavaScript)
 * blocks the event loop for tens of milliseconds per code, and a general image encoder spends most
 * of its time on what a two-colour image does not need (bulk writers such as the demo make
 * hundreds of thousands).
 */
export async function qrPngBase64(text: string): Promise<string> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size + QR_MARGIN * 2;
  const stride = ROW_BYTES + 1;
  // Filter byte 0 (none) and every pixel light, then the dark modules cleared.
  const raw = Buffer.alloc(stride * QR_SIZE, 0xff);
  const darkRow = Buffer.alloc(ROW_BYTES);
  let drawnRow = -1;
  for (let y = 0; y < QR_SIZE; y++) {
    const offset = y * stride;
    raw[offset] = 0;
    const row = Math.floor((y * count) / QR_SIZE) - QR_MARGIN;
    if (row < 0 || row >= modules.size) continue;
    if (row !== drawnRow) {
      darkRow.fill(0xff);
      for (let x = 0; x < QR_SIZE; x++) {
        const col = Math.floor((x * count) / QR_SIZE) - QR_MARGIN;
        if (col >= 0 && col < modules.size && modules.get(row, col)) darkRow[x >> 3]! &= ~(0x80 >> (x & 7));
      }
      drawnRow = row;
    }
    darkRow.copy(raw, offset + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(QR_SIZE, 0);
  header.writeUInt32BE(QR_SIZE, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const png = Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', await deflate(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}
