import { eq, inArray } from 'drizzle-orm';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { images } from '../db/schema';
import { AppError, invalid } from '../lib/errors';
import { newId } from '../lib/crypto';

export interface PreparedImage {
  id: string;
  name: string;
  content_type: 'image/jpeg' | 'image/png';
  data: Buffer;
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
 * Checks an upload and re-encodes it in its own format (DECISIONS.md section 6): drops metadata and
 * anything appended. Throws 413 past 2 MiB, 422 for anything that is not a sane JPEG or PNG.
 */
export async function prepareImage(data: Buffer, label: string, field: string): Promise<PreparedImage> {
  if (data.length > IMAGE_MAX_BYTES) {
    throw new AppError(413, 'too-large', `${label} maksimal 2 MB`, { [field]: `${label} maksimal 2 MB` });
  }
  const type = sniffImageType(data);
  if (!type) throw invalid({ [field]: `${label} harus berupa gambar JPEG atau PNG` });
  let meta: Metadata;
  try {
    // Only the header is read here, so no pixel limit: an image past it gets the size message below
    // rather than "unreadable". The decode further down keeps the limit.
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw invalid({ [field]: `${label} rusak atau tidak dapat dibaca` });
  }
  if (!meta.width || !meta.height) throw invalid({ [field]: `${label} rusak atau tidak dapat dibaca` });
  if (meta.width > IMAGE_MAX_SIDE || meta.height > IMAGE_MAX_SIDE) {
    throw invalid({ [field]: `${label} maksimal ${IMAGE_MAX_SIDE} x ${IMAGE_MAX_SIDE} piksel` });
  }
  let out: { data: Buffer; info: OutputInfo };
  try {
    const pipeline = sharp(data, {
      limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE,
      failOn: 'error',
    }).rotate();
    out =
      type === 'png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true })
        : await pipeline.jpeg({ quality: 90, mozjpeg: true }).toBuffer({ resolveWithObject: true });
  } catch {
    throw invalid({ [field]: `${label} rusak atau tidak dapat dibaca` });
  }
  const id = newId();
  return {
    id,
    name: `${id}.${type === 'png' ? 'png' : 'jpg'}`,
    content_type: type === 'png' ? 'image/png' : 'image/jpeg',
    data: out.data,
    width: out.info.width,
    height: out.info.height,
  };
}

export async function insertImage(tx: Executor, image: PreparedImage): Promise<string> {
  await tx.insert(images).values({ ...image, size: image.data.length });
  return image.name;
}

export async function deleteImages(tx: Executor, names: (string | null | undefined)[]): Promise<void> {
  const list = names.filter((n): n is string => !!n);
  if (list.length) await tx.delete(images).where(inArray(images.name, list));
}

export async function imageExists(tx: Executor, name: string): Promise<boolean> {
  const [row] = await tx.select({ id: images.id }).from(images).where(eq(images.name, name)).limit(1);
  return !!row;
}

type Uploads<F extends string> = Partial<Record<F, PreparedImage>>;

/**
 * Checks and re-encodes every `<field>_file` upload of a body before any write, so a bad file refuses
 * the whole request with nothing stored.
 */
export async function prepareUploads<F extends string>(
  body: Record<string, unknown>,
  labels: Record<F, string>,
): Promise<Uploads<F>> {
  const uploads: Uploads<F> = {};
  for (const field of Object.keys(labels) as F[]) {
    const file = body[`${field}_file`];
    if (file === undefined || file === null) continue;
    if (!Buffer.isBuffer(file))
      throw invalid({ [`${field}_file`]: `${labels[field]} harus berupa file gambar` });
    if (file.length === 0) continue;
    uploads[field] = await prepareImage(file, labels[field], `${field}_file`);
  }
  return uploads;
}

/**
 * Applies the image fields of a create or update inside its transaction (DECISIONS.md section 7): a
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
