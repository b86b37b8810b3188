/**
 * Reads of stored uploads by their name: the ETag alone (a conditional request never reads the
 * bytes), the file to send, and the bytes a certificate PDF draws.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db';
import { prepared } from '../../db/prepared';
import { images } from '../../db/schema';

/** The stored ETag of an image, or undefined when there is none of that name. */
export async function imageEtag(db: Executor, name: string): Promise<string | undefined> {
  const [row] = await db.select({ etag: images.etag }).from(images).where(eq(images.name, name)).limit(1);
  return row?.etag;
}

/** An image as it is sent: its type, ETag and bytes; undefined when there is none of that name. */
export async function imageFile(
  db: Executor,
  name: string,
): Promise<{ content_type: string; etag: string; data: Buffer } | undefined> {
  const [row] = await db
    .select({ content_type: images.content_type, etag: images.etag, data: images.data })
    .from(images)
    .where(eq(images.name, name))
    .limit(1);
  return row;
}

const imageByName = prepared('images.data', ['name'], (db, p, name) =>
  db.select({ data: images.data }).from(images).where(eq(images.name, p.name)).limit(1).prepare(name),
);

/** The bytes of a stored image by its name, or null (no name, or removed). */
export async function imageData(db: Executor, name: string | null): Promise<Buffer | null> {
  if (!name) return null;
  const [row] = await imageByName(db, { name });
  return row?.data ?? null;
}
