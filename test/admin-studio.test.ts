// The admin studio's content API as the public sees its effects: catalog, news and admin mounted
// in ONE app over ONE database (as `bun start` does). Every change must show on the next public
// GET; old slugs answer 301; If-Match conflicts answer 412; every change leaves an audit row.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createBaseApp, createLogger, createRateLimiter, readConfig } from '@app/kit'
import { call, envelopeMessage, get, post } from '@app/kit/testing'
import { catalogDepsFromConfig, catalogService } from '@app/catalog'
import { newsDepsFromConfig, newsService } from '@app/news'
import { adminService } from '@app/admin'
import { loginAs, withCookie } from '../services/admin/src/testing'

setDefaultTimeout(60_000)

let database: TestDatabase
let app: Awaited<ReturnType<typeof build>>
let owner: string
let editor: string

async function build(database: TestDatabase) {
  const shared = { database, rateLimiter: createRateLimiter(database) }
  const config = readConfig({})
  return createBaseApp({ service: 'all', logger: createLogger('silent'), checks: {} })
    .use(catalogService({ ...(await catalogDepsFromConfig(config, shared)), trustedProxies: ['*'] }))
    .use(newsService(await newsDepsFromConfig(config, shared)))
    .use(adminService({ ...shared, trustedProxies: ['*'], cookieSecure: false, loginMaxFailures: 5 }))
}

beforeAll(async () => {
  database = await createTestDatabase()
  app = await build(database)
  owner = await loginAs(app, database, { username: 'pemilik', password: 'pemilik-rahasia-123', name: 'Pemilik' })
  // the owner creates the editor through the API
  const res = await post(
    app,
    '/api/admin/users',
    { username: 'editor1', password: 'editor-rahasia-123', name: 'Editor Satu' },
    withCookie(owner),
  )
  expect(res.status).toBe(201)
  expect(res.body.user).toMatchObject({ username: 'editor1', role: 'editor', disabled: false })
  editor = await loginAs(app, database, { username: 'editor1', password: 'editor-rahasia-123' })
}, 60_000)
afterAll(async () => {
  await database.close()
})

const as = (cookie: string, headers: Record<string, string> = {}) => withCookie(cookie, { headers })
const patch = (path: string, body: unknown, cookie: string, headers: Record<string, string> = {}) =>
  call(app, 'PATCH', path, { body, ...as(cookie, headers) })
const del = (path: string, cookie: string, headers: Record<string, string> = {}) => call(app, 'DELETE', path, as(cookie, headers))

async function publishedEvent() {
  const [row] = await database.rows<{ id: string; slug: string }>(
    sql`select id, slug from events where status = 'published' and end_date >= current_date order by start_date, id limit 1`,
  )
  return row
}

async function auditRows(entityId: string) {
  return database.rows<{ action: string; before: any; after: any; admin_id: string }>(
    sql`select action, before, after, admin_id from audit_log where entity_id = ${entityId} order by created_at, id`,
  )
}

