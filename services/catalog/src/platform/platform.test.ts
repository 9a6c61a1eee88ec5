import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { get } from '@app/kit/testing'
import { createTestCatalog } from '../testing'
import { SETTINGS_KEYS } from './model'

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
beforeAll(async () => {
  ctx = await createTestCatalog()
})
afterAll(async () => {
  await ctx.database.close()
})

describe('GET /api/stats', () => {
  test('counts follow DESIGN.md definitions', async () => {
    const [expected] = await ctx.database.rows<Record<string, number>>(sql`
      select
        (select count(*)::int from events) as total_events,
        (select count(*)::int from events where status = 'published') as published_events,
        (select count(*)::int from categories where is_active) as total_categories,
        (select count(*)::int from cities) as total_cities,
        (select count(*)::int from news_articles where status = 'published') as total_news`)
    const res = await get(ctx.app, '/api/stats')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, stats: expected })
    expect(expected.total_events).toBeGreaterThan(expected.published_events)
  })

  test('a new pending event counts in total_events only', async () => {
    const before = (await get(ctx.app, '/api/stats')).body.stats
    await ctx.database.rows(sql`
      insert into events (id, title, slug, start_date, end_date, category_id, organizer_name, status)
      values (${Bun.randomUUIDv7()}, 'Uji Statistik', 'uji-statistik', '2030-01-01', '2030-01-01',
        (select id from categories limit 1), 'Penguji', 'pending')`)
    const after = (await get(ctx.app, '/api/stats')).body.stats
    expect(after.total_events).toBe(before.total_events + 1)
    expect(after.published_events).toBe(before.published_events)
  })
})

describe('GET /api/settings', () => {
  test('every public key as a string, values from the table', async () => {
    await ctx.database.rows(sql`update settings set value = 'Judul Uji' where key = 'site_title'`)
    await ctx.database.rows(sql`insert into settings (key, value) values ('secret_internal', 'x') on conflict do nothing`)
    const res = await get(ctx.app, '/api/settings')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.settings).sort()).toEqual([...SETTINGS_KEYS].sort())
    expect(res.body.settings.site_title).toBe('Judul Uji')
    for (const v of Object.values(res.body.settings)) expect(typeof v).toBe('string')
  })

  test('a key missing from the table is an empty string', async () => {
    await ctx.database.rows(sql`delete from settings where key = 'contact_whatsapp'`)
    const res = await get(ctx.app, '/api/settings')
    expect(res.body.settings.contact_whatsapp).toBe('')
  })
})
