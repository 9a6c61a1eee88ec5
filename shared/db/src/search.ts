import { sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { Database } from './client'

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

/** How similar (pg_trgm similarity) a dictionary word must be to stand in for a query word. */
const TYPO_SIMILARITY = 0.45
/** At most this many dictionary words stand in for one query word. */
const TYPO_EXPANSIONS = 3

/**
 * The tsquery text for an event search: every query word as a prefix, OR'd with its synonyms
 * (search_synonyms: "jogja" also asks for "yogyakarta") and with the dictionary words
 * (search_words: distinct words of titles, organizers, venues, cities, categories and tags) most
 * similar to it, so a small typo ("merdka", "gunng") still finds "merdeka", "gunung". One small indexed query over the
 * dictionary, never over the events; the events are then found through the full-text GIN index
 * alone, so the cost does not grow with the number of events that merely share a trigram. Words
 * hold only letters and digits, so they cannot break the tsquery syntax. Null when `q` has no
 * words.
 */
export async function eventSearchQuery(
  database: Database,
  q: string,
  expand: WordExpander = (words) => searchExpansions(database, words),
): Promise<string | null> {
  const words = searchWords(q)
  if (!words.length) return null
  const expansions = await expand(words)
  return words.map((w) => `(${[w, ...(expansions.get(w) ?? [])].map((x) => `${x}:*`).join(' | ')})`).join(' & ')
}

/** The stand-ins (typo neighbours, synonyms) of each of `words`, however they are found. */
export type WordExpander = (words: string[]) => Promise<Map<string, string[]>>

/**
 * The stand-ins of each word, read from the dictionary and the synonyms in one round trip: the
 * dictionary words most similar to it (typos, words of 3+ letters) and its synonyms.
 */
export async function searchExpansions(database: Database, words: string[]): Promise<Map<string, string[]>> {
  const list = words.join(' ')
  const rows = await database.rows<{ w: string; word: string }>(sql`
    select q.w, s.word from unnest(string_to_array(${list}, ' ')) as q(w)
    cross join lateral (
      select word from search_words
      where length(q.w) >= 3 and word % q.w and word <> q.w and similarity(word, q.w) >= ${TYPO_SIMILARITY}
      order by similarity(word, q.w) desc, word limit ${TYPO_EXPANSIONS}
    ) s
    union all
    select q.w, other.term from unnest(string_to_array(${list}, ' ')) as q(w)
    join search_synonyms own on own.term = q.w
    join search_synonyms other on other.group_name = own.group_name and other.term <> q.w`)
  const expansions = new Map<string, string[]>(words.map((w) => [w, []]))
  for (const { w, word } of rows) {
    // synonyms are data: only single words of letters and digits may enter the tsquery
    const own = expansions.get(w)!
    for (const part of searchWords(word)) if (part !== w && !own.includes(part)) own.push(part)
  }
  return expansions
}

/**
 * Full-text match of an event search (see eventSearchQuery), read from the narrow copy in
 * `event_search` (migration 0021): the planner probes it by id while walking an order index
 * (a common word), or starts from its GIN index (a rare one).
 */
export function eventSearchMatch(eventId: AnyColumn, tsquery: string): SQL {
  return sql`exists (select 1 from event_search s where s.event_id = ${eventId} and s.lexemes @@ to_tsquery('indonesian', ${tsquery}))`
}

/** The tsquery of a search without typo expansion (prefix words only). */
export function prefixSearchQuery(q: string): string | null {
  const words = searchWords(q)
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null
}