describe('events', () => {
  test('GET gives every field and an ETag; PATCH without If-Match is 428, with a stale one 412', async () => {
    const { id } = await publishedEvent()
    const res = await get(app, `/api/admin/events/${id}`, as(editor))
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBe(`"${res.body.event.revision}"`)
    expect(res.body.event).toMatchObject({ id, status: 'published', is_featured: false, is_cancelled: false })
    expect((await patch(`/api/admin/events/${id}`, { title: 'Judul Baru' }, editor)).status).toBe(428)
    const etag = res.headers.get('etag')!
    const first = await patch(`/api/admin/events/${id}`, { venue_name: 'Gedung Uji A' }, editor, { 'if-match': etag })
    expect(first.status).toBe(200)
    expect(first.headers.get('etag')).not.toBe(etag)
    // a second editor who loaded the same version is refused, nothing changes
    const second = await patch(`/api/admin/events/${id}`, { venue_name: 'Gedung Uji B' }, owner, { 'if-match': etag })
    expect(second.status).toBe(412)
    envelopeMessage(second)
    const now = await get(app, `/api/admin/events/${id}`, as(owner))
    expect(now.body.event.venue_name).toBe('Gedung Uji A')
  })

  test('an edit is public at once, sanitised, tags replaced as a set, audited with before/after', async () => {
    const { id, slug } = await publishedEvent()
    const before = await get(app, `/api/events/${slug}`)
    expect(before.status).toBe(200)
    const etag = (await get(app, `/api/admin/events/${id}`, as(editor))).headers.get('etag')!
    const res = await patch(
      `/api/admin/events/${id}`,
      {
        title: 'Festival Suntingan Editor',
        description: '<p>Halo<script>alert(1)</script></p><img src=x onerror=alert(1)>',
        tags: 'Suntingan, Uji Tag',
      },
      editor,
      { 'if-match': etag },
    )
    expect(res.status).toBe(200)
    expect(res.body.event.description).toBe('<p>Halo</p>')
    expect(res.body.event.tags.map((t: any) => t.name).sort()).toEqual(['Suntingan', 'Uji Tag'])
    const after = await get(app, `/api/events/${slug}`)
    expect(after.body.event.title).toBe('Festival Suntingan Editor')
    expect(after.body.event.description).toBe('<p>Halo</p>')
    const audit = (await auditRows(id)).at(-1)!
    expect(audit.action).toBe('update')
    expect(audit.after.title).toBe('Festival Suntingan Editor')
    expect(audit.before.title).toBe(before.body.event.title)
    expect(Object.keys(audit.after)).not.toContain('venue_name')
  })

  test('validation is the submission one: 400 with details, nothing changes', async () => {
    const { id } = await publishedEvent()
    const res0 = await get(app, `/api/admin/events/${id}`, as(editor))
    const res = await patch(
      `/api/admin/events/${id}`,
      { start_date: '2026-02-30', ticket_url: 'javascript:alert(1)', title: 'x' },
      editor,
      {
        'if-match': res0.headers.get('etag')!,
      },
    )
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: any) => d.field)).toEqual(['title', 'start_date', 'ticket_url'])
    const again = await get(app, `/api/admin/events/${id}`, as(editor))
    expect(again.body.event.revision).toBe(res0.body.event.revision)
  })

  test('a changed slug: the old one answers 301 to the new one', async () => {
    const { id, slug } = await publishedEvent()
    const etag = (await get(app, `/api/admin/events/${id}`, as(editor))).headers.get('etag')!
    const res = await patch(`/api/admin/events/${id}`, { slug: `${slug}-baru` }, editor, { 'if-match': etag })
    expect(res.status).toBe(200)
    const old = await get(app, `/api/events/${slug}`)
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toBe(`/api/events/${slug}-baru`)
    expect((await get(app, `/api/events/${slug}-baru`)).status).toBe(200)
    // a slug taken by another event: 409
    const [other] = await database.rows<{ slug: string }>(sql`select slug from events where id <> ${id} limit 1`)
    const etag2 = (await get(app, `/api/admin/events/${id}`, as(editor))).headers.get('etag')!
    expect((await patch(`/api/admin/events/${id}`, { slug: other.slug }, editor, { 'if-match': etag2 })).status).toBe(409)
  })

  test('feature, cancel (still public, marked), delete (gone everywhere), restore', async () => {
    const { id, slug } = await publishedEvent()
    expect((await post(app, `/api/admin/events/${id}/feature`, undefined, as(editor))).status).toBe(200)
    expect((await post(app, `/api/admin/events/${id}/feature`, undefined, as(editor))).status).toBe(409)
    expect((await get(app, `/api/admin/events/${id}`, as(editor))).body.event.is_featured).toBe(true)
    const cancel = await post(app, `/api/admin/events/${id}/cancel`, { reason: 'Cuaca buruk' }, as(editor))
    expect(cancel.status).toBe(200)
    expect((await get(app, `/api/events/${slug}`)).status).toBe(200)
    expect((await get(app, `/api/admin/events/${id}`, as(editor))).body.event.is_cancelled).toBe(true)
    expect((await get(app, `/api/events/${slug}`)).body.event.is_cancelled).toBe(1)
    const restoreCancel = await post(app, `/api/admin/events/${id}/restore`, undefined, as(editor))
    expect(restoreCancel.status).toBe(200)
    expect((await get(app, `/api/admin/events/${id}`, as(editor))).body.event.is_cancelled).toBe(false)
    expect((await get(app, `/api/events/${slug}`)).body.event.is_cancelled).toBe(0)

    const deleted = await del(`/api/admin/events/${id}`, editor)
    expect(deleted.status).toBe(200)
    expect(deleted.body.event.status).toBe('deleted')
    expect((await get(app, `/api/events/${slug}`)).status).toBe(404)
    const list = await get(app, `/api/events?limit=100&q=${encodeURIComponent(slug)}`)
    expect(list.body.data.some((e: any) => e.id === id)).toBe(false)
    expect((await get(app, `/api/admin/events?q=${id}`, as(editor))).body.events).toHaveLength(0)
    expect((await get(app, `/api/admin/events?status=deleted&q=${id}`, as(editor))).body.events).toHaveLength(1)
    const restored = await post(app, `/api/admin/events/${id}/restore`, undefined, as(editor))
    expect(restored.body.event.status).toBe('published')
    expect((await get(app, `/api/events/${slug}`)).status).toBe(200)
    const actions = (await auditRows(id)).map((r) => r.action)
    expect(actions).toEqual(expect.arrayContaining(['feature', 'cancel', 'restore', 'delete']))
  })

  test('a stale If-Match on an action is 412; unknown id 404', async () => {
    const { id } = await publishedEvent()
    expect((await post(app, `/api/admin/events/${id}/unfeature`, undefined, as(editor, { 'if-match': '"1"' }))).status).toBe(412)
    expect((await post(app, `/api/admin/events/tidak-ada/feature`, undefined, as(editor))).status).toBe(404)
  })
})

