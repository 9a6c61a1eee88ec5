// Test fixture for the discovery tests: events with known dates, zones and coordinates in a
// category of their own (`uji-discovery`), so the demo data around them does not matter.
import { sql } from 'drizzle-orm'
import type { Database } from '@app/db'

export const FIXTURE_CATEGORY = 'uji-discovery'

export type FixtureEvent = {
  key: string
  city: string | null
  start: string
  end?: string
  startTime?: string | null
  endTime?: string | null
  lat?: number
  lng?: number
  free?: boolean
  type?: 'offline' | 'online' | 'hybrid'
  tags?: string[]
  status?: 'published' | 'pending'
}

/** Inserts the events (slug = `uji-<key>`); returns their ids by key. */
export async function insertFixture(database: Database, list: FixtureEvent[]): Promise<Map<string, string>> {
  await database.rows(sql`insert into categories (id, name, slug, sort_order) values (${Bun.randomUUIDv7()}, 'Uji Discovery', ${FIXTURE_CATEGORY}, 999)
    on conflict (slug) do nothing`)
  const ids = new Map<string, string>()
  for (const e of list) {
    const id = Bun.randomUUIDv7()
    ids.set(e.key, id)
    await database.rows(sql`insert into events (id, title, slug, short_description, start_date, end_date, start_time, end_time,
        event_type, venue_name, venue_address, latitude, longitude, city_id, category_id, organizer_name, is_free,
        ticket_price_min, ticket_price_max, status)
      values (${id}, ${`Uji ${e.key}; acara, "khusus" \\ tes`}, ${`uji-${e.key}`}, ${`Ringkasan ${e.key}`}, ${e.start}, ${e.end ?? e.start},
        ${e.startTime === undefined ? '19:00' : e.startTime}, ${e.endTime ?? null},
        ${e.type ?? (e.city ? 'offline' : 'online')}, ${`Gedung ${e.key}`}, ${e.city ? `Jl. Uji No. 1` : ''},
        ${e.lat ?? null}, ${e.lng ?? null},
        ${e.city ? sql`(select id from cities where slug = ${e.city})` : null},
        (select id from categories where slug = ${FIXTURE_CATEGORY}), 'Panitia Uji', ${e.free ?? true},
        ${e.free === false ? 50000 : 0}, ${e.free === false ? 100000 : 0}, ${e.status ?? 'published'})`)
    for (const tag of e.tags ?? [])
      await database.rows(sql`insert into event_tags (event_id, tag_id) select ${id}, id from tags where slug = ${tag}`)
  }
  return ids
}
