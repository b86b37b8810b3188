import { api } from './store';

export interface DownloadOptions {
  /** Query parameters, e.g. a report's filters and `type: 'export'`. */
  searchParams?: Record<string, string | number | boolean> | URLSearchParams;
  /** The file's name when the answer's Content-Disposition names none. */
  filename?: string;
  /**
   * Called as bytes arrive: received so far, and the total when the answer says it (absent for a
   * compressed or streamed answer).
   */
  onProgress?: (received: number, total?: number) => void;
  /** Cancels the download (the promise rejects with an AbortError, which notifyApiError ignores). */
  signal?: AbortSignal;
}

export interface DownloadResult {
  /** The name the file was saved under. */
  filename: string;
  /** Bytes saved. */
  size: number;
}

/** How long a download may wait for the answer to start (exports can take a while). */
const DOWNLOAD_TIMEOUT_MS = 120_000;
/** How long the saved file's object URL lives (the browser has taken the file by then). */
const REVOKE_AFTER_MS = 10_000;

/** A name safe to save under: no folders, no control characters; null when nothing is left. */
function safeName(name: string): string | null {
  const cleaned = [...name.replace(/[/\\]/g, '_')]
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : null;
}

function decodeExtValue(value: string): string | null {
  // RFC 5987: charset'language'percent-encoded
  const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
  if (!match) return null;
  const [, charset = '', encoded = ''] = match;
  try {
    if (/^iso-8859-1$/i.test(charset)) {
      return encoded.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/**
 * The file name of a Content-Disposition header: `filename*` (RFC 6266/5987, UTF-8) first, then
 * `filename` (quoted or not); path separators become '_'. Null when it names none.
 */
export function filenameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /(?:^|;)\s*filename\*\s*=\s*("?)([^";]*)\1/i.exec(header);
  if (star?.[2]) {
    const decoded = decodeExtValue(star[2].trim());
    const name = decoded === null ? null : safeName(decoded);
    if (name) return name;
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:\\.|[^"\\])*)"|([^;]*))/i.exec(header);
  const value = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]?.trim() ?? '') : '';
  return value ? safeName(value) : null;
}

/** Saves a blob as a file, the way a link with `download` does. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/**
 * Saves a base64 PNG (a QR code as the API answers it, with or without the `data:image/png;base64,`
 * prefix) as `qrcode-<name>.png` (slashes in the name become '_'). Returns the file name.
 */
export function saveBase64Png(base64: string, name: string): string {
  const data = base64.replace(/^data:[^,]*,/, '').replace(/\s/g, '');
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const filename = `qrcode-${safeName(name) ?? 'download'}.png`;
  saveBlob(new Blob([bytes], { type: 'image/png' }), filename);
  return filename;
}

/**
 * Downloads a file from the API with the signed-in user's token (a PDF, an Excel export) and saves
 * it: GET `<path>` (without '/api'), named by the answer's Content-Disposition (`filename*` first)
 * or `options.filename`, with progress reports and cancellation. A failed call rejects as any API
 * call does (use notifyApiError / readApiError).
 *
 * @example
 * const controller = new AbortController();
 * await downloadFile(`report-training-certification/${companyId}`, {
 *   searchParams: { search, type: 'export' },
 *   filename: 'export-sertifikasi-pelatihan.xlsx',
 *   onProgress: (received, total) => setProgress(total ? received / total : null),
 *   signal: controller.signal,
 * });
 */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const { searchParams, onProgress, signal } = options;
  const response = await api.get(path, {
    ...(searchParams ? { searchParams } : {}),
    ...(signal ? { signal } : {}),
    timeout: DOWNLOAD_TIMEOUT_MS,
  });
  const encoding = response.headers.get('content-encoding');
  const length = Number(response.headers.get('content-length'));
  // A compressed answer's length is not the length of what arrives decoded.
  const total = (!encoding || encoding === 'identity') && length > 0 ? length : undefined;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress?.(0, total);
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress?.(received, total);
      if (signal?.aborted) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  }
  signal?.throwIfAborted();
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ??
    safeName(options.filename ?? '') ??
    'download';
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  saveBlob(new Blob(chunks as BlobPart[], { type }), filename);
  return { filename, size: received };
}