describe('news', () => {
  test('create (201, draft, slug from title, sanitised), publish -> public, schedule -> hidden until then, unpublish', async () => {
    const created = await post(
      app,
      '/api/admin/news',
      { title: 'Panduan Festival Akhir Tahun', category: 'Tips', content: '<p>Isi<script>x()</script></p>', excerpt: 'Ringkas' },
      as(editor),
    )
    expect(created.status).toBe(201)
    const article = created.body.article
    expect(article).toMatchObject({
      slug: 'panduan-festival-akhir-tahun',
      status: 'draft',
      content: '<p>Isi</p>',
      author_name: 'Editor Satu',
    })
    expect((await get(app, `/api/news/${article.slug}`)).status).toBe(404)

    const published = await post(app, `/api/admin/news/${article.id}/publish`, undefined, as(editor))
    expect(published.status).toBe(200)
    expect(published.body.article.status).toBe('published')
    expect((await get(app, `/api/news/${article.slug}`)).status).toBe(200)

    const at = new Date(Date.now() + 3 * 86_400_000).toISOString()
    const scheduled = await post(app, `/api/admin/news/${article.id}/publish`, { published_at: at }, as(editor))
    expect(scheduled.body.article.status).toBe('scheduled')
    expect((await get(app, `/api/news/${article.slug}`)).status).toBe(404)
    expect((await get(app, '/api/admin/news?status=scheduled', as(editor))).body.articles.map((a: any) => a.id)).toContain(
      article.id,
    )

    await post(app, `/api/admin/news/${article.id}/publish`, undefined, as(editor))
    const un = await post(app, `/api/admin/news/${article.id}/unpublish`, undefined, as(editor))
    expect(un.body.article.status).toBe('draft')
    expect((await get(app, `/api/news/${article.slug}`)).status).toBe(404)
  })

  test('PATCH with If-Match, 412 on conflict, old slug 301, feature, delete', async () => {
    const created = await post(app, '/api/admin/news', { title: 'Liputan Konser Uji', category: 'Liputan' }, as(editor))
    const { id, slug } = created.body.article
    await post(app, `/api/admin/news/${id}/publish`, undefined, as(editor))
    const etag = (await get(app, `/api/admin/news/${id}`, as(editor))).headers.get('etag')!
    const edit = await patch(`/api/admin/news/${id}`, { slug: 'liputan-konser-uji-2026', is_featured: true }, editor, {
      'if-match': etag,
    })
    expect(edit.status).toBe(200)
    expect(edit.body.article.is_featured).toBe(true)
    expect((await patch(`/api/admin/news/${id}`, { title: 'Tabrakan' }, owner, { 'if-match': etag })).status).toBe(412)
    const old = await get(app, `/api/news/${slug}`)
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toBe('/api/news/liputan-konser-uji-2026')
    const featured = await get(app, '/api/news?featured=1&limit=50')
    expect(featured.body.data.some((a: any) => a.id === id)).toBe(true)
    expect(
      (await post(app, '/api/admin/news', { title: 'x', category: '' }, as(editor))).body.details.map((d: any) => d.field),
    ).toEqual(['title', 'category'])
    expect((await del(`/api/admin/news/${id}`, editor)).status).toBe(200)
    expect((await get(app, '/api/news/liputan-konser-uji-2026')).status).toBe(404)
    expect((await get(app, `/api/news/${slug}`)).status).toBe(404)
  })
})

