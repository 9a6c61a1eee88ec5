import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { envelopeMessage, get } from '@app/kit/testing'
import { createLogger, createRateLimiter, createResponseCache, type VersionSource } from '@app/kit'
import { createApp } from '../app'
import { createTestCatalog } from '../testing'

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
beforeAll(async () => {
  ctx = await createTestCatalog()
})
afterAll(async () => {
  await ctx.database.close()
})

async function count(where: ReturnType<typeof sql>): Promise<number> {
  const [row] = await ctx.database.rows<{ n: number }>(
    sql`select count(*)::int as n from events e where e.status = 'published' and ${where}`,
  )
  return row.n
}

/** Every published event matching a list URL, walking all pages. */
async function all(path: string) {
  const items: any[] = []
  for (let page = 1; ; page++) {
    const res = await get(ctx.app, `${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`)
    expect(res.status).toBe(200)
    items.push(...res.body.data)
    if (!res.body.pagination.has_next) return { items, total: res.body.pagination.total }
  }
}

describe('GET /api/events', () => {
  test('default page: 12 published events, contract fields and types', async () => {
    const res = await get(ctx.app, '/api/events')
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data).toHaveLength(12)
    const total = await count(sql`true`)
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 12,
      total,
      total_pages: Math.ceil(total / 12),
      has_next: true,
      has_prev: false,
      next_page: 2,
      prev_page: null,
    })
    const item = res.body.data[0]
    expect(Object.keys(item).sort()).toEqual(
      [
        'id',
        'title',
        'slug',
        'short_description',
        'poster_url',
        'start_date',
        'end_date',
        'start_time',
        'event_type',
        'venue_name',
        'city_name',
        'city_slug',
        'category_name',
        'category_slug',
        'ticket_price_min',
        'ticket_price_max',
        'is_free',
        'organizer_name',
      ].sort(),
    )
    expect(res.body.data.some((e: any) => typeof e.start_time === 'string')).toBe(true)
    for (const e of res.body.data) {
      expect(typeof e.id).toBe('string')
      expect(e.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(e.end_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      // HH:mm, or null while the organiser has not fixed the time (the demo has such events)
      if (e.start_time !== null) expect(e.start_time).toMatch(/^\d{2}:\d{2}$/)
      expect(['offline', 'online', 'hybrid']).toContain(e.event_type)
      expect(typeof e.ticket_price_min).toBe('number')
      expect([0, 1]).toContain(e.is_free)
    }
  })

  test('only published events are listed', async () => {
    const { items, total } = await all('/api/events')
    expect(items).toHaveLength(total)
    const statuses = await ctx.database.rows<{ id: string; status: string }>(sql`select id, status from events`)
    const byId = new Map(statuses.map((r) => [r.id, r.status]))
    expect(statuses.some((r) => r.status !== 'published')).toBe(true)
    for (const item of items) expect(byId.get(item.id)).toBe('published')
    expect(total).toBe(statuses.filter((r) => r.status === 'published').length)
  })

  test('kategori filters by category slug', async () => {
    const { items, total } = await all('/api/events?kategori=musik')
    expect(total).toBe(await count(sql`e.category_id = (select id from categories where slug = 'musik')`))
    expect(total).toBeGreaterThan(0)
    for (const e of items) expect(e.category_slug).toBe('musik')
  })

  test('kota filters by city slug', async () => {
    const [{ slug }] = await ctx.database.rows<{ slug: string }>(
      sql`select c.slug from cities c join events e on e.city_id = c.id and e.status = 'published' group by c.slug order by count(*) desc limit 1`,
    )
    const { items, total } = await all(`/api/events?kota=${slug}`)
    expect(total).toBe(await count(sql`e.city_id = (select id from cities where slug = ${slug})`))
    expect(total).toBeGreaterThan(0)
    for (const e of items) expect(e.city_slug).toBe(slug)
  })

  test('tag filters by tag slug', async () => {
    const { items, total } = await all('/api/events?tag=gratis')
    const expected = await ctx.database.rows<{ id: string }>(
      sql`select e.id from events e join event_tags et on et.event_id = e.id join tags t on t.id = et.tag_id where t.slug = 'gratis' and e.status = 'published'`,
    )
    expect(total).toBe(expected.length)
    expect(new Set(items.map((e) => e.id))).toEqual(new Set(expected.map((r) => r.id)))
  })

  test('format filters by event type', async () => {
    for (const format of ['offline', 'online', 'hybrid']) {
      const { items, total } = await all(`/api/events?format=${format}`)
      expect(total).toBe(await count(sql`e.event_type = ${format}`))
      expect(total).toBeGreaterThan(0)
      for (const e of items) expect(e.event_type).toBe(format)
    }
  })

  test('gratis=1 free only, gratis=0 paid only', async () => {
    const free = await all('/api/events?gratis=1')
    const paid = await all('/api/events?gratis=0')
    expect(free.total).toBe(await count(sql`e.is_free`))
    expect(free.total).toBeGreaterThan(0)
    expect(paid.total).toBeGreaterThan(0)
    for (const e of free.items) expect(e.is_free).toBe(1)
    for (const e of paid.items) expect(e.is_free).toBe(0)
    expect(free.total + paid.total).toBe(await count(sql`true`))
  })

  test('filters combine', async () => {
    const { items, total } = await all('/api/events?kategori=musik&gratis=0&format=offline')
    expect(total).toBe(
      await count(
        sql`e.category_id = (select id from categories where slug = 'musik') and not e.is_free and e.event_type = 'offline'`,
      ),
    )
    for (const e of items) {
      expect(e.category_slug).toBe('musik')
      expect(e.is_free).toBe(0)
      expect(e.event_type).toBe('offline')
    }
  })

  test('unknown kategori, kota or tag slug gives an empty list', async () => {
    for (const q of ['kategori=tidak-ada', 'kota=atlantis', 'tag=zzz']) {
      const res = await get(ctx.app, `/api/events?${q}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([])
      expect(res.body.pagination.total).toBe(0)
      expect(res.body.pagination.total_pages).toBe(0)
      expect(res.body.pagination.has_next).toBe(false)
    }
  })

  const sorted = <T>(values: T[], compare: (a: T, b: T) => number) => [...values].sort(compare)

  test('sort=created_at_desc is the default: newest first', async () => {
    const { items } = await all('/api/events')
    const rows = await ctx.database.rows<{ id: string; created_at: string }>(
      sql`select id, created_at::text from events where status = 'published'`,
    )
    const created = new Map(rows.map((r) => [r.id, new Date(r.created_at).getTime()]))
    const times = items.map((e) => created.get(e.id)!)
    expect(times).toEqual(sorted(times, (a, b) => b - a))
  })

  test('sort=start_date_asc and start_date_desc', async () => {
    const asc = (await all('/api/events?sort=start_date_asc')).items.map((e) => e.start_date)
    expect(asc).toEqual(sorted(asc, (a, b) => a.localeCompare(b)))
    const desc = (await all('/api/events?sort=start_date_desc')).items.map((e) => e.start_date)
    expect(desc).toEqual(sorted(desc, (a, b) => b.localeCompare(a)))
    expect(asc[0]).not.toBe(asc[asc.length - 1])
  })

  test('sort=price_asc', async () => {
    const prices = (await all('/api/events?sort=price_asc')).items.map((e) => e.ticket_price_min)
    expect(prices).toEqual(sorted(prices, (a, b) => a - b))
    expect(prices[0]).toBe(0)
  })

  test('sort=title_asc', async () => {
    const titles = (await all('/api/events?sort=title_asc')).items.map((e) => e.title)
    expect(titles).toEqual(sorted(titles, (a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  test('pages never repeat or skip an item, whatever the sort', async () => {
    const total = await count(sql`true`)
    for (const sort of ['created_at_desc', 'start_date_asc', 'price_asc', 'title_asc']) {
      const ids: string[] = []
      for (let page = 1; page <= Math.ceil(total / 7); page++) {
        const res = await get(ctx.app, `/api/events?sort=${sort}&limit=7&page=${page}`)
        ids.push(...res.body.data.map((e: any) => e.id))
      }
      expect(ids).toHaveLength(total)
      expect(new Set(ids).size).toBe(total)
    }
  })

  test('last page, past the end, limit clamp', async () => {
    const total = await count(sql`true`)
    const last = Math.ceil(total / 12)
    const lastPage = await get(ctx.app, `/api/events?page=${last}`)
    expect(lastPage.body.data).toHaveLength(total - (last - 1) * 12)
    expect(lastPage.body.pagination).toMatchObject({
      page: last,
      has_next: false,
      has_prev: true,
      next_page: null,
      prev_page: last - 1,
    })

    const past = await get(ctx.app, `/api/events?page=${last + 5}`)
    expect(past.status).toBe(200)
    expect(past.body.data).toEqual([])
    expect(past.body.pagination).toMatchObject({ total, has_next: false, next_page: null })

    const clamped = await get(ctx.app, '/api/events?limit=1000')
    expect(clamped.status).toBe(200)
    expect(clamped.body.pagination.limit).toBe(100)
    expect(clamped.body.data).toHaveLength(Math.min(100, total))
  })

  test('invalid page, limit, sort, format, gratis give a 400 envelope naming the parameter', async () => {
    const cases: [string, string][] = [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['sort=harga', 'sort'],
      ['format=offline;drop', 'format'],
      ['gratis=2', 'gratis'],
      ['gratis=ya', 'gratis'],
    ]
    for (const [query, field] of cases) {
      const res = await get(ctx.app, `/api/events?${query}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain(field)
      expect(res.body.details?.[0]?.field).toBe(field)
    }
  })

  describe('q search', () => {
    test('matches title, organizer and description words, case- and accent-insensitively', async () => {
      for (const q of ['jazz', 'JAZZ', 'jázz', 'Jazz Gunung Indonesia']) {
        const res = await get(ctx.app, `/api/events?q=${encodeURIComponent(q)}`)
        expect(res.status).toBe(200)
        expect(res.body.data.map((e: any) => e.slug)).toContain('jazz-gunung-bromo')
      }
      // organizer only
      const byOrganizer = await get(ctx.app, '/api/events?q=Rajawali')
      expect(byOrganizer.body.data.map((e: any) => e.slug)).toEqual(['festival-rock-nusantara'])
      // a word that is only in the description body
      const byBody = await get(ctx.app, '/api/events?q=identitas')
      expect(byBody.body.pagination.total).toBe(await count(sql`e.description ilike '%identitas%'`))
    })

    test('partial words and small typos still match', async () => {
      const prefix = await get(ctx.app, '/api/events?q=konse')
      expect(prefix.body.data.length).toBeGreaterThan(0)
      for (const e of prefix.body.data)
        expect(e.title.toLowerCase() + e.organizer_name.toLowerCase() + e.short_description.toLowerCase()).toMatch(/kons|konse/)
      const typo = await get(ctx.app, '/api/events?q=maraton%20borobudr')
      expect(typo.body.data.map((e: any) => e.slug)).toContain('maraton-candi-borobudur')
    })

    test('q combines with filters and sorts', async () => {
      const res = await get(ctx.app, '/api/events?q=festival&kategori=musik&sort=title_asc')
      expect(res.status).toBe(200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const e of res.body.data) {
        expect(e.category_slug).toBe('musik')
        expect(e.title.toLowerCase()).toContain('festival')
      }
    })

    test('hostile q never answers 500', async () => {
      const hostile = [
        "' OR 1=1 --",
        "'; drop table events; --",
        'jazz & | ! ( ) : * <-> \\',
        '%_%',
        '<script>alert(1)</script>',
        '🎸🎶 konser',
        'Café Déjà-vu naïve',
        '   ',
      ]
      for (const q of hostile) {
        const res = await get(ctx.app, `/api/events?q=${encodeURIComponent(q)}`)
        expect(res.status).toBe(200)
        expect(res.body.success).toBe(true)
      }
      // control characters are refused at the edge (kit input guard): 400, never a query
      const nul = await get(ctx.app, '/api/events?q=%00')
      expect(nul.status).toBe(400)
      expect(nul.body.success).toBe(false)
      const injected = await get(ctx.app, `/api/events?q=${encodeURIComponent("' OR 1=1 --")}`)
      expect(injected.body.pagination.total).toBeLessThan(await count(sql`true`))
      const [{ n }] = await ctx.database.rows<{ n: number }>(sql`select count(*)::int as n from events`)
      expect(n).toBeGreaterThan(0)

      const long = await get(ctx.app, `/api/events?q=${'a'.repeat(10_000)}`)
      expect(long.status).toBe(400)
      expect(envelopeMessage(long)).toContain('q')
    })
  })
})

