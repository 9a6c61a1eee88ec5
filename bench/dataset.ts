// What the bench database holds: shared by bench:data (its summary line) and bench (the report).
import type postgres from 'postgres'

export type DatasetCounts = Record<'events' | 'published' | 'event_tags' | 'tags' | 'categories' | 'cities' | 'news', number>

export async function datasetCounts(sql: postgres.Sql): Promise<DatasetCounts> {
  const [row] = await sql<DatasetCounts[]>`
    select (select count(*)::int from events) as events,
           (select count(*)::int from events where status = 'published') as published,
           (select count(*)::int from event_tags) as event_tags,
           (select count(*)::int from tags) as tags,
           (select count(*)::int from categories) as categories,
           (select count(*)::int from cities) as cities,
           (select count(*)::int from news_articles) as news`
  return row
}
