// Finer invalidation end to end: the real triggers (migration 0008) tell a listening cache what a
// write changed, and only the answers depending on it are computed again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createListeningVersionSource, createLogger, createRateLimiter, createResponseCache, type ResponseCache } from '@app/kit'
import { get, post } from '@app/kit/testing'
import { createApp } from '../app'

let database: TestDatabase
let cache: ResponseCache
let app: ReturnType<typeof createApp>
let trusted: () => boolean

beforeAll(async () => {
  database = await createTestDatabase()
  const versions = createListeningVersionSource(database, { service: 'test', heartbeatMs: 100 })
  trusted = versions.trusted
  cache = createResponseCache({ versions })
  app = createApp({
    database,
    cache,
    rateLimiter: createRateLimiter(database),
    submitLimitPerHour: 1000,
    trustedProxies: ['*'],
    logger: createLogger('silent'),
  })
  await versions.current()
  const deadline = Date.now() + 15_000
  while (!trusted()) {
    if (Date.now() > deadline) throw new Error('listener never trusted')
    await Bun.sleep(20)
  }
}, 60_000)
afterAll(async () => {
  await cache?.close()
  await database?.close()
})

/** Waits until the cache has applied the newest version (its notification arrived). */
async function settled() {
  const [{ version }] = await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
  const deadline = Date.now() + 5000
  for (;;) {
    const before = cache.stats()
    // a read that is a hit proves nothing about the version; ask the source through a miss-free path
    await get(app, '/health')
    const [{ acked }] = await database.rows<{ acked: string | null }>(
      sql`select max(acked_version)::text as acked from cache_replicas where service = 'test'`,
    )
    if (Number(acked) >= Number(version)) return before
    if (Date.now() > deadline) throw new Error('the write was never acknowledged')
    await Bun.sleep(20)
  }
}

/** Whether answering `path` computed it (a miss) or came from the cache (a hit). */
async function missed(path: string): Promise<boolean> {
  const before = cache.stats().misses
  const res = await get(app, path)
  expect(res.status).toBeLessThan(500)
  return cache.stats().misses > before
}

async function publishedEvent(where: ReturnType<typeof sql>) {
  const [row] = await database.rows<{ id: string; slug: string; category: string; city: string | null }>(sql`
    select e.id, e.slug, c.slug as category, ci.slug as city from events e
    join categories c on c.id = e.category_id left join cities ci on ci.id = e.city_id
    where e.status = 'published' and ${where} order by e.slug limit 1`)
  return row
}

describe('what a write drops from the cache', () => {
  test('a pending submission changes stats only: details and lists stay cached', async () => {
    const event = await publishedEvent(sql`true`)
    const detail = `/api/events/${event.slug}`
    const list = `/api/events?kategori=${event.category}`
    for (const path of [detail, list, '/api/stats', '/api/categories']) await get(app, path)
    const [{ id: categoryId }] = await database.rows<{ id: string }>(sql`select id from categories where is_active limit 1`)
    const res = await post(app, '/api/events/submit', {
      title: 'Uji Invalidasi Halus',
      category_id: categoryId,
      start_date: '2027-05-01',
      organizer_name: 'Penguji',
      contact_email: 'uji@example.id',
      tags: 'tag-baru-uji-invalidasi',
    })
    expect(res.status).toBe(201)
    await settled()
    expect(await missed(detail)).toBe(false)
    expect(await missed(list)).toBe(false)
    expect(await missed('/api/categories')).toBe(false)
    // total_events counts every status
    expect(await missed('/api/stats')).toBe(true)
  })

  test('an approval drops that event, the lists of its city/category/tags, counts and stats; not other details', async () => {
    const pending = await database.rows<{ id: string; slug: string; category: string }>(sql`
      select e.id, e.slug, c.slug as category from events e join categories c on c.id = e.category_id
      where e.title = 'Uji Invalidasi Halus'`)
    const target = pending[0]
    const other = await publishedEvent(
      sql`e.category_id <> (select category_id from events where id = ${target.id}) and e.city_id is not null
        and not exists (select 1 from event_tags et where et.event_id = e.id)`,
    )
    const unrelated =
      other ?? (await publishedEvent(sql`e.category_id <> (select category_id from events where id = ${target.id})`))
    const paths = {
      target: `/api/events/${target.slug}`,
      targetList: `/api/events?kategori=${target.category}`,
      unrelatedDetail: `/api/events/${unrelated.slug}`,
      unrelatedList: `/api/events?kategori=${unrelated.category}`,
      all: '/api/events',
      categories: '/api/categories',
    }
    for (const path of Object.values(paths)) await get(app, path)
    expect((await get(app, paths.target)).status).toBe(404)
    await database.rows(sql`update events set status = 'published', published_at = now() where id = ${target.id}`)
    await settled()
    // the next read shows the write...
    const shown = await get(app, paths.target)
    expect(shown.status).toBe(200)
    for (const path of [paths.targetList, paths.all, paths.categories]) expect(await missed(path)).toBe(true)
    // ...and what it cannot have changed stays cached
    expect(await missed(paths.unrelatedList)).toBe(false)
    if (other) expect(await missed(paths.unrelatedDetail)).toBe(false)
  })

  test('a write the triggers describe only coarsely (a category rename) drops everything', async () => {
    const event = await publishedEvent(sql`true`)
    const detail = `/api/events/${event.slug}`
    await get(app, detail)
    expect(await missed(detail)).toBe(false)
    await database.rows(sql`update categories set name = name || ' ' where slug = ${event.category}`)
    await settled()
    expect(await missed(detail)).toBe(true)
  })
})
