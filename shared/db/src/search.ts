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
 * What a search by `q` matches, as a cache key: its words (searchWords), each once, in one order.
 * Every word is a prefix in an AND, so "Jazz  Gunung!" and "gunung jazz" match the same events
 * in every order but relevance (whose rank sums per term); `q` itself when it holds no word.
 */
export function searchKey(q: string): string {
  const words = searchWords(q)
  return words.length ? [...new Set(words)].sort().join(' ') : q
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
 * An event search: `tsquery`, the text for `to_tsquery('indonesian', ...)`: every query word as a
 * prefix, OR'd with its synonyms (search_synonyms: "jogja" also asks for "yogyakarta") and with the
 * dictionary words (search_words: distinct words of titles, organizers, venues, cities,
 * categories and tags) most similar to it, so a small typo ("merdka", "gunng") still finds
 * "merdeka", "gunung"; and `match`, the same query as a normalised tsquery (`::tsquery`) whose
 * prefixes are the exact lexemes they stand for (see wordTerms), which the GIN index finds from
 * posting lists rather than by a partial match. The events are found through the full-text index
 * alone, so the cost does not grow with the number of events that merely share a trigram. The
 * relevance rank keeps `tsquery`: ts_rank weighs a prefix as one operand.
 */
export interface EventSearch {
  tsquery: string
  match: string
  /** The change keys the search's answer depends on (see WordTerms.keys). */
  keys: string[]
  /**
   * At least this many rows of the search copy match (0: not known). A search of one word
   * matches at least the rows holding its most common lexeme; of more words, no bound is known.
   */
  matchesAtLeast: number
}

/** What the query needs of one word: its stand-ins and its part of `match` (null: a stop word). */
export interface WordTerms {
  standIns: string[]
  match: string | null
  /**
   * The change keys (migration 0029) that hold both this word's terms and the events they match:
   * `w:` + the first 3 letters of each lexeme of the word and its stand-ins, `tri:` + enough of the
   * word's trigrams that a new dictionary word that could stand in for it shares one
   * (standInTrigrams); `list:all` for a term of 1-2 letters, whose lexemes no fixed key names.
   */
  keys: string[]
  /**
   * How many rows of the search copy hold the most common of the exact lexemes in `match`
   * (search_lexemes.events): the word matches at least that many. The keys above hold it too:
   * the count of a lexeme changes only through a row holding it, which announces its key.
   */
  matchesAtLeast: number
}

/** The terms of each of `words`, however they are found (the route keeps them in its cache). */
export type WordExpander = (words: string[]) => Promise<Map<string, WordTerms>>

/** Null when `q` has no words. Words hold only letters and digits: they cannot break the syntax. */
export async function eventSearchQuery(
  database: Database,
  q: string,
  expand: WordExpander = (words) => wordTerms(database, words),
): Promise<EventSearch | null> {
  const words = searchWords(q)
  if (!words.length) return null
  const terms = await expand(words)
  const tsquery = words.map((w) => `(${[w, ...(terms.get(w)?.standIns ?? [])].map((x) => `${x}:*`).join(' | ')})`).join(' & ')
  // a stop word drops out, as to_tsquery drops it; none left: an empty query, which matches nothing
  const match = words
    .map((w) => terms.get(w)?.match)
    .filter(Boolean)
    .map((m) => `(${m})`)
    .join(' & ')
  const keys = [...new Set(words.flatMap((w) => terms.get(w)?.keys ?? ['list:all']))]
  // the words' parts are AND'ed: only a single part's rows are a lower bound of the matches
  const parts = words.filter((w) => terms.get(w)?.match)
  const matchesAtLeast = parts.length === 1 ? terms.get(parts[0])!.matchesAtLeast : 0
  return { tsquery, match, keys: keys.includes('list:all') ? ['list:all'] : keys, matchesAtLeast }
}

/**
 * Enough of a word's trigrams that every word similar enough to stand in for it shares one: a
 * stand-in shares at least TYPO_SIMILARITY of the union of both words' trigrams, so at least 0.45
 * of this word's n trigrams, and leaving out fewer than that always keeps one (a margin of 0.05
 * for pg_trgm's float4 arithmetic). The ones left out are those padded with spaces, the start and
 * end of a word, which many words share.
 */
function standInTrigrams(trigrams: string[]): string[] {
  const padding = (t: string) => t.split(' ').length - 1
  const byRarity = [...trigrams].sort((a, b) => padding(a) - padding(b))
  return byRarity.slice(0, trigrams.length - Math.floor(trigrams.length * (TYPO_SIMILARITY - 0.05)))
}

/** The operands (lexemes or prefixes) of a tsquery as PostgreSQL writes it: `'a' & 'b':*`. */
function operands(tsquery: string): string[] {
  return [...tsquery.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"))
}

/** The key of the events holding a lexeme an operand matches (its first 3 letters, as SQL's left()). */
function lexemeKey(operand: string): string {
  const letters = Array.from(operand)
  return letters.length >= 3 ? `w:${letters.slice(0, 3).join('')}` : 'list:all'
}

/** A prefix that stands for more lexemes than this stays a prefix (a partial match). */
const MAX_PREFIX_LEXEMES = 16

/** A lexeme as a tsquery operand: quoted, its quotes and backslashes escaped. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`

/**
 * Each word's stand-ins (searchExpansions) and its part of the normalised query: the word and each
 * stand-in as PostgreSQL normalises a prefix of it, a single-lexeme prefix replaced by the lexemes
 * of the search copy it matches (search_lexemes, migration 0027) when there are at most
 * MAX_PREFIX_LEXEMES of them. Two round trips, the second one range read of a primary key per term.
 */
export async function wordTerms(database: Database, words: string[]): Promise<Map<string, WordTerms>> {
  // the terms enter as `(select $n::text)`: given the text itself, PostgreSQL counted the terms,
  // found a plan for that count cheaper than its generic one and planned the statement again on
  // every search (0.24 ms of planning for 0.13 ms of work; pg_stat_statements.track_planning under
  // the bench's search scenario); through a subquery it keeps the generic plan after five runs
  // (0.19 ms in all)
  const expansions = await searchExpansions(database, words)
  const terms = [...new Set(words.flatMap((w) => [w, ...(expansions.get(w) ?? [])]))]
  const rows = await database.rows<{
    term: string
    normalised: string
    lexemes: string[] | null
    most: number | null
    trigrams: string[]
  }>(sql`
    select t.term, n.q as normalised, show_trgm(t.term) as trigrams, l.lexemes, l.most
    from unnest(string_to_array((select ${terms.join(' ')}::text), ' ')) as t(term)
    cross join lateral (select to_tsquery('indonesian', t.term || ':*')::text as q) n
    cross join lateral (select substring(n.q from '^''([^'']+)'':[*]$') as stem) p
    left join lateral (
      select coalesce(array_agg(r.lexeme order by r.lexeme), '{}') as lexemes, max(r.events) as most from (
        select l.lexeme, l.events from search_lexemes l
        where l.lexeme >= p.stem collate "C" and l.lexeme < (p.stem || chr(1114111)) collate "C"
        order by l.lexeme limit ${MAX_PREFIX_LEXEMES + 1}
      ) r
    ) l on p.stem is not null and strpos(p.stem, chr(92)) = 0`)
  /** a term's part: null for a stop word (dropped, as to_tsquery drops it), '' for a prefix no lexeme has */
  const partOf = new Map<string, { part: string | null; normalised: string; trigrams: string[]; most: number }>()
  for (const { term, normalised, lexemes, most, trigrams } of rows) {
    if (!normalised) partOf.set(term, { part: null, normalised, trigrams, most: 0 })
    else if (lexemes && lexemes.length <= MAX_PREFIX_LEXEMES)
      partOf.set(term, { part: lexemes.map(operand).join(' | '), normalised, trigrams, most: most ?? 0 })
    // too many lexemes, or more than one (a word the parser splits): as normalised
    else partOf.set(term, { part: `(${normalised})`, normalised, trigrams, most: 0 })
  }
  return new Map(
    words.map((w) => {
      const standIns = expansions.get(w) ?? []
      const own = [w, ...standIns].map((t) => partOf.get(t)!)
      const parts = own.filter((t) => t.part !== null)
      const matching = parts.filter((t) => t.part)
      // a typo no event holds drops out of its OR; a word none of whose terms any event holds
      // matches nothing, so the search matches nothing: a prefix of it says so (an empty range)
      const match = matching.length ? matching.map((t) => t.part).join(' | ') : parts.length ? `(${parts[0].normalised})` : null
      // every term counts, also one no event holds yet: the event that brings it announces its key
      const keys = new Set([
        ...own.flatMap((t) => operands(t.normalised).map(lexemeKey)),
        ...standInTrigrams(partOf.get(w)!.trigrams).map((t) => `tri:${t}`),
      ])
      // the OR of its terms matches at least the rows of any one of their exact lexemes
      const matchesAtLeast = Math.max(0, ...matching.map((t) => t.most))
      return [w, { standIns, match, keys: keys.has('list:all') ? ['list:all'] : [...keys], matchesAtLeast }]
    }),
  )
}

/**
 * The stand-ins of each word, read from the dictionary and the synonyms in one round trip: the
 * dictionary words most similar to it (typos, words of 3+ letters) and its synonyms. (Planned
 * for each search's words: a generic plan, as wordTerms uses, ran 1.95 ms against 1.0 + 0.5 ms
 * of planning.)
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
export function eventSearchMatch(eventId: AnyColumn, tsquery: SQL): SQL {
  return sql`exists (select 1 from event_search s where s.event_id = ${eventId} and s.lexemes @@ ${tsquery})`
}

/** The tsquery of a search without typo expansion (prefix words only). */
export function prefixSearchQuery(q: string): string | null {
  const words = searchWords(q)
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null
}