describe('GET /api/events/:slug', () => {
  test('detail by slug with every contract field', async () => {
    const res = await get(ctx.app, '/api/events/jazz-gunung-bromo')
    expect(res.status).toBe(200)
    const e = res.body.event
    for (const key of [
      'id',
      'title',
      'slug',
      'description',
      'poster_url',
      'gallery',
      'start_date',
      'end_date',
      'start_time',
      'end_time',
      'event_type',
      'venue_name',
      'venue_address',
      'city_name',
      'category_name',
      'organizer_name',
      'contact_phone',
      'ticket_url',
      'is_free',
      'ticket_price_min',
      'tags',
      'latitude',
      'longitude',
    ])
      expect(e).toHaveProperty(key)
    expect(e.slug).toBe('jazz-gunung-bromo')
    expect(e.description).toContain('<p>')
    expect(e.end_time).toMatch(/^\d{2}:\d{2}$/)
    expect(e.gallery[0]).toEqual({ url: expect.any(String), caption: expect.any(String) })
    const tagSlugs = e.tags.map((t: any) => t.slug).sort()
    const expected = await ctx.database.rows<{ slug: string }>(
      sql`select t.slug from tags t join event_tags et on et.tag_id = t.id where et.event_id = ${e.id} order by t.slug`,
    )
    expect(tagSlugs).toEqual(expected.map((r) => r.slug))
    expect(e.tags[0]).toEqual({ id: expect.any(String), name: expect.any(String), slug: expect.any(String) })
  })

  test('detail by id gives the same event', async () => {
    const bySlug = await get(ctx.app, '/api/events/jazz-gunung-bromo')
    const byId = await get(ctx.app, `/api/events/${bySlug.body.event.id}`)
    expect(byId.status).toBe(200)
    expect(byId.body).toEqual(bySlug.body)
  })

  test('unknown slug or id: 404 envelope', async () => {
    for (const slug of ['tidak-ada', '01900000-0000-7000-8000-000000000000', "x' or '1'='1"]) {
      const res = await get(ctx.app, `/api/events/${encodeURIComponent(slug)}`)
      expect(res.status).toBe(404)
      expect(envelopeMessage(res)).toBe('Event tidak ditemukan')
    }
  })

  test('an event that exists but is not published answers 404 by slug and by id', async () => {
    const hidden = await ctx.database.rows<{ id: string; slug: string }>(
      sql`select id, slug from events where status <> 'published'`,
    )
    expect(hidden.length).toBeGreaterThan(0)
    for (const { id, slug } of hidden) {
      expect((await get(ctx.app, `/api/events/${slug}`)).status).toBe(404)
      expect((await get(ctx.app, `/api/events/${id}`)).status).toBe(404)
    }
  })
})

