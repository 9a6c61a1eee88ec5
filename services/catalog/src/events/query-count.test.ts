// A list page costs the same few queries whatever its size: no query per row.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { get } from '@app/kit/testing'
import { createTestCatalog } from '../testing'

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
const queries: string[] = []
beforeAll(async () => {
  ctx = await createTestCatalog()
  // drizzle hands every statement of this database to its session's logger
  ;(ctx.database.db as any).session.logger = { logQuery: (sql: string) => queries.push(sql) }
})
afterAll(async () => {
  await ctx.database.close()
})

async function countQueries(path: string): Promise<number> {
  queries.length = 0
  const res = await get(ctx.app, path)
  expect(res.status).toBe(200)
  return queries.length
}

test('events, categories, cities and tags: the same query count for 1 and 100 items, at most 3', async () => {
  for (const list of [
    '/api/events',
    '/api/events?kategori=musik&sort=price_asc',
    '/api/categories',
    '/api/cities',
    '/api/tags',
  ]) {
    const sep = list.includes('?') ? '&' : '?'
    const one = await countQueries(`${list}${sep}limit=1`)
    const hundred = await countQueries(`${list}${sep}limit=100`)
    // the data version, the page, the total (an event list's total is remembered for its other
    // pages and sizes: one query fewer the second time)
    expect(one).toBeLessThanOrEqual(3)
    expect(hundred).toBe(list.startsWith('/api/events') ? one - 1 : one)
  }
})

test('a cached answer costs one query (the data version), whatever the page', async () => {
  await get(ctx.app, '/api/events?limit=100')
  expect(await countQueries('/api/events?limit=100')).toBe(1)
  expect(queries[0]).toContain('data_versions')
})

test('event detail: the version, the event with its tags, one read per related branch, each read once', async () => {
  const [{ tags }] = await ctx.database.rows<{ tags: number }>(
    sql`select count(*)::int as tags from event_tags et join events e on e.id = et.event_id where e.slug = 'jazz-gunung-bromo'`,
  )
  // category, city + category, city, and one per tag: bounded by the tags (at most 10), not the data
  expect(await countQueries('/api/events/jazz-gunung-bromo')).toBeLessThanOrEqual(2 + 3 + tags)
  // an event filed under the same category and city finds those branches remembered
  const [other] = await ctx.database.rows<{ slug: string }>(sql`
    select o.slug from events e join events o on o.category_id = e.category_id and o.city_id = e.city_id and o.id <> e.id
    where e.slug = 'jazz-gunung-bromo' and o.status = 'published' limit 1`)
  if (other) {
    const [{ n }] = await ctx.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_tags et join events e on e.id = et.event_id where e.slug = ${other.slug}`,
    )
    expect(await countQueries(`/api/events/${other.slug}`)).toBeLessThanOrEqual(2 + n)
  }
})
