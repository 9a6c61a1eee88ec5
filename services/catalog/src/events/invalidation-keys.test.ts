// Finer invalidation end to end: the real triggers (migration 0008) tell a listening cache what a
// write changed, and only the answers depending on it are computed again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createListeningVersionSource, createLogger, createRateLimiter, createResponseCache, type ResponseCache } from '@app/kit'
import { get, post } from '@app/kit/testing'
import { createApp } from '../app'
import { createListIndex, type ListIndex } from './list-index'

let database: TestDatabase
let cache: ResponseCache
let app: ReturnType<typeof createApp>
let trusted: () => boolean
/** the same service with the list index (related events from memory), cached the same way */
let indexed: { app: ReturnType<typeof createApp>; cache: ResponseCache; index: ListIndex }
/** no cache at all: what every answer must equal */
let uncached: ReturnType<typeof createApp>

beforeAll(async () => {
  database = await createTestDatabase()
  const versions = createListeningVersionSource(database, { service: 'test', heartbeatMs: 100 })
  trusted = versions.trusted
  cache = createResponseCache({ versions })
  const appWith = (cache: ResponseCache, listIndex?: ListIndex) =>
    createApp({
      database,
      cache,
      listIndex,
      rateLimiter: createRateLimiter(database),
      submitLimitPerHour: 1000,
      trustedProxies: ['*'],
      logger: createLogger('silent'),
    })
  app = appWith(cache)
  const indexedCache = createResponseCache({ versions })
  const index = createListIndex(database)
  indexed = { app: appWith(indexedCache, index), cache: indexedCache, index }
  uncached = appWith(createResponseCache({ versions, maxBytes: 0 }))
  await versions.current()
  const deadline = Date.now() + 15_000
  while (!trusted()) {
    if (Date.now() > deadline) throw new Error('listener never trusted')
    await Bun.sleep(20)
  }
}, 60_000)
afterAll(async () => {
  indexed?.index.close()
  await indexed?.cache.close()
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

describe('related events: a write drops the details whose branches it may change, no others', () => {
  /** A category made to hold more upcoming events than a branch reads (7), in one city and tag. */
  let crowded: { categoryId: string; categorySlug: string; cityId: string; tagId: string; ids: string[] }

  beforeAll(async () => {
    const [category] = await database.rows<{ id: string; slug: string }>(sql`select id, slug from categories where is_active order by slug limit 1`)
    const [city] = await database.rows<{ id: string }>(sql`select id from cities order by slug limit 1`)
    const [tag] = await database.rows<{ id: string }>(sql`select id from tags order by slug limit 1`)
    const ids: string[] = []
    for (let i = 0; i < 14; i++) {
      const id = Bun.randomUUIDv7()
      ids.push(id)
      await database.rows(sql`
        insert into events (id, title, slug, start_date, end_date, category_id, city_id, organizer_name, status, is_free, event_type, published_at)
        values (${id}, ${`Acara Padat ${i}`}, ${`acara-padat-${i}`}, current_date + ${3 + i * 4}::int, current_date + ${4 + i * 4}::int,
          ${category.id}, ${i % 3 ? city.id : null}, 'Penyelenggara', 'published', true, 'offline', now())`)
      if (i % 2) await database.rows(sql`insert into event_tags (event_id, tag_id) values (${id}, ${tag.id})`)
    }
    crowded = { categoryId: category.id, categorySlug: category.slug, cityId: city.id, tagId: tag.id, ids }
    await settled()
  }, 60_000)

  async function publishedSlugs() {
    return (await database.rows<{ slug: string }>(sql`select slug from events where status = 'published' order by slug`)).map((r) => r.slug)
  }

  /** Every published detail as the two cached services answer it equals the uncached answer. */
  async function expectDetailsExact(slugs: string[]) {
    for (const slug of slugs) {
      const path = `/api/events/${slug}`
      const truth = await get(uncached, path)
      for (const [name, service] of [['cache', app], ['cache + list index', indexed.app]] as const) {
        const answer = await get(service, path)
        expect({ name, slug, status: answer.status, body: answer.text }).toEqual({ name, slug, status: truth.status, body: truth.text })
      }
    }
  }

  test("an approval far down every branch leaves its category's and tag's details cached; one among the first places drops them", async () => {
    const neighbour = (await database.rows<{ slug: string }>(sql`select slug from events where id = ${crowded.ids[1]}`))[0].slug
    const detail = `/api/events/${neighbour}`
    const list = `/api/events?kategori=${crowded.categorySlug}`
    for (const path of [detail, list]) await get(app, path)
    expect(await missed(detail)).toBe(false)
    /** An online event of the category, with the crowded tag or none, submitted then approved. */
    async function approveNew(title: string, startsIn: number, endsIn: number, tagged = false) {
      const id = Bun.randomUUIDv7()
      await database.rows(sql`
        insert into events (id, title, slug, start_date, end_date, category_id, organizer_name, status, is_free, event_type)
        values (${id}, ${title}, ${id}, current_date + ${startsIn}::int, current_date + ${endsIn}::int, ${crowded.categoryId},
          'Penyelenggara', 'pending', true, 'online')`)
      if (tagged) await database.rows(sql`insert into event_tags (event_id, tag_id) values (${id}, ${crowded.tagId})`)
      await settled()
      await database.rows(sql`update events set status = 'published', published_at = now() where id = ${id}`)
      await settled()
    }
    // the 15th event of the category by end date, no city, tagged as the neighbour (the newest of
    // the tag, but the last of its upcoming events to end): in no branch's first 7
    await approveNew('Acara Paling Akhir', 400, 401, true)
    expect(await missed(list)).toBe(true)
    expect(await missed(detail)).toBe(false)
    // the soonest of the category: its branch's first places change
    await approveNew('Acara Paling Awal', 1, 1)
    expect(await missed(detail)).toBe(true)
    await expectDetailsExact(await publishedSlugs())
  })

  test('through random writes in and out of the first places, every cached detail equals the uncached one', async () => {
    let seed = 20261125
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
    // in this order, each on a target still published, upcoming and in its place
    const writes: ((id: string) => ReturnType<typeof sql>)[] = [
      // what its card shows
      (id) => sql`update events set title = ${`Judul Baru ${Math.floor(random() * 1000)}`}, is_free = not is_free where id = ${id}`,
      // tagged or untagged (what it shares with others)
      (id) => sql`insert into event_tags (event_id, tag_id) values (${id}, ${crowded.tagId}) on conflict do nothing`,
      (id) => sql`delete from event_tags where event_id = ${id} and tag_id = ${crowded.tagId}`,
      // another city, or none
      (id) => sql`update events set city_id = case when city_id is null then ${crowded.cityId} else null end where id = ${id}`,
      // moved to the front, to the back, or into the past
      (id) => sql`update events set end_date = start_date + ${Math.floor(random() * 3)}::int where id = ${id}`,
      (id) => sql`update events set start_date = current_date + ${Math.floor(random() * 60)}::int, end_date = current_date + 60 where id = ${id}`,
      (id) => sql`update events set start_date = current_date - 10, end_date = current_date - 9 where id = ${id}`,
      // unpublished and published again
      (id) => sql`update events set status = case when status = 'published' then 'draft'::event_status else 'published'::event_status end where id = ${id}`,
    ]
    const slugs = await publishedSlugs()
    // everything cached before the first write
    await expectDetailsExact(slugs)
    // each write on the soonest of the category (no city, no tag), an early one with a city and
    // no tag, and the last; then at random
    const targets = [crowded.ids[0], crowded.ids[2], crowded.ids[crowded.ids.length - 1]]
    const planned = writes.flatMap((write) => targets.map((id) => () => write(id)))
    const randomly = Array.from({ length: 8 }, () => {
      const [write, id] = [pick(writes), pick(crowded.ids)]
      return () => write(id)
    })
    let kept = 0
    for (const write of [...planned, ...randomly]) {
      await database.rows(write())
      await settled()
      const hitsBefore = cache.stats().hits
      await expectDetailsExact(slugs)
      kept += cache.stats().hits - hitsBefore
    }
    // not everything was dropped every time: some writes were far down every branch
    expect(kept).toBeGreaterThan(0)
  }, 120_000)
})

describe('searches: a write drops the searches whose words it may match, no others (migration 0029)', () => {
  test('through submissions, approvals and edits, every cached search equals the uncached one', async () => {
    const seeded = (
      await database.rows<{ w: string }>(sql`
        select distinct w from events, regexp_split_to_table(lower(title), '[^a-z]+') as w
        where status = 'published' and length(w) >= 5 order by w limit 8`)
    ).map((r) => r.w)
    const typo = (w: string) => w.slice(0, 2) + w.slice(3)
    // zorblax: a word no event holds yet; zorblx and xorblax: typos whose stand-in it becomes
    // once submitted (xorblax shares no first letters with it: only its trigrams tie them)
    const words = [...seeded, ...seeded.slice(0, 4).map(typo), 'zorblax', 'zorblx', 'xorblax', 'orkestra']
    const paths = [
      ...words.map((q) => `/api/events?q=${q}`),
      ...seeded.slice(0, 4).map((w, i) => `/api/events?q=${w}%20${words[(i + 5) % words.length]}`),
      `/api/events?q=${seeded[0]}&sort=title_asc`,
      `/api/events?q=${seeded[1]}&sort=relevance&facets=1`,
      `/api/events?q=${seeded[2]}&limit=2&page=2`,
      `/api/events?q=zorblx&kota=bandung`,
    ]
    async function expectSearchesExact(step: string) {
      for (const path of paths) {
        const truth = await get(uncached, path)
        const answer = await get(app, path)
        expect({ step, path, status: answer.status, body: answer.text }).toEqual({ step, path, status: truth.status, body: truth.text })
      }
    }
    const [{ id: categoryId }] = await database.rows<{ id: string }>(sql`select id from categories where is_active order by slug limit 1`)
    const submitted = async (title: string) => {
      const res = await post(app, '/api/events/submit', {
        title,
        category_id: categoryId,
        start_date: '2027-06-01',
        organizer_name: 'Penguji Pencarian',
        contact_email: 'cari@example.id',
      })
      expect(res.status).toBe(201)
      return (res.body as { event: { id: string } }).event.id
    }
    const [target] = await database.rows<{ id: string }>(sql`select id from events where status = 'published' order by id desc limit 1`)
    let newcomer = ''
    const steps: [string, () => Promise<unknown>][] = [
      ['submitted (a new dictionary word, nothing public)', async () => (newcomer = await submitted('Malam Zorblax Raya'))],
      ['approved', () => database.rows(sql`update events set status = 'published', published_at = now() where id = ${newcomer}`)],
      ['a title takes a seeded word', () => database.rows(sql`update events set title = ${`Orkestra ${seeded[3]}`} where id = ${target.id}`)],
      ['a price changes (no word)', () => database.rows(sql`update events set ticket_price_min = 75000, is_free = false where id = ${target.id}`)],
      ['the newcomer loses its word', () => database.rows(sql`update events set title = 'Malam Raya' where id = ${newcomer}`)],
      ['the newcomer gets it back', () => database.rows(sql`update events set title = 'Malam Zorblax Raya' where id = ${newcomer}`)],
      ['unpublished', () => database.rows(sql`update events set status = 'draft' where id = ${target.id}`)],
      ['deleted', () => database.rows(sql`delete from events where id = ${newcomer}`)],
    ]
    await expectSearchesExact('before any write')
    let kept = 0
    for (const [step, write] of steps) {
      await write()
      await settled()
      const hitsBefore = cache.stats().hits
      await expectSearchesExact(step)
      kept += cache.stats().hits - hitsBefore
      if (step === 'approved')
        // found by its word and by both typos, from the cache
        for (const q of ['zorblax', 'zorblx', 'xorblax']) {
          const { body } = await get(app, `/api/events?q=${q}`)
          expect({ q, titles: (body.data as { title: string }[]).map((e) => e.title) }).toEqual({ q, titles: ['Malam Zorblax Raya'] })
        }
    }
    // not every search was dropped by every write
    expect(kept).toBeGreaterThan(0)
  }, 120_000)
})
