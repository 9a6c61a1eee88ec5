// Cached answers and scheduled articles: an article whose published_at passes appears without
// any write, so the cache must not outlive that moment.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { get } from '@app/kit/testing'
import { createTestNews } from '../testing'

let ctx: Awaited<ReturnType<typeof createTestNews>>
beforeAll(async () => {
  ctx = await createTestNews()
})
afterAll(async () => {
  await ctx.database.close()
})

test('a scheduled article appears in list and detail once its time comes, though nothing was written', async () => {
  await ctx.database.rows(sql`
    insert into news_articles (id, title, slug, category, author_name, status, published_at)
    values (${Bun.randomUUIDv7()}, 'Artikel Terjadwal', 'artikel-terjadwal', 'Tips', 'Redaksi', 'published', now() + interval '2 seconds')`)
  const before = await get(ctx.app, '/api/news?limit=50')
  expect(before.body.data.map((a: any) => a.slug)).not.toContain('artikel-terjadwal')
  expect((await get(ctx.app, '/api/news/artikel-terjadwal')).status).toBe(404)
  // cached now; the next answers must still change when the time passes
  await Bun.sleep(2500)
  const after = await get(ctx.app, '/api/news?limit=50', { headers: { 'if-none-match': before.headers.get('etag')! } })
  expect(after.status).toBe(200)
  expect(after.body.data[0].slug).toBe('artikel-terjadwal')
  expect(after.body.pagination.total).toBe(before.body.pagination.total + 1)
  expect((await get(ctx.app, '/api/news/artikel-terjadwal')).status).toBe(200)
})
