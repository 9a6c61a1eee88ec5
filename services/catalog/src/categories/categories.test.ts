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

type Row = { id: string; slug: string; name: string; is_active: boolean; sort_order: number; published: number }
const categoriesInDb = () =>
  ctx.database.rows<Row>(sql`
    select c.id, c.slug, c.name, c.is_active, c.sort_order,
      (select count(*)::int from events e where e.category_id = c.id and e.status = 'published') as published
    from categories c`)

describe('GET /api/categories', () => {
  test('active categories by sort_order then name, with published event counts', async () => {
    const res = await get(ctx.app, '/api/categories?limit=100')
    expect(res.status).toBe(200)
    const rows = await categoriesInDb()
    const active = rows.filter((r) => r.is_active).sort((a, b) => a.sort_order - b.sort_order || (a.name < b.name ? -1 : 1))
    expect(res.body.data.map((c: any) => c.slug)).toEqual(active.map((r) => r.slug))
    for (const c of res.body.data) {
      const row = rows.find((r) => r.id === c.id)!
      expect(c.event_count).toBe(row.published)
      expect(c.is_active).toBe(1)
      expect(Object.keys(c).sort()).toEqual(
        ['id', 'name', 'slug', 'description', 'icon', 'image_url', 'is_active', 'sort_order', 'event_count'].sort(),
      )
    }
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 100,
      total: active.length,
      total_pages: 1,
      has_next: false,
      has_prev: false,
    })
  })

  test('default limit 20, active_only=0 includes inactive ones', async () => {
    const rows = await categoriesInDb()
    expect(rows.some((r) => !r.is_active)).toBe(true)
    const all = await get(ctx.app, '/api/categories?active_only=0')
    expect(all.body.pagination.limit).toBe(20)
    expect(all.body.pagination.total).toBe(rows.length)
    expect(all.body.data.some((c: any) => c.is_active === 0)).toBe(true)
  })

  test('q filters on name or slug, case-insensitively; LIKE wildcards are literal', async () => {
    const byName = await get(ctx.app, '/api/categories?q=BUDAYA')
    expect(byName.body.data.map((c: any) => c.slug)).toEqual(['seni-budaya'])
    const bySlug = await get(ctx.app, '/api/categories?q=anak-kel')
    expect(bySlug.body.data.map((c: any) => c.slug)).toEqual(['anak-keluarga'])
    const wildcard = await get(ctx.app, '/api/categories?q=%25')
    expect(wildcard.body.data).toEqual([])
  })

  test('pagination edges and bad parameters', async () => {
    const rows = (await categoriesInDb()).filter((r) => r.is_active)
    const second = await get(ctx.app, '/api/categories?limit=5&page=2')
    expect(second.body.data).toHaveLength(5)
    expect(second.body.pagination).toMatchObject({ page: 2, has_prev: true, has_next: rows.length > 10 })
    const past = await get(ctx.app, '/api/categories?page=99')
    expect(past.status).toBe(200)
    expect(past.body.data).toEqual([])
    expect((await get(ctx.app, '/api/categories?limit=500')).body.pagination.limit).toBe(100)
    for (const q of ['page=0', 'limit=abc', 'active_only=2']) {
      const res = await get(ctx.app, `/api/categories?${q}`)
      expect(res.status).toBe(400)
      envelopeMessage(res)
    }
  })
})

describe('GET /api/categories/:slug', () => {
  test('detail fields', async () => {
    const res = await get(ctx.app, '/api/categories/musik')
    expect(res.status).toBe(200)
    expect(res.body.category).toEqual({
      id: expect.any(String),
      name: 'Musik',
      slug: 'musik',
      description: expect.any(String),
      icon: expect.any(String),
      is_active: 1,
    })
  })

  test('unknown slug: 404 envelope', async () => {
    const res = await get(ctx.app, '/api/categories/tidak-ada')
    expect(res.status).toBe(404)
    expect(envelopeMessage(res)).toBe('Kategori tidak ditemukan')
  })
})
