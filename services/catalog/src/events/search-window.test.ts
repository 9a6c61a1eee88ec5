// A search sorted by title, price or date: with at most a city or a category it sorts its matches in
// the search copy; with another filter it walks at most SEARCH_WINDOW events of the order index and
// falls back to sorting its matches when that window misses the page (service.ts). Every way, the
// page must be the one an unbounded read gives.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { pageRequest } from '@app/kit'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { idsOf } from '../testing'
import type { EventListQuery } from './model'
import { listEvents, listQueries, prepareSearch, SEARCH_COUNT_CAP } from './service'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
  // more matches than the count cap, all at the end of the title order ("Zeta ..."), spread
  // over prices and dates: the case the window exists for
  await database.db.execute(sql`
    insert into events (id, title, slug, start_date, end_date, category_id, organizer_name, status, created_at, ticket_price_min)
    select gen_random_uuid()::text, 'Zeta Konser Jendela ' || g, 'zeta-konser-jendela-' || g,
           current_date + (g % 97), current_date + (g % 97), (select id from categories order by id limit 1),
           'Penyelenggara', 'published', now() - g * interval '1 minute', (g * 7919) % 1000
    from generate_series(1, ${SEARCH_COUNT_CAP + 100}) g`)
  // a tag on each: a filter the search copy does not hold, so such a search walks events
  await database.db.execute(sql`
    insert into event_tags (event_id, tag_id)
    select e.id, (select id from tags order by slug limit 1) from events e
    where e.slug like 'zeta-konser-jendela-%'`)
  // few matches (within the cap), ties in price and date: their count also finds the page
  await database.db.execute(sql`
    insert into events (id, title, slug, start_date, end_date, category_id, organizer_name, status, created_at, ticket_price_min)
    select gen_random_uuid()::text, 'Omega Pentas Lirih ' || g, 'omega-pentas-lirih-' || g,
           current_date + (g % 5), current_date + (g % 5), (select id from categories order by id limit 1),
           'Penyelenggara', 'published', now() - (g % 7) * interval '1 hour' - g * interval '1 second', (g % 4) * 1000
    from generate_series(1, 30) g`)
  tagSlug = (await database.rows<{ slug: string }>(sql`select slug from tags order by slug limit 1`))[0].slug
})
let tagSlug = ''
afterAll(async () => {
  await database.close()
})

const ORDER_SQL = {
  created_at_desc: sql`created_at desc, id desc`,
  title_asc: sql`title, id`,
  price_asc: sql`ticket_price_min, id`,
  start_date_asc: sql`start_date, id`,
  start_date_desc: sql`start_date desc, id desc`,
}

/** The first 100 matches of `query` in its order, read straight from events (the reference). */
async function reference(query: EventListQuery & { sort: keyof typeof ORDER_SQL }) {
  const { tsquery } = await prepareSearch(database, query)
  const rows = await database.rows<{ id: string }>(sql`
    select id from events
    where status = 'published' and search_document @@ to_tsquery('indonesian', ${tsquery!})
      ${query.format ? sql`and event_type = ${query.format}` : sql``}
      ${query.tag ? sql`and exists (select 1 from event_tags et join tags t on t.id = et.tag_id where et.event_id = events.id and t.slug = ${query.tag})` : sql``}
    order by ${ORDER_SQL[query.sort]} limit 100`)
  return rows.map((r) => r.id)
}

