import { createHash } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { images } from '../db/schema';
import { AppError, invalid } from '../lib/errors';
import { newId } from '../lib/crypto';
import type { Semaphore } from '../lib/semaphore';

export interface PreparedImage {
  id: string;
  name: string;
  content_type: 'image/jpeg' | 'image/png';
  data: Buffer;
  /** sha256 of `data`, hex: the image's ETag. */
  etag: string;
  width: number;
  height: number;
}

/** JPEG or PNG by their first bytes; nothing else is an image here (no SVG, ever). */
export function sniffImageType(data: Buffer): 'jpeg' | 'png' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length >= 8 && png.every((b, i) => data[i] === b)) return 'png';
  return null;
}

/**
 * sharp and argon2 share libuv's thread pool (4 threads by default). Image work runs at most
 * `work.limit` jobs at a time, `work` being the app's limit (`app.imageWork`, IMAGE_CONCURRENCY,
 * default 1; app-instance state, made in app.ts), and each job uses one libvips thread, so uploads
 * never hold every pool thread and sign-ins, lists and everything else still run beside them
 * (docs/rules.md#uploads; bench/README.md "Uploads beside sign-in").
 */
sharp.concurrency(1);

/** The stored ETag: a content hash computed once, at upload (served quoted by /images/<name>). */
export const imageEtag = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

type Encoder = (pipeline: Sharp) => Sharp;

/**
 * The longest side an image is stored with. Uploads may be up to 4096 x 4096 (docs/rules.md#uploads)
 * and are accepted as such; what is stored is scaled down to fit STORED_MAX_SIDE x STORED_MAX_SIDE,
 * keeping its proportions (never enlarged). Logos and signatures are drawn at most 180 x 70 pt on the
 * certificate PDF (750 x 290 pixels at 300 dpi) and under 200 CSS pixels on screens, so 2048 still
 * serves 600 dpi print and 3x screens, while a 4096-pixel upload is stored (and re-encoded, and put
 * into every PDF) with a quarter of its pixels. docs/api.md#calls says so.
 */
export const STORED_MAX_SIDE = 2048;
/** Each further step down in pixel size keeps this share of the longest side (about half the pixels). */
const SHRINK_STEP = 0.7;

/**
 * Encodings to try, best first (see `reencode` for which is kept).
 * JPEG: quality steps down from 90, chroma subsampled like the source (a 4:2:0 source re-encoded
 * 4:4:4 doubles its colour data); libjpeg-turbo, not mozjpeg, which costs five times the CPU for
 * about 15% fewer bytes.
 * PNG: lossless first (as a palette when the source was one, whose colours it keeps exactly); a
 * quantised 256-colour palette is the last resort.
 */
function encoders(type: 'jpeg' | 'png', meta: Metadata): Encoder[] {
  if (type === 'jpeg') {
    const chromaSubsampling = meta.chromaSubsampling === '4:4:4' ? '4:4:4' : '4:2:0';
    return [90, 80, 70, 60, 50, 40, 30].map(
      (quality) => (p: Sharp) => p.jpeg({ quality, chromaSubsampling, optimiseCoding: true }),
    );
  }
  const truecolour: Encoder = (p) => p.png({ compressionLevel: 9, adaptiveFiltering: true });
  const exactPalette: Encoder = (p) =>
    p.png({ compressionLevel: 9, palette: true, quality: 100, dither: 0, effort: 10 });
  const quantised: Encoder = (p) =>
    p.png({ compressionLevel: 9, palette: true, quality: 90, colours: 256, dither: 1, effort: 10 });
  return meta.isPalette ? [exactPalette, truecolour, quantised] : [truecolour, quantised];
}

/**
 * Checks an upload and re-encodes it in its own format (docs/rules.md#uploads): drops metadata and
 * anything appended, and does not grow it (see `encoders`). Throws 413 past 2 MiB, 422 for
 * anything that is not a sane JPEG or PNG. Runs under `work`, the app's image work limit.
 */
export async function prepareImage(
  data: Buffer,
  label: string,
  field: string,
  work: Semaphore,
): Promise<PreparedImage> {
  if (data.length > IMAGE_MAX_BYTES) {
    throw new AppError(413, 'too-large', `${label} maksimal 2 MB`, { [field]: `${label} maksimal 2 MB` });
  }
  const type = sniffImageType(data);
  if (!type) throw invalid({ [field]: `${label} harus berupa gambar JPEG atau PNG` });
  const out = await work.run(() => reencode(data, type, label, field));
  const id = newId();
  return {
    id,
    name: `${id}.${type === 'png' ? 'png' : 'jpg'}`,
    content_type: type === 'png' ? 'image/png' : 'image/jpeg',
    data: out.data,
    etag: imageEtag(out.data),
    width: out.info.width,
    height: out.info.height,
  };
}

