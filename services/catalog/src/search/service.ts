import { sql } from 'drizzle-orm'
import { searchWords, type Database } from '@app/db'
import { SUGGEST_TYPES } from './model'

export const MAX_SUGGESTIONS = 10
/** Places kept for categories, cities and tags each; events fill the rest. */
const PER_NAME_TYPE = 2

type Suggestion = { type: (typeof SUGGEST_TYPES)[number]; label: string; slug: string }

/**
 * As-you-type suggestions: categories, cities and tags whose name has a word starting with what
 * was typed, then published events whose title does. Every read is bounded: the name tables are
 * small, and event titles come from an index (title prefix, for the first letters) or the title
 * lexemes of the full-text index (a word inside the title, from three letters on).
 */
export async function suggest(database: Database, q: string): Promise<Suggestion[]> {
  const words = searchWords(q)
  if (!words.length) return []
  const phrase = words.join(' ')
  // "starts with" on a whole name or on one of its words, accent- and case-insensitive
  const nameMatches = (column: string) =>
    sql`(immutable_unaccent(lower(${sql.raw(column)})) like ${`${phrase}%`} or immutable_unaccent(lower(${sql.raw(column)})) like ${`% ${phrase}%`})`
  const names = await database.rows<Suggestion & { rank: number }>(sql`
    (select 'category' as type, name as label, slug, 0 as rank from categories where is_active and ${nameMatches('name')} order by name limit ${PER_NAME_TYPE})
    union all
    (select 'city', name, slug, 1 from cities where ${nameMatches('name')} order by name limit ${PER_NAME_TYPE})
    union all
    (select 'tag', t.name, t.slug, 2 from tags t where ${nameMatches('t.name')}
      and exists (select 1 from event_tags et join events e on e.id = et.event_id where et.tag_id = t.id and e.status = 'published')
      order by t.name limit ${PER_NAME_TYPE})`)
  const room = MAX_SUGGESTIONS - names.length
  // titles that start with it (events_title_prefix_idx), then, from three letters on, titles with
  // a word that does (title lexemes carry weight A in the search document); upcoming first
  const titleWords = words.map((w, i) => (i === words.length - 1 && w.length < 3 ? null : `${w}:*A`))
  const byWord = phrase.length >= 3 && titleWords.every(Boolean)
  const events = await database.rows<Suggestion>(sql`
    select 'event' as type, title as label, slug from (
      (select title, slug, end_date from events
        where status = 'published' and (immutable_unaccent(lower(title)) collate "C") >= ${phrase}
          and (immutable_unaccent(lower(title)) collate "C") < ${`${phrase}\u{10FFFF}`}
        order by (immutable_unaccent(lower(title)) collate "C") limit 50)
      ${
        byWord
          ? sql`union (select title, slug, end_date from events where status = 'published'
        and search_document @@ to_tsquery('indonesian', ${titleWords.join(' & ')}) limit 50)`
          : sql``
      }
    ) candidates
    order by end_date < current_date, end_date, title
    limit ${room}`)
  return [...names.map(({ type, label, slug }) => ({ type, label, slug })), ...events]
}
