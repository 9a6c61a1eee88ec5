import { sql } from 'drizzle-orm'
import { searchWords, type Database } from '@app/db'
import { SUGGEST_TYPES } from './model'

export const MAX_SUGGESTIONS = 10
/** Places kept for categories, cities and tags each; events fill the rest. */
const PER_NAME_TYPE = 2
/** Entries of a word's range read for event suggestions: the bound on a suggestion's cost. */
const WORD_CANDIDATES = 200

type Suggestion = { type: (typeof SUGGEST_TYPES)[number]; label: string; slug: string }

/**
 * As-you-type suggestions: categories, cities and tags whose name has a word starting with what
 * was typed, then published events whose title does. Every read is bounded: the name tables are
 * small, and event titles come from an index (title prefix, for the first letters) or the table of
 * title words (a word inside the title, from three letters on).
 */
export async function suggest(database: Database, q: string): Promise<Suggestion[]> {
  const queries = suggestQueries(q)
  if (!queries) return []
  const names = await database.rows<Suggestion & { rank: number }>(queries.names)
  const events = await database.rows<Suggestion>(queries.events(MAX_SUGGESTIONS - names.length))
  return [...names.map(({ type, label, slug }) => ({ type, label, slug })), ...events]
}

/** The two reads of a suggestion (names, then events to fill `room` places); null without words. */
export function suggestQueries(q: string) {
  const words = searchWords(q)
  if (!words.length) return null
  const phrase = words.join(' ')
  // "starts with" on a whole name or on one of its words, accent- and case-insensitive
  const nameMatches = (column: string) =>
    sql`(immutable_unaccent(lower(${sql.raw(column)})) like ${`${phrase}%`} or immutable_unaccent(lower(${sql.raw(column)})) like ${`% ${phrase}%`})`
  const names = sql`
    (select 'category' as type, name as label, slug, 0 as rank from categories where is_active and ${nameMatches('name')} order by name limit ${PER_NAME_TYPE})
    union all
    (select 'city', name, slug, 1 from cities where ${nameMatches('name')} order by name limit ${PER_NAME_TYPE})
    union all
    (select 'tag', t.name, t.slug, 2 from tags t where ${nameMatches('t.name')}
      and exists (select 1 from event_tags et join events e on e.id = et.event_id where et.tag_id = t.id and e.status = 'published')
      order by t.name limit ${PER_NAME_TYPE})`
  // titles that start with it (events_title_prefix_idx), then, from three letters on, titles with
  // a word that does: a range of event_title_words (migration 0025) read from its most telling
  // word, at most WORD_CANDIDATES entries, the other words checked on those candidates only;
  // upcoming first
  const byWord = words.at(-1)!.length >= 3
  const driver = words.reduce((a, b) => (b.length > a.length ? b : a))
  const others = words.filter((w, i) => i !== words.indexOf(driver))
  // as title_words() folds the titles (PostgreSQL's unaccent rules, which fold more than NFKD)
  const folded = (word: string) => sql`immutable_unaccent(lower(${word}))`
  const events = (room: number) => sql`
    select 'event' as type, title as label, slug from (
      (select title, slug, end_date from events
        where status = 'published' and (immutable_unaccent(lower(title)) collate "C") >= ${phrase}
          and (immutable_unaccent(lower(title)) collate "C") < ${`${phrase}\u{10FFFF}`}
        order by (immutable_unaccent(lower(title)) collate "C") limit 50)
      ${
        byWord
          ? sql`union (select e.title, e.slug, e.end_date
        from (select event_id from event_title_words
              where word >= ${folded(driver)} and word < ${folded(driver)} || ${'\u{10FFFF}'}
              -- in key order: a walk of the range, which the planner otherwise may trade for a scan
              -- of the whole table that it expects to meet enough matches early
              order by word, event_id limit ${WORD_CANDIDATES}) c
        join events e on e.id = c.event_id
        where e.status = 'published'${sql.join(
          // words hold only letters and digits: no LIKE wildcard among them
          others.map((w) => sql` and exists (select 1 from unnest(title_words(e.title)) t where t like ${folded(w)} || '%')`),
        )}
        limit 50)`
          : sql``
      }
    ) candidates
    order by end_date < current_date, end_date, title
    limit ${room}`
  return { names, events }
}
