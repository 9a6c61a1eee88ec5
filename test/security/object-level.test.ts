// OWASP API Security Top 10 (2023), against the whole API as `bun start` composes it, over real HTTP:
//   API1 Broken Object Level Authorization: pending, rejected and draft events are invisible to
//        the public by slug, by id, in search, filters, tag/category counts, facets, stats, related
//        and calendars.
//   API3 Broken Object Property Level Authorization: mass assignment of status, featured, id,
//        slug, counts and timestamps on every public write is ignored.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { startWholeApp, type WholeApp } from './whole-app'
import { adminCookie, firstIds, postJson, send, submission } from './helpers'

let whole: WholeApp
let base: string
let ids: { categoryId: string; cityId: string }

beforeAll(async () => {
  whole = await startWholeApp({ SUBMIT_LIMIT_PER_HOUR: '1000' })
  base = whole.base
  ids = await firstIds(base)
}, 60_000)
afterAll(async () => {
  await whole?.stop()
}, 30_000)

/** Everything the public can count or list, to compare before and after hidden events exist. */
async function publicPicture() {
  const [stats, categories, tags, facets, cities] = await Promise.all([
    send(base, '/api/stats'),
    send(base, '/api/categories?limit=100'),
    send(base, '/api/tags?limit=100'),
    send(base, '/api/events?facets=1&limit=1'),
    send(base, '/api/events?limit=1&kota=' + ''),
  ])
  return {
    published: stats.body.stats.published_events,
    categoryCounts: Object.fromEntries(categories.body.data.map((c: any) => [c.slug, c.event_count])),
    tagCounts: Object.fromEntries(tags.body.data.filter((t: any) => t.event_count > 0).map((t: any) => [t.slug, t.event_count])),
    facets: facets.body.facets,
    total: cities.body.pagination.total,
  }
}

describe('API1: events that are not published are invisible', () => {
  test('pending, rejected and draft: not by slug, id, search, tag, counts, facets, stats, related or calendar', async () => {
    const before = await publicPicture()
    const word = `zqx${Date.now().toString(36)}`
    const hidden: Array<{ id: string; slug: string; status: string }> = []
    for (const status of ['pending', 'rejected', 'draft']) {
      const res = await postJson(
        base,
        '/api/events/submit',
        submission(ids.categoryId, ids.cityId, {
          title: `Rahasia ${word} ${status}`,
          tags: `Tersembunyi ${word}`,
          description: word,
        }),
      )
      expect(res.status).toBe(201)
      await whole.database.rows(sql`update events set status = ${status}::event_status where id = ${res.body.event.id}`)
      hidden.push({ ...res.body.event, status })
    }
    // the update went around the API: drop cached answers the way a write through it does
    await whole.database.rows(sql`update data_versions set version = version + 1`).catch(() => {})

    for (const event of hidden) {
      for (const path of [`/api/events/${event.slug}`, `/api/events/${event.id}`, `/api/events/${event.slug}.ics`]) {
        const res = await send(base, path)
        expect(res.status, `${event.status} ${path}`).toBe(404)
        expect(res.text).not.toContain(word)
      }
    }
    const tagSlug = `tersembunyi-${word}`
    for (const path of [
      `/api/events?q=${word}`,
      `/api/events?tag=${tagSlug}`,
      `/api/events?q=rahasia&limit=100`,
      `/api/events?kategori=${(await send(base, '/api/categories?limit=100')).body.data.find((c: any) => c.id === ids.categoryId).slug}&limit=100`,
      `/api/events.ics?q=${word}`,
      `/api/tags?q=${word}`,
      `/api/events?limit=100&sort=created_at_desc`,
    ]) {
      const res = await send(base, path)
      expect(res.status, path).toBe(200)
      expect(res.text, path).not.toContain(word)
    }
    // related events of every published event in the same category never name them
    const list = await send(base, `/api/events?limit=20`)
    for (const e of list.body.data.slice(0, 10)) expect((await send(base, `/api/events/${e.slug}`)).text).not.toContain(word)

    expect(await publicPicture()).toEqual(before)

    // the admin sees them all: they exist, they are only hidden from the public
    const cookie = await adminCookie(base)
    const admin = await send(base, `/api/admin/events?q=${word}&limit=50`, { headers: { cookie } })
    expect(admin.status).toBe(200)
    expect(admin.text).toContain(word)
  })
})

describe('API3: mass assignment on public writes is ignored', () => {
  test("submit: status, featured, id, slug, counts, timestamps and moderation fields are not the caller's to set", async () => {
    const forgedId = '0190a0a0-0000-7000-8000-0000000000aa'
    const res = await postJson(
      base,
      '/api/events/submit',
      submission(ids.categoryId, ids.cityId, {
        title: 'Penugasan Massal Uji',
        status: 'published',
        featured: true,
        is_featured: 1,
        id: forgedId,
        slug: 'slug-pilihan-penyerang',
        view_count: 999999,
        event_count: 5,
        created_at: '2000-01-01T00:00:00Z',
        published_at: '2000-01-01T00:00:00Z',
        reviewed_by: 'attacker',
        rejection_reason: 'x',
        role: 'admin',
      }),
    )
    expect(res.status).toBe(201)
    expect(res.body.event.id).not.toBe(forgedId)
    expect(res.body.event.slug).toBe('penugasan-massal-uji')
    const [row] = await whole.database.rows<Record<string, unknown>>(sql`select * from events where id = ${res.body.event.id}`)
    expect(row!.status).toBe('pending')
    for (const [column, value] of Object.entries(row!)) {
      if (/featured/.test(column)) expect(value, column).toBeFalsy()
      if (/count/.test(column)) expect(Number(value), column).toBe(0)
    }
    expect(new Date(String(row!.created_at)).getUTCFullYear()).toBeGreaterThan(2020)
    expect((await whole.database.rows(sql`select 1 from events where id = ${forgedId}`)).length).toBe(0)
    // and it is not public
    expect((await send(base, '/api/events/penugasan-massal-uji')).status).toBe(404)
  })

  test('reject and approve: only the status change the route makes, nothing from the body', async () => {
    const created = await postJson(
      base,
      '/api/events/submit',
      submission(ids.categoryId, ids.cityId, { title: 'Moderasi Massal Uji' }),
    )
    const id = created.body.event.id
    const cookie = await adminCookie(base)
    const res = await postJson(
      base,
      `/api/admin/events/${id}/approve`,
      { status: 'draft', slug: 'ganti-slug', id: '0190a0a0-0000-7000-8000-0000000000bb', title: 'Judul Diganti', featured: true },
      { cookie, origin: base },
    )
    expect(res.status).toBe(200)
    const [row] = await whole.database.rows<Record<string, unknown>>(sql`select * from events where id = ${id}`)
    expect(row!.status).toBe('published')
    expect(row!.slug).toBe('moderasi-massal-uji')
    expect(row!.title).toBe('Moderasi Massal Uji')
    for (const [column, value] of Object.entries(row!)) if (/featured/.test(column)) expect(value, column).toBeFalsy()
  })

  test("login: a body cannot choose the user's role or id", async () => {
    const res = await postJson(base, '/api/admin/login', {
      username: 'penjaga',
      password: 'salah-sekali-kata-sandi',
      role: 'admin',
      id: 'x',
    })
    expect(res.status).toBe(401)
  })
})
