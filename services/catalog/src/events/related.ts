// `related` on the event detail: up to 4 published events that have not ended yet (in their own
// zone) and share the category, the city or a tag. Candidates come from four small index-ordered
// reads in one statement (same city + category, same category, same city, same tag), at most 12
// each, those ending soonest first (events_status_end_idx gives that order from today on); they
// are then ranked by what they share (a shared tag and the category weigh 2, the city 1), the
// soonest first among equals.
import { and, eq, ne, sql, type SQL } from 'drizzle-orm'
import { categories, cities, events, type Database } from '@app/db'
import { listColumns, toListItem } from './service'
import { waktuCondition } from './windows'

export const RELATED_LIMIT = 4
const CANDIDATES = 12
const TAG_LINKS = 200

/**
 * The related events of the event `eventId` whose tags are `tagIds` (the detail has them): one
 * query, whatever the number of candidates.
 */
export async function relatedEvents({ db }: Database, eventId: string, tagIds: string[], nowMs: number) {
  const upcoming = and(eq(events.status, 'published'), ne(events.id, eventId), waktuCondition('mendatang', nowMs))!
  const selfCategory = sql`(select s.category_id from events s where s.id = ${eventId})`
  const selfCity = sql`(select s.city_id from events s where s.id = ${eventId})`
  const tagList = tagIds.length
    ? sql.join(
        tagIds.map((t) => sql`${t}`),
        sql`, `,
      )
    : undefined
  // uncorrelated subqueries over "events": each is its own small index-ordered read
  const candidates = (where: SQL) =>
    sql`(select ${events.id} from ${events} where ${upcoming} and ${where} order by ${events.endDate}, ${events.id} limit ${CANDIDATES})`
  const reads = [
    candidates(and(sql`${events.cityId} = ${selfCity}`, sql`${events.categoryId} = ${selfCategory}`)!),
    candidates(sql`${events.categoryId} = ${selfCategory}`),
    candidates(sql`${events.cityId} = ${selfCity}`),
  ]
  // from at most TAG_LINKS of the tags' links (event_tags_tag_idx; the LIMIT keeps the planner
  // from walking every upcoming event until enough carry a rare tag): bounded, whatever the tags
  if (tagList)
    reads.push(
      sql`(select ${events.id} from ${events} where ${events.id} in (
        select et.event_id from event_tags et where et.tag_id in (${tagList}) limit ${TAG_LINKS}
      ) and ${upcoming} order by ${events.endDate}, ${events.id} limit ${CANDIDATES})`,
    )
  const rows = await db
    .select({
      ...listColumns,
      score: sql<number>`(
        (case when ${events.categoryId} = ${selfCategory} then 2 else 0 end) +
        (case when ${events.cityId} = ${selfCity} then 1 else 0 end) +
        ${tagList ? sql`2 * (select count(*) from event_tags et where et.event_id = ${events.id} and et.tag_id in (${tagList}))` : sql`0`})::int`,
    })
    .from(events)
    .innerJoin(categories, eq(categories.id, events.categoryId))
    .leftJoin(cities, eq(cities.id, events.cityId))
    .where(sql`${events.id} in (${sql.join(reads, sql` union `)})`)
  rows.sort((a, b) => Number(b.score) - Number(a.score) || a.startDate.localeCompare(b.startDate) || a.id.localeCompare(b.id))
  return rows.slice(0, RELATED_LIMIT).map(({ score: _score, ...row }) => toListItem(row))
}
