// The whole moderation path as users see it, through the public catalog and the admin service
// mounted in ONE app over ONE database (as `bun start` does): submit -> pending in the admin
// list, invisible publicly -> approve -> public in list, detail, category counts, tags and stats.
// (Services never import each other; only the composition root and these root tests combine them.)
import { afterAll, beforeAll, expect, test, setDefaultTimeout } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createBaseApp, createLogger, createRateLimiter, readConfig } from '@app/kit'
import { get, post } from '@app/kit/testing'
import { catalogDepsFromConfig, catalogService } from '@app/catalog'
import { adminService } from '@app/admin'
import { loginAs, withCookie } from '../services/admin/src/testing'

// argon2id costs ~200 ms per login and PGlite seconds to start: generous on a busy machine
setDefaultTimeout(60_000)

let database: TestDatabase
let server: Awaited<ReturnType<typeof build>>
let viaSubmit = false

async function build(database: TestDatabase) {
  const shared = { database, rateLimiter: createRateLimiter(database) }
  const logger = createLogger('silent')
  return createBaseApp({ service: 'all', logger, checks: {} })
    .use(catalogService({ ...(await catalogDepsFromConfig(readConfig({}), shared)), trustedProxies: ['*'] }))
    .use(adminService({ ...shared, trustedProxies: ['*'], cookieSecure: false, loginMaxFailures: 5 }))
}

// PGlite needs a few seconds to start, more on a busy machine
beforeAll(async () => {
  database = await createTestDatabase()
  server = await build(database)
}, 60_000)
afterAll(async () => {
  await database.close()
})

/** Submits through POST /api/events/submit; falls back to SQL only while that route is missing. */
async function submit(input: { title: string; categoryId: string; cityId: string }) {
  const res = await post(
    server,
    '/api/events/submit',
    {
      title: input.title,
      category_id: input.categoryId,
      city_id: input.cityId,
      start_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      start_time: '19:00',
      organizer_name: 'Komunitas Uji Alur',
      contact_email: 'panitia@uji-alur.id',
      ticket_price_min: 25000,
      tags: 'Alur Moderasi Uji',
    },
    { headers: { 'x-forwarded-for': '203.0.113.9' } },
  )
  if (res.status !== 404) {
    expect(res.status).toBe(201)
    viaSubmit = true
    return res.body.event as { id: string; slug: string }
  }
  // NOTE: only while the catalog's submit route is not there yet
  console.warn('POST /api/events/submit is missing: the pending event is inserted with SQL instead')
  const id = Bun.randomUUIDv7()
  const slug = 'alur-moderasi-uji'
  await database.rows(sql`
    insert into events (id, title, slug, start_date, end_date, category_id, city_id, organizer_name, contact_email, status)
    values (${id}, ${input.title}, ${slug}, current_date + 30, current_date + 30, ${input.categoryId}, ${input.cityId},
            'Komunitas Uji Alur', 'panitia@uji-alur.id', 'pending')`)
  return { id, slug }
}