describe('caching', () => {
  test('public GETs carry an ETag, answer If-None-Match with 304, and must be revalidated', async () => {
    for (const path of [
      '/api/events',
      '/api/events/jazz-gunung-bromo',
      '/api/categories',
      '/api/cities',
      '/api/tags',
      '/api/stats',
      '/api/settings',
    ]) {
      const res = await get(ctx.app, path)
      expect(res.status).toBe(200)
      const etag = res.headers.get('etag')!
      expect(etag).toBeTruthy()
      expect(res.headers.get('cache-control')).toBe('public, no-cache')
      const again = await get(ctx.app, path, { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
    }
  })

  test('a write is visible on the very next request (no stale cache)', async () => {
    const before = await get(ctx.app, '/api/events?sort=title_asc&limit=1')
    const first = before.body.data[0]
    await ctx.database.rows(sql`update events set title = ${'AAA ' + first.title} where id = ${first.id}`)
    const after = await get(ctx.app, '/api/events?sort=title_asc&limit=1', {
      headers: { 'if-none-match': before.headers.get('etag')! },
    })
    expect(after.status).toBe(200)
    expect(after.body.data[0].title).toBe('AAA ' + first.title)
    const detail = await get(ctx.app, `/api/events/${first.slug}`)
    expect(detail.body.event.title).toBe('AAA ' + first.title)
    await ctx.database.rows(sql`update events set status = 'draft' where id = ${first.id}`)
    expect((await get(ctx.app, `/api/events/${first.slug}`)).status).toBe(404)
  })
})

describe('search after a write', () => {
  test('a prefix finds an event published afterwards with a new word (its cached rewrite is dropped)', async () => {
    // a cache told each write's version and keys by the database's notifications, and nothing
    // else (production's listening source also polls while it has no recent heartbeat, which
    // drops everything on a change and would hide a missing key)
    const [row] = await ctx.database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
    let version = Number(row.version)
    const listeners: ((version: number, keys: string[] | null) => void)[] = []
    const versions: VersionSource = { current: async () => version, onChange: (listener) => void listeners.push(listener) }
    const unlisten = await ctx.database.listen('data_version', (payload) => {
      const { v, k } = payload.startsWith('{')
        ? (JSON.parse(payload) as { v: number; k: string[] })
        : { v: Number(payload), k: null }
      for (const listener of listeners) listener(v, k)
      version = Math.max(version, v)
    })
    const app = createApp({
      database: ctx.database,
      cache: createResponseCache({ versions }),
      rateLimiter: createRateLimiter(ctx.database),
      submitLimitPerHour: 1000,
      trustedProxies: ['*'],
      logger: createLogger('silent'),
    })
    const ids = async () => (await get(app, '/api/events?q=zyxq')).body.data.map((e: { id: string }) => e.id).sort()
    /** A write, then until the cache was told every version it made (at most 3 s). */
    const write = async (statement: ReturnType<typeof sql>) => {
      await ctx.database.rows(statement)
      const [now] = await ctx.database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
      for (const deadline = Date.now() + 3000; version < Number(now.version) && Date.now() < deadline;) await Bun.sleep(10)
      expect(version).toBe(Number(now.version))
    }
    try {
      const [first, second] = await ctx.database.rows<{ id: string }>(
        sql`select id from events where status = 'pending' order by id limit 2`,
      )
      await write(sql`update events set status = 'published', title = 'Zyxqaaa Serenade' where id = ${first.id}`)
      expect(await ids()).toEqual([first.id])
      // 'zyxq' now stands for the lexeme 'zyxqaaa' (cached): a second word with that prefix must join it
      await write(sql`update events set status = 'published', title = 'Zyxqbbb Serenade' where id = ${second.id}`)
      expect(await ids()).toEqual([first.id, second.id].sort())
      await write(sql`update events set status = 'draft' where id in (${first.id}, ${second.id})`)
      expect(await ids()).toEqual([])
    } finally {
      await unlisten()
    }
  })
})

describe('GET /api/events: one cache entry per answer', () => {
  test('page=1, limit=12, a limit above 100 and sort=created_at_desc written out share the entry of the defaults', async () => {
    const first = await get(ctx.app, '/api/events?kota=bandung')
    expect(first.headers.get('x-cache')).toBe('miss')
    for (const path of [
      '/api/events?kota=bandung&page=1',
      '/api/events?kota=bandung&limit=12',
      '/api/events?sort=created_at_desc&kota=bandung&page=1&limit=12',
    ]) {
      const res = await get(ctx.app, path)
      expect([res.status, res.headers.get('x-cache')]).toEqual([200, 'hit'])
      expect(res.body).toEqual(first.body)
    }
    const capped = await get(ctx.app, '/api/events?kota=bandung&limit=100')
    expect(capped.headers.get('x-cache')).toBe('miss')
    const above = await get(ctx.app, '/api/events?kota=bandung&limit=500')
    expect([above.headers.get('x-cache'), above.body]).toEqual(['hit', capped.body])
    // another page or order is another answer
    for (const path of ['/api/events?kota=bandung&page=2', '/api/events?kota=bandung&sort=title_asc'])
      expect((await get(ctx.app, path)).headers.get('x-cache')).toBe('miss')
  })

  test('a search by the same words in another case, order, spacing or repeated shares one entry, but not by relevance', async () => {
    const first = await get(ctx.app, '/api/events?q=jazz%20gunung')
    expect([first.status, first.headers.get('x-cache')]).toEqual([200, 'miss'])
    expect(first.body.data.map((e: { slug: string }) => e.slug)).toContain('jazz-gunung-bromo')
    for (const q of ['Gunung%20%20JAZZ!', 'gunung+jazz+jazz', 'J%C3%A1zz-gunung']) {
      const res = await get(ctx.app, `/api/events?q=${q}`)
      expect([res.status, res.headers.get('x-cache')]).toEqual([200, 'hit'])
      expect(res.body).toEqual(first.body)
    }
    // another word is another answer; relevance keeps the words' order (its rank sums per term)
    expect((await get(ctx.app, '/api/events?q=jazz%20gunung%20bromo')).headers.get('x-cache')).toBe('miss')
    const ranked = await get(ctx.app, '/api/events?q=jazz%20gunung&sort=relevance')
    const reversed = await get(ctx.app, '/api/events?q=gunung%20jazz&sort=relevance')
    expect([ranked.headers.get('x-cache'), reversed.headers.get('x-cache')]).toEqual(['miss', 'miss'])
    expect(reversed.body.pagination.total).toBe(first.body.pagination.total)
  })
})