test('a window that misses the page falls back; one that holds it answers; both give the right page', async () => {
  for (const sort of ['title_asc', 'price_asc', 'start_date_asc', 'start_date_desc'] as const) {
    // the copy alone (q, or q and a format: the copy holds formats), and events rows with the
    // window (a tag besides: the copy does not hold tags)
    for (const query of [
      { q: 'jendela', sort },
      { q: 'jendela', sort, format: 'offline' },
      { q: 'jendela', sort, tag: tagSlug },
    ] as (EventListQuery & { sort: typeof sort })[]) {
      const ready = await prepareSearch(database, query)
      const { total, exact } = await listEvents(database, ready, pageRequest({}, 12, 100))
      expect([total, exact]).toEqual([SEARCH_COUNT_CAP + 1, false])
      expect(listQueries(database, ready, pageRequest({}, 12, 100)).fromCopy).toBe(!query.tag)
      const expected = await reference(query)
      expect(expected.length).toBeGreaterThan(4)
      for (const window of [1, 3, 1000]) {
        for (const pageNo of [1, 2]) {
          const page = pageRequest({ page: pageNo, limit: 2 }, 12, 100)
          const { itemsJson } = await listEvents(database, ready, page, { window })
          expect(idsOf(itemsJson)).toEqual(expected.slice(page.offset, page.offset + 2))
        }
      }
    }
  }
})

test('the bounded walk reads no more events than the window', async () => {
  const ready = await prepareSearch(database, { q: 'jendela', sort: 'title_asc', tag: tagSlug } as EventListQuery)
  const page = pageRequest({ page: 1, limit: 2 }, 12, 100)
  const rows = await listQueries(database, ready, page, { window: 3 }).page
  // the window holds the three first titles of the catalogue, none of them a match
  expect(rows.length).toBe(0)
  const walked = await listQueries(database, ready, pageRequest({ page: 1, limit: 100 }, 12, 100), { window: 3 }).page
  expect(walked.length).toBeLessThanOrEqual(3)
})

test('a search of few matches takes its page from the scan that counts them, the same page in every order', async () => {
  for (const sort of Object.keys(ORDER_SQL) as (keyof typeof ORDER_SQL)[])
    for (const query of [
      { q: 'lirih', sort },
      { q: 'lirih', sort, format: 'offline' },
    ] as (EventListQuery & { sort: typeof sort })[]) {
      const ready = await prepareSearch(database, query)
      const expected = await reference(query)
      expect(expected.length).toBe(30)
      for (const pageNo of [1, 2, 5, 6]) {
        const page = pageRequest({ page: pageNo, limit: 7 }, 12, 100)
        expect(listQueries(database, ready, page).countWithPage).toBeDefined()
        const { itemsJson, total, exact } = await listEvents(database, ready, page)
        expect([total, exact]).toEqual([30, true])
        expect(idsOf(itemsJson)).toEqual(expected.slice(page.offset, page.offset + 7))
      }
    }
})

test('a search by one common word alone is past the cap by the kept lexeme counts: no rows are counted', async () => {
  const statements: string[] = []
  const session = (database.db as any).session
  const logger = session.logger
  session.logger = { logQuery: (text: string) => statements.push(text) }
  try {
    const alone = await prepareSearch(database, { q: 'jendela' } as EventListQuery)
    // every "Zeta Konser Jendela" event holds the lexeme: the bound is their number
    expect(alone.matchesAtLeast).toBe(SEARCH_COUNT_CAP + 100)
    // two words: the AND of their rows has no bound from the counts
    expect((await prepareSearch(database, { q: 'jendela zeta' } as EventListQuery)).matchesAtLeast).toBe(0)
    const page = pageRequest({}, 12, 100)
    statements.length = 0
    const { itemsJson, total, exact } = await listEvents(database, alone, page)
    expect([total, exact]).toEqual([SEARCH_COUNT_CAP + 1, false])
    expect(statements.some((text) => /count\(\*\)/i.test(text))).toBe(false)
    expect(idsOf(itemsJson)).toEqual((await reference({ q: 'jendela', sort: 'created_at_desc' })).slice(0, 12))
    // with a filter the copy's rows are counted, to the same capped total
    const filtered = await prepareSearch(database, { q: 'jendela', format: 'offline' } as EventListQuery)
    statements.length = 0
    expect(await listEvents(database, filtered, page)).toMatchObject({ total: SEARCH_COUNT_CAP + 1, exact: false })
    expect(statements.some((text) => /count\(\*\)/i.test(text))).toBe(true)
  } finally {
    session.logger = logger
  }
})
