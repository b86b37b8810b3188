import QRCode from 'qrcode';

/** The two public check pages a QR code can point at (DECISIONS.md section 5). */
export type CheckKind = 'company' | 'training';

const CHECK_PATHS: Record<CheckKind, string> = {
  company: '/check-certification-company',
  training: '/check-certification-training',
};

/**
 * The public page that verifies a certificate number: `PUBLIC_BASE_URL/check-certification-company
 * ?cert=<number>` (training: `/check-certification-training`). `baseUrl` is the config's
 * `publicBaseUrl`; a trailing slash is ignored.
 */
export function publicCheckUrl(baseUrl: string, kind: CheckKind, number: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${CHECK_PATHS[kind]}?cert=${encodeURIComponent(number)}`;
}

/** Side of the QR image in pixels: sharp enough to print, small enough to store (about 2 KB). */
export const QR_SIZE = 300;

/**
 * A QR code of `text` as a PNG, base64 without a `data:` prefix (what `qrcode` fields hold).
 * Error correction M (15%): survives a smudged print at a module size that still scans from a phone.
 */
export async function qrPngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    width: QR_SIZE,
    margin: 2,
  });
  return png.toString('base64');
}
