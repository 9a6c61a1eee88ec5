import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { sql } from 'drizzle-orm'
import { call, envelopeMessage, get, post } from '@app/kit/testing'
import { createTestAdmin, loginAs, withCookie } from '../testing'

// argon2id costs ~200 ms per login and PGlite seconds to start: generous on a busy machine
setDefaultTimeout(60_000)

let ctx: Awaited<ReturnType<typeof createTestAdmin>>
let cookie: string
let adminId: string

// PGlite needs a few seconds to start, more on a busy machine
beforeAll(async () => {
  ctx = await createTestAdmin()
  cookie = await loginAs(ctx.app, ctx.database, { username: 'dewi', password: 'moderasi-itu-penting', name: 'Dewi' })
  ;[{ id: adminId }] = await ctx.database.rows<{ id: string }>(sql`select id from admin_users where username = 'dewi'`)
}, 60_000)
afterAll(async () => {
  await ctx.database.close()
})

const list = (query = '') => get(ctx.app, `/api/admin/events${query}`, withCookie(cookie))
const approve = (id: string) =>
  post(ctx.app, `/api/admin/events/${encodeURIComponent(id)}/approve`, undefined, withCookie(cookie))
const reject = (id: string, body?: unknown) =>
  post(ctx.app, `/api/admin/events/${encodeURIComponent(id)}/reject`, body, withCookie(cookie))

async function countWhere(where: ReturnType<typeof sql>): Promise<number> {
  const [row] = await ctx.database.rows<{ n: number }>(sql`select count(*)::int as n from events where ${where}`)
  return row.n
}

let made = 0
/**
 * A new event in `status` (the demo data has only a handful of non-published ones): a copy of
 * a demo event with its own id and slug, tags included.
 */
async function eventOf(status: string): Promise<{ id: string; slug: string }> {
  const id = Bun.randomUUIDv7()
  const slug = `uji-moderasi-${++made}-${id.slice(-6)}`
  await ctx.database.rows(sql`
    insert into events (id, title, slug, short_description, description, start_date, end_date, start_time, event_type,
                        venue_name, city_id, category_id, organizer_name, contact_name, contact_email, status)
    select ${id}, 'Uji Moderasi ' || ${made}, ${slug}, short_description, description, start_date, end_date, start_time,
           event_type, venue_name, city_id, category_id, organizer_name, contact_name, contact_email, ${status}::event_status
    from events order by created_at limit 1`)
  await ctx.database.rows(sql`
    insert into event_tags (event_id, tag_id)
    select ${id}, tag_id from event_tags where event_id = (select id from events order by created_at limit 1)`)
  return { id, slug }
}

async function statusOf(id: string): Promise<string> {
  const [row] = await ctx.database.rows<{ status: string }>(sql`select status from events where id = ${id}`)
  return row.status
}

const ITEM_KEYS = [
  // the public detail
  'id',
  'title',
  'slug',
  'short_description',
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
  'latitude',
  'longitude',
  'city_name',
  'city_slug',
  'city_time_zone',
  'category_name',
  'category_slug',
  'organizer_name',
  'contact_phone',
  'ticket_url',
  'is_free',
  'ticket_price_min',
  'ticket_price_max',
  'tags',
  // moderators only
  'status',
  'contact_name',
  'contact_email',
  'created_at',
  'updated_at',
  'published_at',
  // the admin studio's own fields
  'category_id',
  'city_id',
  'is_featured',
  'is_cancelled',
  'cancelled_at',
  'deleted_at',
  'revision',
]