/**
 * Re-encodes an accepted upload so that what is stored is at most STORED_MAX_SIDE on its longest
 * side and never past 2 MiB; an image within the limits is never refused for its size.
 * At the stored size, the first encoding (see `encoders`) no larger than the upload is kept, so
 * re-encoding does not grow it. When none is (tiny images, whose headers outweigh their pixels, or
 * noisy ones already at a low quality), the smallest is kept if it is within 2 MiB; when even that
 * is past 2 MiB, the pixel size steps down (SHRINK_STEP) and the encodings are tried again.
 */
async function reencode(
  data: Buffer,
  type: 'jpeg' | 'png',
  label: string,
  field: string,
): Promise<{ data: Buffer; info: OutputInfo }> {
  const unreadable = () => invalid({ [field]: `${label} rusak atau tidak dapat dibaca` });
  let meta: Metadata;
  try {
    // Only the header is read here, so no pixel limit: an image past it gets the size message below
    // rather than "unreadable". The decode further down keeps the limit.
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  if (!meta.width || !meta.height) throw unreadable();
  if (meta.width > IMAGE_MAX_SIDE || meta.height > IMAGE_MAX_SIDE) {
    throw invalid({ [field]: `${label} maksimal ${IMAGE_MAX_SIDE} x ${IMAGE_MAX_SIDE} piksel` });
  }
  const longest = Math.max(meta.width, meta.height);
  for (let side = Math.min(longest, STORED_MAX_SIDE); side >= 1; side = Math.floor(side * SHRINK_STEP)) {
    let smallest: { data: Buffer; info: OutputInfo } | undefined;
    for (const encode of encoders(type, meta)) {
      let out: { data: Buffer; info: OutputInfo };
      try {
        let pipeline = sharp(data, { limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE, failOn: 'error' });
        pipeline = pipeline.rotate(); // upright by its EXIF orientation, before the EXIF goes
        if (side < longest) pipeline = pipeline.resize(side, side, { fit: 'inside' });
        out = await encode(pipeline).toBuffer({ resolveWithObject: true });
      } catch {
        throw unreadable();
      }
      if (out.data.length <= data.length) return out;
      if (!smallest || out.data.length < smallest.data.length) smallest = out;
    }
    if (smallest && smallest.data.length <= IMAGE_MAX_BYTES) return smallest;
  }
  // Unreachable: a 1-pixel image is a few hundred bytes in either format.
  throw new Error(`re-encoding a ${meta.width} x ${meta.height} ${type} did not fit in 2 MiB`);
}

export async function insertImage(tx: Executor, image: PreparedImage): Promise<string> {
  await tx.insert(images).values({ ...image, size: image.data.length });
  return image.name;
}

export async function deleteImages(tx: Executor, names: (string | null | undefined)[]): Promise<void> {
  const list = names.filter((n): n is string => !!n);
  if (list.length) await tx.delete(images).where(inArray(images.name, list));
}

type Uploads<F extends string> = Partial<Record<F, PreparedImage>>;

/**
 * Checks and re-encodes every `<field>_file` upload of a body before any write, so a bad file refuses
 * the whole request with nothing stored. `work` is the app's image work limit (`app.imageWork`).
 */
export async function prepareUploads<F extends string>(
  body: Record<string, unknown>,
  labels: Record<F, string>,
  work: Semaphore,
): Promise<Uploads<F>> {
  const uploads: Uploads<F> = {};
  for (const field of Object.keys(labels) as F[]) {
    const file = body[`${field}_file`];
    if (file === undefined || file === null) continue;
    if (!Buffer.isBuffer(file))
      throw invalid({ [`${field}_file`]: `${labels[field]} harus berupa file gambar` });
    if (file.length === 0) continue;
    uploads[field] = await prepareImage(file, labels[field], `${field}_file`, work);
  }
  return uploads;
}

/**
 * Applies the image fields of a create or update inside its transaction (docs/rules.md#api-conventions): a
 * new upload replaces the image; `<field>` absent or unchanged keeps it; empty removes it. Replaced
 * and removed images are deleted with the change. Returns the column values to write.
 */
export async function applyImageFields<F extends string>(
  tx: Executor,
  labels: Record<F, string>,
  body: Record<string, unknown>,
  uploads: Uploads<F>,
  current: Partial<Record<F, string | null>>,
): Promise<Record<F, string | null>> {
  const values = {} as Record<F, string | null>;
  const drop: (string | null | undefined)[] = [];
  for (const field of Object.keys(labels) as F[]) {
    const now = current[field] ?? null;
    const upload = uploads[field];
    const sent = body[field] as string | undefined;
    if (upload) {
      values[field] = await insertImage(tx, upload);
      drop.push(now);
    } else if (sent === undefined || sent === now) {
      values[field] = now;
    } else if (sent === '') {
      values[field] = null;
      drop.push(now);
    } else {
      throw invalid({ [field]: `${labels[field]} tidak dikenal: unggah file baru atau kosongkan` });
    }
  }
  await deleteImages(tx, drop);
  return values;
}
