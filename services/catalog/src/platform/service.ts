import { inArray, sql } from 'drizzle-orm'
import { settings, type Database } from '@app/db'
import { SETTINGS_KEYS } from './model'

export async function platformStats(database: Database) {
  const [row] = await database.rows<{
    total_events: number
    published_events: number
    total_categories: number
    total_cities: number
    total_news: number
  }>(sql`
    select
      (select count(*)::int from events) as total_events,
      (select count(*)::int from events where status = 'published') as published_events,
      (select count(*)::int from categories where is_active) as total_categories,
      (select count(*)::int from cities) as total_cities,
      (select count(*)::int from news_articles where status = 'published' and published_at <= now()) as total_news`)
  return row
}

/** Every public key is present; a key missing from the table is an empty string. */
export async function publicSettings({ db }: Database) {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, [...SETTINGS_KEYS]))
  const values = new Map(rows.map((r) => [r.key, r.value]))
  return Object.fromEntries(SETTINGS_KEYS.map((k) => [k, values.get(k) ?? ''])) as Record<(typeof SETTINGS_KEYS)[number], string>
}
