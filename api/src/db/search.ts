import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, index } from 'drizzle-orm/pg-core';

/**
 * The text a list search looks in: its visible columns, lower-cased and joined by a newline (which
 * a search box cannot type, so a term never matches across two columns). One trigram index over
 * this exact expression serves the whole search; queries must build it the same way.
 */
export function searchDocument(columns: AnyPgColumn[]): SQL {
  return sql`lower(${sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql.raw(` || E'\\n' || `),
  )})`;
}

/** A GIN trigram index on searchDocument(columns). */
export const searchIndex = (name: string, columns: AnyPgColumn[]) =>
  index(name).using('gin', sql`${searchDocument(columns)} gin_trgm_ops`);
