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

describe('GET /api/cities', () => {
  test('sorted by name, default limit 20, list fields', async () => {
    const rows = await ctx.database.rows<{ name: string }>(sql`select name from cities`)
    const res = await get(ctx.app, '/api/cities')
    expect(res.status).toBe(200)
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: rows.length,
      total_pages: Math.ceil(rows.length / 20),
      has_next: rows.length > 20,
      has_prev: false,
    })
    const names = res.body.data.map((c: any) => c.name)
    expect(names).toEqual(
      rows
        .map((r) => r.name)
        .sort((a, b) => (a < b ? -1 : 1))
        .slice(0, 20),
    )
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['id', 'image_url', 'name', 'province', 'slug', 'time_zone'])
  })

  test('q searches city and province names', async () => {
    const byProvince = await get(ctx.app, '/api/cities?q=jawa%20barat')
    const expected = await ctx.database.rows<{ slug: string }>(
      sql`select slug from cities where province = 'Jawa Barat' order by name`,
    )
    expect(byProvince.body.data.map((c: any) => c.slug)).toEqual(expected.map((r) => r.slug))
    const byName = await get(ctx.app, '/api/cities?q=makas')
    expect(byName.body.data.map((c: any) => c.slug)).toEqual(['makassar'])
  })

  test('cities span all three Indonesian time zones', async () => {
    const res = await get(ctx.app, '/api/cities?limit=100')
    expect(new Set(res.body.data.map((c: any) => c.time_zone))).toEqual(
      new Set(['Asia/Jakarta', 'Asia/Makassar', 'Asia/Jayapura']),
    )
  })

  test('bad parameters: 400 envelope', async () => {
    for (const q of ['page=0', 'limit=x', `q=${'x'.repeat(201)}`]) {
      const res = await get(ctx.app, `/api/cities?${q}`)
      expect(res.status).toBe(400)
      envelopeMessage(res)
    }
  })
})

describe('GET /api/cities/:slug', () => {
  test('detail has country, no image_url', async () => {
    const res = await get(ctx.app, '/api/cities/denpasar')
    expect(res.status).toBe(200)
    expect(res.body.city).toEqual({
      id: expect.any(String),
      name: 'Denpasar',
      slug: 'denpasar',
      province: 'Bali',
      country: 'Indonesia',
      time_zone: 'Asia/Makassar',
    })
  })

  test('unknown slug: 404 envelope', async () => {
    const res = await get(ctx.app, '/api/cities/atlantis')
    expect(res.status).toBe(404)
    expect(envelopeMessage(res)).toBe('Kota tidak ditemukan')
  })
})
