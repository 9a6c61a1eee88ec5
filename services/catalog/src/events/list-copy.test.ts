// Lists by one city or one category take their page of ids from the search copy (migration 0023),
// lists by one tag from the tag copy (migration 0026), in every list order (service.ts, copyWhere,
// tagCopyWhere), the others from events: every way, each page must be the one a plain read of
// events gives, and the total the count of events.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { pageRequest } from '@app/kit'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { idsOf } from '../testing'
import type { EventListQuery, EventSort } from './model'
import { listEvents, listQueries } from './service'

let database: TestDatabase
let city = ''
let category = ''
let tag = ''
beforeAll(async () => {
  database = await createTestDatabase()
  // the busiest city and category of the demo catalogue, plus equal titles, prices and dates so
  // the id tie-breaker decides
  ;[{ city, category }] = await database.rows<{ city: string; category: string }>(sql`
    select (select c.slug from events e join cities c on c.id = e.city_id where e.status = 'published'
            group by c.slug order by count(*) desc, c.slug limit 1) as city,
           (select c.slug from events e join categories c on c.id = e.category_id where e.status = 'published'
            group by c.slug order by count(*) desc, c.slug limit 1) as category`)
  await database.db.execute(sql`
    insert into events (id, title, slug, start_date, end_date, category_id, city_id, organizer_name, status, event_type, is_free, ticket_price_min)
    select 'tie-' || g, 'Sama Judul', 'sama-judul-' || g, current_date + 3, current_date + 3,
           (select id from categories where slug = ${category}), (select id from cities where slug = ${city}),
           'Penyelenggara', 'published', (array['offline', 'online', 'hybrid'])[1 + g % 3]::event_type, g % 2 = 0, 50000
    from generate_series(1, 30) g`)
  // the busiest tag, also on the equal rows
  ;[{ tag }] = await database.rows<{ tag: string }>(sql`
    select t.slug as tag from event_tags et join tags t on t.id = et.tag_id join events e on e.id = et.event_id
    where e.status = 'published' group by t.slug order by count(*) desc, t.slug limit 1`)
  await database.db.execute(sql`
    insert into event_tags (event_id, tag_id) select 'tie-' || g, (select id from tags where slug = ${tag}) from generate_series(1, 30) g`)
})
afterAll(async () => {
  await database.close()
})

const ORDER_SQL: Record<Exclude<EventSort, 'relevance' | 'distance'>, ReturnType<typeof sql>> = {
  created_at_desc: sql`e.created_at desc, e.id desc`,
  start_date_asc: sql`e.start_date, e.id`,
  start_date_desc: sql`e.start_date desc, e.id desc`,
  price_asc: sql`e.ticket_price_min, e.id`,
  title_asc: sql`e.title, e.id`,
}

/** Every match of `query` in its order, read straight from events (the reference). */
async function reference(query: EventListQuery & { sort: keyof typeof ORDER_SQL }) {
  const rows = await database.rows<{ id: string }>(sql`
    select e.id from events e
    left join cities ci on ci.id = e.city_id join categories ca on ca.id = e.category_id
    where e.status = 'published'
      ${query.kota ? sql`and ci.slug = ${query.kota}` : sql``}
      ${query.kategori ? sql`and ca.slug = ${query.kategori}` : sql``}
      ${query.format ? sql`and e.event_type = ${query.format}` : sql``}
      ${query.gratis !== undefined ? sql`and e.is_free = ${query.gratis === '1'}` : sql``}
      ${query.tag ? sql`and exists (select 1 from event_tags et join tags t on t.id = et.tag_id where et.event_id = e.id and t.slug = ${query.tag})` : sql``}
    order by ${ORDER_SQL[query.sort]}`)
  return rows.map((r) => r.id)
}

test('every order, page and filter mix of a city, category or tag list equals a plain read of events', async () => {
  // by one city, one category or one tag alone: from a copy (event_search, event_tag_order);
  // combined with more: from events
  const filters: EventListQuery[] = [
    { kota: city },
    { kategori: category },
    { kota: city, kategori: category },
    { kota: city, format: 'offline' },
    { kategori: category, gratis: '1' },
    { kota: city, kategori: category, format: 'hybrid', gratis: '0' },
    { tag },
    { tag, kota: city },
  ]
  const onCopy = (query: EventListQuery) => Object.keys(query).length === 2
  let checked = 0
  for (const filter of filters)
    for (const sort of Object.keys(ORDER_SQL) as (keyof typeof ORDER_SQL)[]) {
      const query = { ...filter, sort }
      const expected = await reference(query)
      expect(expected.length).toBeGreaterThan(2)
      expect(listQueries(database, query, pageRequest({}, 12, 100)).fromCopy).toBe(onCopy(query))
      for (const pageNo of [1, 2, 3]) {
        const page = pageRequest({ page: pageNo, limit: 4 }, 12, 100)
        const { itemsJson, total, exact } = await listEvents(database, query, page)
        expect(idsOf(itemsJson)).toEqual(expected.slice(page.offset, page.offset + 4))
        expect([total, exact]).toEqual([expected.length, true])
        checked++
      }
    }
  expect(checked).toBe(filters.length * 5 * 3)
})
