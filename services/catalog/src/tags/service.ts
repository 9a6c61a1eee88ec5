import { sql } from 'drizzle-orm'
import { containsPattern, type Database } from '@app/db'
import type { PageRequest } from '@app/kit'

/** Tags carried by at least one published event, most used first. */
export async function listTags(database: Database, query: { q?: string }, page: PageRequest) {
  const q = query.q?.trim()
  const nameFilter = q ? sql`and t.name ilike ${containsPattern(q)}` : sql``
  const counted = sql`
    select t.id, t.name, t.slug, count(*)::int as event_count
    from tags t
    join event_tags et on et.tag_id = t.id
    join events e on e.id = et.event_id and e.status = 'published'
    where true ${nameFilter}
    group by t.id`
  const [items, [{ total }]] = await Promise.all([
    database.rows<{ id: string; name: string; slug: string; event_count: number }>(
      sql`${counted} order by event_count desc, t.name asc, t.id asc limit ${page.limit} offset ${page.offset}`,
    ),
    database.rows<{ total: number }>(sql`select count(*)::int as total from (${counted}) c`),
  ])
  return { items, total }
}
