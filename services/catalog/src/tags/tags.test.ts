import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { envelopeMessage, get } from '@app/kit/testing'
import { createTestCatalog } from '../testing'

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
beforeAll(async () => {
  ctx = await createTestCatalog()
})
afterAll(async () => {
  await ctx.database.close()
})

const publishedCounts = () =>
  ctx.database.rows<{ slug: string; name: string; n: number }>(sql`
    select t.slug, t.name, count(e.id)::int as n from tags t
    left join event_tags et on et.tag_id = t.id
    left join events e on e.id = et.event_id and e.status = 'published'
    group by t.slug, t.name`)

describe('GET /api/tags', () => {
  test('only tags with published events, counted, most used first then name', async () => {
    const rows = await publishedCounts()
    const used = rows.filter((r) => r.n > 0).sort((a, b) => b.n - a.n || (a.name < b.name ? -1 : 1))
    expect(rows.some((r) => r.n === 0)).toBe(true)
    const res = await get(ctx.app, '/api/tags?limit=100')
    expect(res.status).toBe(200)
    expect(res.body.data.map((t: any) => [t.slug, t.event_count])).toEqual(used.map((r) => [r.slug, r.n]))
    expect(res.body.pagination.total).toBe(used.length)
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['event_count', 'id', 'name', 'slug'])
  })

  test('default limit 30', async () => {
    const res = await get(ctx.app, '/api/tags')
    expect(res.body.pagination.limit).toBe(30)
    expect(res.body.data.length).toBe(Math.min(30, res.body.pagination.total))
  })

  test('a tag only on unpublished events is not listed', async () => {
    const rows = await publishedCounts()
    const unused = rows.find((r) => r.n === 0)!
    const res = await get(ctx.app, `/api/tags?q=${encodeURIComponent(unused.name)}`)
    expect(res.body.data.map((t: any) => t.slug)).not.toContain(unused.slug)
  })

  test('q filters by name', async () => {
    const res = await get(ctx.app, '/api/tags?q=lar')
    expect(res.body.data.length).toBeGreaterThan(0)
    for (const t of res.body.data) expect(t.name.toLowerCase()).toContain('lar')
  })

  test('bad parameters: 400 envelope', async () => {
    for (const q of ['page=0', 'limit=-3', 'page=satu']) {
      const res = await get(ctx.app, `/api/tags?${q}`)
      expect(res.status).toBe(400)
      envelopeMessage(res)
    }
  })
})
