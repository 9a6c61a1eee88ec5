// A list page costs the same few queries whatever its size: no query per row.
import { afterAll, beforeAll, expect, test } from 'bun:test'
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
    expect(one).toBe(hundred)
    // the data version, the page, the total
    expect(hundred).toBeLessThanOrEqual(3)
  }
})

test('a cached answer costs one query (the data version), whatever the page', async () => {
  await get(ctx.app, '/api/events?limit=100')
  expect(await countQueries('/api/events?limit=100')).toBe(1)
  expect(queries[0]).toContain('data_versions')
})

test('event detail: the version, the event, its tags, its related events', async () => {
  expect(await countQueries('/api/events/jazz-gunung-bromo')).toBeLessThanOrEqual(4)
})