describe('categories, cities, tags, settings', () => {
  test('category: create 201 public at once, rename, delete refused while used (409), deletable when unused', async () => {
    const res = await post(app, '/api/admin/categories', { name: 'Kuliner Uji', icon: 'utensils' }, as(editor))
    expect(res.status).toBe(201)
    expect(res.body.category).toMatchObject({ slug: 'kuliner-uji', is_active: true, event_count: 0 })
    const pub = await get(app, '/api/categories?limit=100&active_only=0')
    expect(pub.body.data.some((c: any) => c.slug === 'kuliner-uji')).toBe(true)
    const renamed = await patch(`/api/admin/categories/${res.body.category.id}`, { name: 'Kuliner Nusantara' }, editor)
    expect(renamed.body.category.name).toBe('Kuliner Nusantara')
    expect((await del(`/api/admin/categories/${res.body.category.id}`, editor)).status).toBe(200)
    const [used] = await database.rows<{ id: string }>(sql`select category_id as id from events limit 1`)
    const listed = (await get(app, '/api/admin/categories', as(editor))).body.categories.find((c: any) => c.id === used.id)
    const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from events where category_id = ${used.id}`)
    expect(listed.event_count).toBe(n)
    expect(n).toBeGreaterThan(0)
    const refused = await del(`/api/admin/categories/${used.id}`, editor)
    expect(refused.status).toBe(409)
    expect(envelopeMessage(refused)).toMatch(/masih dipakai oleh \d+ event/)
  })

  test('city: province and IANA zone required and validated', async () => {
    const bad = await post(app, '/api/admin/cities', { name: 'Kota Uji', province: '', time_zone: 'WIB' }, as(editor))
    expect(bad.status).toBe(400)
    expect(bad.body.details.map((d: any) => d.field)).toEqual(['province', 'time_zone'])
    const ok = await post(
      app,
      '/api/admin/cities',
      { name: 'Kota Uji', province: 'Papua', time_zone: 'Asia/Jayapura' },
      as(editor),
    )
    expect(ok.status).toBe(201)
    expect(ok.body.city).toMatchObject({ slug: 'kota-uji', time_zone: 'Asia/Jayapura', province: 'Papua' })
    const [used] = await database.rows<{ id: string }>(sql`select city_id as id from events where city_id is not null limit 1`)
    expect((await del(`/api/admin/cities/${used.id}`, editor)).status).toBe(409)
  })

  test('tags: merge keeps every link; delete refused while used', async () => {
    const a = (await post(app, '/api/admin/tags', { name: 'Gabung A' }, as(editor))).body.tag
    const b = (await post(app, '/api/admin/tags', { name: 'Gabung B' }, as(editor))).body.tag
    expect((await post(app, '/api/admin/tags', { name: 'gabung a' }, as(editor))).status).toBe(409)
    const events = await database.rows<{ id: string }>(sql`select id from events where status = 'published' order by id limit 3`)
    await database.rows(
      sql`insert into event_tags (event_id, tag_id) values (${events[0].id}, ${a.id}), (${events[1].id}, ${a.id}), (${events[1].id}, ${b.id}), (${events[2].id}, ${b.id})`,
    )
    expect((await del(`/api/admin/tags/${a.id}`, editor)).status).toBe(409)
    const merged = await post(app, `/api/admin/tags/${a.id}/merge`, { into_id: b.id }, as(editor))
    expect(merged.status).toBe(200)
    expect(merged.body.tag).toMatchObject({ id: b.id, event_count: 3 })
    const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from tags where id = ${a.id}`)
    expect(n).toBe(0)
  })

  test('settings: known keys only, validated, public at once, audited', async () => {
    const res = await patch('/api/admin/settings', { site_tagline: 'Tagline Uji', contact_email: 'halo@contoh.id' }, editor)
    expect(res.status).toBe(200)
    expect(res.body.settings.site_tagline).toBe('Tagline Uji')
    const pub = await get(app, '/api/settings')
    expect(JSON.stringify(pub.body)).toContain('Tagline Uji')
    expect((await patch('/api/admin/settings', { site_logo: 'javascript:x' }, editor)).status).toBe(400)
    expect((await patch('/api/admin/settings', { bogus: 'x' }, editor)).status).toBe(400)
    expect((await patch('/api/admin/settings', { site_title: '' }, editor)).status).toBe(400)
  })
})