describe('GET /api/admin/events', () => {
  test('default: every status, 50 per page, {success, events, total, page, limit} without a pagination object', async () => {
    const res = await list()
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['events', 'limit', 'page', 'success', 'total'])
    const total = await countWhere(sql`true`)
    expect(res.body).toMatchObject({ success: true, total, page: 1, limit: 50 })
    expect(res.body.events).toHaveLength(Math.min(50, total))
    expect(new Set(res.body.events.map((e: any) => e.status)).size).toBeGreaterThan(1)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  test('item: public detail fields plus status, contacts and timestamps, with the right types', async () => {
    const { events } = (await list('?limit=100')).body
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual([...ITEM_KEYS].sort())
      expect(['published', 'pending', 'draft', 'rejected']).toContain(e.status)
      expect(e.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(e.updated_at).toMatch(/Z$/)
      expect(typeof e.ticket_price_min).toBe('number')
      expect([0, 1]).toContain(e.is_free)
      expect(Array.isArray(e.tags)).toBe(true)
      expect(typeof e.contact_email).toBe('string')
      if (e.status === 'published') expect(e.published_at).toMatch(/Z$/)
    }
    const withTags = events.find((e: any) => e.tags.length > 0)
    expect(Object.keys(withTags.tags[0]).sort()).toEqual(['id', 'name', 'slug'])
  })

  test('newest first, ties by id', async () => {
    await ctx.database.rows(sql`update events set created_at = '2020-01-01T00:00:00Z' where slug in (
      select slug from events order by id limit 3)`)
    const ids: { id: string; created_at: string }[] = []
    for (let page = 1; ; page++) {
      const res = await list(`?limit=100&page=${page}`)
      ids.push(...res.body.events.map((e: any) => ({ id: e.id, created_at: e.created_at })))
      if (res.body.events.length < 100) break
    }
    for (let i = 1; i < ids.length; i++) {
      const [a, b] = [ids[i - 1], ids[i]]
      expect(a.created_at >= b.created_at).toBe(true)
      if (a.created_at === b.created_at) expect(a.id > b.id).toBe(true)
    }
  })

  test('status filter: each value, all, and absent', async () => {
    for (const status of ['published', 'pending', 'draft', 'rejected']) {
      const res = await list(`?status=${status}&limit=100`)
      expect(res.status).toBe(200)
      expect(res.body.total).toBe(await countWhere(sql`status = ${status}`))
      expect(res.body.total).toBeGreaterThan(0)
      for (const e of res.body.events) expect(e.status).toBe(status)
    }
    const all = await list('?status=all')
    expect(all.body.total).toBe(await countWhere(sql`true`))
    expect(all.body.events).toEqual((await list()).body.events)
  })

  test('pages never repeat or skip an item; page past the end is empty; limit is clamped to 100', async () => {
    const total = await countWhere(sql`true`)
    const seen: string[] = []
    for (let page = 1; page <= Math.ceil(total / 7); page++) {
      const res = await list(`?limit=7&page=${page}`)
      expect(res.body).toMatchObject({ page, limit: 7, total })
      seen.push(...res.body.events.map((e: any) => e.id))
    }
    expect(seen).toHaveLength(total)
    expect(new Set(seen).size).toBe(total)

    const past = await list(`?page=${Math.ceil(total / 7) + 3}&limit=7`)
    expect(past.status).toBe(200)
    expect(past.body.events).toEqual([])
    expect(past.body.total).toBe(total)

    const clamped = await list('?limit=1000')
    expect(clamped.body.limit).toBe(100)
    expect(clamped.body.events).toHaveLength(Math.min(100, total))
  })

  test('filters combine with pagination: total counts the filter, not the page', async () => {
    const pending = await countWhere(sql`status = 'pending'`)
    const res = await list('?status=pending&limit=2&page=2')
    expect(res.body).toMatchObject({ total: pending, page: 2, limit: 2 })
    expect(res.body.events.length).toBe(Math.max(0, Math.min(2, pending - 2)))
  })

  test('q: words in title/organizer/description, and an exact id or slug, in every status', async () => {
    const jazz = await list('?q=jazz')
    expect(jazz.body.events.map((e: any) => e.slug)).toContain('jazz-gunung-bromo')

    const hidden = await eventOf('draft')
    const byId = await list(`?q=${hidden.id}`)
    expect(byId.body.events.map((e: any) => e.id)).toEqual([hidden.id])
    const bySlug = await list(`?q=${hidden.slug}`)
    expect(bySlug.body.events.map((e: any) => e.id)).toContain(hidden.id)

    const combined = await list('?q=festival&status=published')
    for (const e of combined.body.events) expect(e.status).toBe('published')

    const nothing = await list('?q=zzzqqqxxx')
    expect(nothing.body).toMatchObject({ events: [], total: 0 })
    const punctuation = await list(`?q=${encodeURIComponent("%' or 1=1 --")}`)
    // taken as the words "or 1 1", never as SQL: not every event matches
    expect(punctuation.status).toBe(200)
    expect(punctuation.body.total).toBeLessThan(await countWhere(sql`true`))
  })

  test('invalid status, page, limit or q: 400 envelope naming the parameter', async () => {
    const cases: [string, string][] = [
      ['status=terbit', 'status'],
      ['status=', 'status'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=-5', 'limit'],
      [`q=${'a'.repeat(201)}`, 'q'],
    ]
    for (const [query, field] of cases) {
      const res = await list(`?${query}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain(field)
    }
  })
})

describe('POST /api/admin/events/:id/approve', () => {
  test('pending -> published: 200 {success, message}, published_at set, one audit row', async () => {
    const { id } = await eventOf('pending')
    const res = await approve(id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, message: expect.any(String), event: { id, status: 'published' } })
    const [row] = await ctx.database.rows<{ status: string; published_recent: boolean; updated_recent: boolean }>(sql`
      select status, published_at > now() - interval '1 minute' as published_recent,
             updated_at > now() - interval '1 minute' as updated_recent
      from events where id = ${id}`)
    expect(row).toEqual({ status: 'published', published_recent: true, updated_recent: true })
    const audit = await ctx.database.rows(
      sql`select admin_id, from_status::text, to_status::text, reason from moderation_log where event_id = ${id}`,
    )
    expect(audit).toEqual([{ admin_id: adminId, from_status: 'pending', to_status: 'published', reason: null }])
  })

  test('draft and rejected can be approved too', async () => {
    for (const status of ['draft', 'rejected']) {
      const { id } = await eventOf(status)
      const res = await approve(id)
      expect(res.status).toBe(200)
      expect(await statusOf(id)).toBe('published')
      const [audit] = await ctx.database.rows<{ from_status: string }>(
        sql`select from_status::text from moderation_log where event_id = ${id}`,
      )
      expect(audit.from_status).toBe(status)
    }
  })

  test('already published: 409, nothing written', async () => {
    const { id } = await eventOf('published')
    const res = await approve(id)
    expect(res.status).toBe(409)
    expect(envelopeMessage(res)).toBe('Event sudah diterbitkan')
    expect(await countLog(id)).toBe(0)
  })

  test('unknown id: 404', async () => {
    for (const id of [Bun.randomUUIDv7(), 'tidak-ada', "1' or '1'='1", 'x'.repeat(100)]) {
      const res = await approve(id)
      expect(res.status).toBe(404)
      expect(envelopeMessage(res)).toBe('Event tidak ditemukan')
    }
    expect((await approve('x'.repeat(101))).status).toBe(400)
  })

  test('works with no body, an empty JSON body, or any ignored body', async () => {
    const ids = [await eventOf('pending'), await eventOf('pending'), await eventOf('pending')]
    const noBody = await call(ctx.app, 'POST', `/api/admin/events/${ids[0].id}/approve`, withCookie(cookie))
    const emptyJson = await call(
      ctx.app,
      'POST',
      `/api/admin/events/${ids[1].id}/approve`,
      withCookie(cookie, { rawBody: '', headers: { 'content-type': 'application/json' } }),
    )
    const ignored = await post(ctx.app, `/api/admin/events/${ids[2].id}/approve`, { status: 'draft' }, withCookie(cookie))
    for (const res of [noBody, emptyJson, ignored]) expect(res.status).toBe(200)
    for (const { id } of ids) expect(await statusOf(id)).toBe('published')
  })

  test('two concurrent approvals of one event: one 200, one 409, one audit row', async () => {
    const { id } = await eventOf('pending')
    const results = await Promise.all([approve(id), approve(id)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(await countLog(id)).toBe(1)
    expect(await statusOf(id)).toBe('published')
  })

  test('many concurrent approvals by two admins: still exactly one wins', async () => {
    const other = await loginAs(ctx.app, ctx.database, { username: 'eko', password: 'moderator-kedua-123' })
    const { id } = await eventOf('pending')
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(ctx.app, `/api/admin/events/${id}/approve`, undefined, withCookie(i % 2 ? other : cookie)),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(5)
    expect(await countLog(id)).toBe(1)
  })
})

async function countLog(eventId: string): Promise<number> {
  const [row] = await ctx.database.rows<{ n: number }>(
    sql`select count(*)::int as n from moderation_log where event_id = ${eventId}`,
  )
  return row.n
}

describe('POST /api/admin/events/:id/reject', () => {
  test('pending -> rejected with a reason, recorded in the audit log', async () => {
    const { id } = await eventOf('pending')
    const res = await reject(id, { reason: '  Poster tidak sesuai  ' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, message: expect.any(String), event: { id, status: 'rejected' } })
    expect(await statusOf(id)).toBe('rejected')
    const audit = await ctx.database.rows(
      sql`select admin_id, from_status::text, to_status::text, reason from moderation_log where event_id = ${id}`,
    )
    expect(audit).toEqual([{ admin_id: adminId, from_status: 'pending', to_status: 'rejected', reason: 'Poster tidak sesuai' }])
  })

  test('the reason is optional: no body, {}, null or blank', async () => {
    for (const body of [undefined, {}, { reason: null }, { reason: '   ' }]) {
      const { id } = await eventOf('pending')
      const res = await reject(id, body)
      expect(res.status).toBe(200)
      const [audit] = await ctx.database.rows<{ reason: string | null }>(
        sql`select reason from moderation_log where event_id = ${id}`,
      )
      expect(audit.reason).toBeNull()
    }
  })

  test('HTML or SQL in the reason is stored as plain text', async () => {
    const { id } = await eventOf('pending')
    const reason = `<script>alert(1)</script>'); drop table events; --`
    expect((await reject(id, { reason })).status).toBe(200)
    const [audit] = await ctx.database.rows<{ reason: string }>(sql`select reason from moderation_log where event_id = ${id}`)
    expect(audit.reason).toBe(reason)
  })

  test('only pending can be rejected: published, draft, rejected give 409', async () => {
    for (const status of ['published', 'draft', 'rejected']) {
      const [row] = await ctx.database.rows<{ id: string }>(sql`select id from events where status = ${status} limit 1`)
      if (!row) continue
      const res = await reject(row.id)
      expect(res.status).toBe(409)
      expect(envelopeMessage(res)).toContain(status)
      expect(await statusOf(row.id)).toBe(status)
    }
  })

  test('unknown id 404; bad reason 400', async () => {
    expect((await reject(Bun.randomUUIDv7())).status).toBe(404)
    const { id } = await eventOf('pending')
    for (const body of [{ reason: 42 }, { reason: ['x'] }, { reason: 'x'.repeat(1001) }]) {
      const res = await reject(id, body)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain('reason')
    }
    expect(await statusOf(id)).toBe('pending')
  })

  test('a rejected event can be approved later (both steps audited)', async () => {
    const { id } = await eventOf('pending')
    expect((await reject(id, { reason: 'Kurang lengkap' })).status).toBe(200)
    expect((await approve(id)).status).toBe(200)
    const audit = await ctx.database.rows(
      sql`select from_status::text, to_status::text from moderation_log where event_id = ${id} order by created_at, id`,
    )
    expect(audit).toEqual([
      { from_status: 'pending', to_status: 'rejected' },
      { from_status: 'rejected', to_status: 'published' },
    ])
  })
})
