import { sql, type AnyColumn, type SQL } from 'drizzle-orm'

/** Longest `q` accepted by the list endpoints. */
export const MAX_QUERY_LENGTH = 200
const MAX_WORDS = 12

/** Lower-case, accent-free words of a search text (letters and digits only). */
export function searchWords(q: string): string[] {
  const folded = q
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS)
}

/**
 * Full text with the `indonesian` configuration, every word as a prefix (so "konse" finds
 * "konser"), OR'd with a trigram word-similarity match on the title text so small typos
 * ("jaz gunung") still match. Accents are ignored on both sides. Null when `q` has no words.
 */
export function textSearch(vector: AnyColumn, text: AnyColumn, q: string): SQL | null {
  const words = searchWords(q)
  if (!words.length) return null
  // words hold only letters and digits, so they cannot break the tsquery syntax
  const tsquery = words.map((w) => `${w}:*`).join(' & ')
  const phrase = words.join(' ')
  return sql`(${vector} @@ to_tsquery('indonesian', ${tsquery}) or ${phrase} <% ${text})`
}