describe('users and audit', () => {
  test('an editor cannot manage users (403); the owner disables an editor and their sessions end at once', async () => {
    expect((await get(app, '/api/admin/users', as(editor))).status).toBe(403)
    expect((await post(app, '/api/admin/users', { username: 'nakal', password: 'panjang-sekali-123' }, as(editor))).status).toBe(
      403,
    )
    const created = await post(app, '/api/admin/users', { username: 'sementara', password: 'sementara-rahasia-1' }, as(owner))
    const cookie = await loginAs(app, database, { username: 'sementara', password: 'sementara-rahasia-1' })
    expect((await get(app, '/api/admin/me', as(cookie))).status).toBe(200)
    const off = await patch(`/api/admin/users/${created.body.user.id}`, { disabled: true }, owner)
    expect(off.status).toBe(200)
    expect(off.body.user.disabled).toBe(true)
    expect((await get(app, '/api/admin/me', as(cookie))).status).toBe(401)
    const login = await post(
      app,
      '/api/admin/login',
      { username: 'sementara', password: 'sementara-rahasia-1' },
      { headers: { 'x-forwarded-for': '10.99.0.1' } },
    )
    expect(login.status).toBe(401)
    const [me] = (await get(app, '/api/admin/users', as(owner))).body.users.filter((u: any) => u.username === 'pemilik')
    expect((await patch(`/api/admin/users/${me.id}`, { disabled: true }, owner)).status).toBe(409)
  })

  test('own password change needs the old one and ends the other sessions', async () => {
    const other = await loginAs(app, database, { username: 'editor1', password: 'editor-rahasia-123' })
    const wrong = await post(
      app,
      '/api/admin/me/password',
      { old_password: 'salah-salah-123', new_password: 'baru-rahasia-4567' },
      as(editor),
    )
    expect(wrong.status).toBe(400)
    const ok = await post(
      app,
      '/api/admin/me/password',
      { old_password: 'editor-rahasia-123', new_password: 'baru-rahasia-4567' },
      as(editor),
    )
    expect(ok.status).toBe(200)
    expect((await get(app, '/api/admin/me', as(editor))).status).toBe(200)
    expect((await get(app, '/api/admin/me', as(other))).status).toBe(401)
  })

  test('GET /api/admin/audit pages and filters by user, entity and date', async () => {
    const [{ id: editorId }] = await database.rows<{ id: string }>(sql`select id from admin_users where username = 'editor1'`)
    const byUser = await get(app, `/api/admin/audit?admin_id=${editorId}&limit=5`, as(owner))
    expect(byUser.status).toBe(200)
    expect(byUser.body.entries.length).toBe(5)
    expect(byUser.body.total).toBeGreaterThan(5)
    expect(byUser.body.entries.every((e: any) => e.admin_username === 'editor1')).toBe(true)
    const news = await get(app, '/api/admin/audit?entity=news', as(owner))
    expect(news.body.entries.length).toBeGreaterThan(0)
    expect(news.body.entries.every((e: any) => e.entity === 'news')).toBe(true)
    const future = await get(app, '/api/admin/audit?from=2999-01-01', as(owner))
    expect(future.body.total).toBe(0)
    expect((await get(app, '/api/admin/audit?from=kemarin', as(owner))).status).toBe(400)
  })
})

test('without a session every studio route answers 401 before validating anything', async () => {
  for (const [method, path, body] of [
    ['PATCH', '/api/admin/settings', { bogus: 1 }],
    ['PATCH', '/api/admin/events/x', { title: 42 }],
    ['POST', '/api/admin/news', { title: 42 }],
    ['GET', '/api/admin/audit?from=kemarin', undefined],
    ['POST', '/api/admin/tags/x/merge', {}],
    ['GET', '/api/admin/users', undefined],
    ['POST', '/api/admin/me/password', {}],
  ] as const) {
    const res = await call(app, method, path, { body })
    expect(res.status).toBe(401)
  }
})

test('a cross-site browser write is refused (403)', async () => {
  const res = await call(app, 'PATCH', '/api/admin/settings', {
    body: { site_tagline: 'x' },
    ...as(editor, { 'sec-fetch-site': 'cross-site' }),
  })
  expect(res.status).toBe(403)
})