test('submit -> pending in the admin list -> approve -> public everywhere at once', async () => {
  const [category] = await database.rows<{ id: string; slug: string }>(sql`select id, slug from categories where slug = 'musik'`)
  const [city] = await database.rows<{ id: string; slug: string }>(sql`select id, slug from cities order by name limit 1`)
  const categoryCount = async () => {
    const res = await get(server, '/api/categories?limit=100&active_only=0')
    return res.body.data.find((c: any) => c.slug === category.slug).event_count as number
  }
  const stats = async () => (await get(server, '/api/stats')).body.stats
  const publicList = async () => (await get(server, `/api/events?kota=${city.slug}&limit=100`)).body
  const tagListed = async () =>
    (await get(server, '/api/tags?q=moderasi&limit=100')).body.data.some((t: any) => t.name === 'Alur Moderasi Uji')

  const before = { count: await categoryCount(), stats: await stats(), list: await publicList() }

  // 1. submitted: pending, stored, not public
  const event = await submit({ title: 'Konser Uji Alur Moderasi', categoryId: category.id, cityId: city.id })
  expect((await get(server, `/api/events/${event.slug}`)).status).toBe(404)
  expect((await get(server, `/api/events/${event.id}`)).status).toBe(404)
  expect((await publicList()).pagination.total).toBe(before.list.pagination.total)
  expect(await categoryCount()).toBe(before.count)
  expect(await tagListed()).toBe(false)
  const afterSubmit = await stats()
  expect(afterSubmit.published_events).toBe(before.stats.published_events)
  expect(afterSubmit.total_events).toBe(before.stats.total_events + 1)

  // 2. the admin sees it first in the pending queue
  const cookie = await loginAs(server, database, { username: 'penguji', password: 'alur-lengkap-12345' })
  const queue = await get(server, '/api/admin/events?status=pending', withCookie(cookie))
  expect(queue.status).toBe(200)
  expect(queue.body.events[0]).toMatchObject({
    id: event.id,
    slug: event.slug,
    title: 'Konser Uji Alur Moderasi',
    status: 'pending',
    category_slug: 'musik',
    contact_email: 'panitia@uji-alur.id',
    published_at: null,
  })

  // 3. approve
  const approved = await post(server, `/api/admin/events/${event.id}/approve`, undefined, withCookie(cookie))
  expect(approved.status).toBe(200)
  expect(approved.body).toMatchObject({ success: true, message: expect.any(String) })

  // 4. public at once: detail by slug and by id, list, category count, stats
  const detail = await get(server, `/api/events/${event.slug}`)
  expect(detail.status).toBe(200)
  expect(detail.body.event).toMatchObject({ id: event.id, title: 'Konser Uji Alur Moderasi', category_slug: 'musik' })
  expect((await get(server, `/api/events/${event.id}`)).status).toBe(200)
  const list = await publicList()
  expect(list.pagination.total).toBe(before.list.pagination.total + 1)
  expect(list.data[0].id).toBe(event.id) // newest first
  expect(await categoryCount()).toBe(before.count + 1)
  if (viaSubmit) expect(await tagListed()).toBe(true)
  const afterApprove = await stats()
  expect(afterApprove.published_events).toBe(before.stats.published_events + 1)
  expect(afterApprove.total_events).toBe(before.stats.total_events + 1)
  expect(
    (await get(server, '/api/admin/events?status=pending', withCookie(cookie))).body.events.map((e: any) => e.id),
  ).not.toContain(event.id)
  const published = await get(server, `/api/admin/events?q=${event.id}`, withCookie(cookie))
  expect(published.body.events[0]).toMatchObject({ id: event.id, status: 'published', published_at: expect.stringMatching(/Z$/) })

  // 5. approving again is a conflict; the public side is unchanged
  expect((await post(server, `/api/admin/events/${event.id}/approve`, undefined, withCookie(cookie))).status).toBe(409)
  expect((await stats()).published_events).toBe(afterApprove.published_events)
})

test('a rejected submission never becomes public', async () => {
  const [category] = await database.rows<{ id: string }>(sql`select id from categories where slug = 'musik'`)
  const [city] = await database.rows<{ id: string }>(sql`select id from cities order by name limit 1`)
  const before = (await get(server, '/api/stats')).body.stats.published_events
  const event = await submit({ title: 'Acara Yang Ditolak Uji', categoryId: category.id, cityId: city.id })
  const cookie = await loginAs(server, database, { username: 'penguji', password: 'alur-lengkap-12345' })
  const res = await post(server, `/api/admin/events/${event.id}/reject`, { reason: 'Data tidak lengkap' }, withCookie(cookie))
  expect(res.status).toBe(200)
  expect((await get(server, `/api/events/${event.slug}`)).status).toBe(404)
  expect((await get(server, '/api/stats')).body.stats.published_events).toBe(before)
  const rejected = await get(server, '/api/admin/events?status=rejected', withCookie(cookie))
  expect(rejected.body.events.map((e: any) => e.id)).toContain(event.id)
})
