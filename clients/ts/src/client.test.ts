// The typed client against the running API (`bun start`: one process, PGlite with the demo
// data): every public endpoint and the admin flow, type-checked by `bun run typecheck`. And the
// generated files are what `bun run client:generate` makes from today's routes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { writeClient } from '../generate'
import { createClient, type Client, type Schemas } from './index'

const repoRoot = resolve(import.meta.dir, '../../..')
const ADMIN = { username: 'moderator', password: 'kata-sandi-uji-klien-2026' }
const dataDir = mkdtempSync(join(tmpdir(), 'client-test-'))
let proc: ReturnType<typeof Bun.spawn>
let baseUrl = ''
let api: Client

beforeAll(async () => {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  const { DATABASE_URL: _db, S3_ENDPOINT: _s3, ...env } = process.env
  proc = Bun.spawn(['bun', 'run', 'main.ts'], {
    cwd: repoRoot,
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_MEDIA_URL: `http://127.0.0.1:${port}/media/`,
    },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if ((await fetch(`${baseUrl}/ready`).catch(() => null))?.ok) break
    await Bun.sleep(200)
  }
  api = createClient(baseUrl)
}, 120_000)

afterAll(async () => {
  proc?.kill('SIGTERM')
  await proc?.exited
  rmSync(dataDir, { recursive: true, force: true })
})

describe('generated client', () => {
  test('is up to date with the routes (bun run client:generate)', async () => {
    const document = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as Record<string, unknown>
    const out = mkdtempSync(join(tmpdir(), 'client-gen-'))
    try {
      await writeClient(document, out)
      for (const file of ['openapi.json', 'schema.d.ts'])
        expect(readFileSync(join(out, file), 'utf8'), `${file} is stale: run bun run client:generate`).toBe(
          readFileSync(join(import.meta.dir, file), 'utf8'),
        )
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})

describe('public endpoints through the typed client', () => {
  test('events: list, filters, detail, calendar', async () => {
    const { data, error, response } = await api.GET('/api/events', { params: { query: { limit: 5, sort: 'start_date_asc' } } })
    expect(error).toBeUndefined()
    expect(response.status).toBe(200)
    const events = data!.data
    expect(events.length).toBeGreaterThan(0)
    expect([0, 1]).toContain(events[0].is_free)
    expect(data!.pagination.page).toBe(1)
    const slug = events[0].slug
    const detail = await api.GET('/api/events/{slug}', { params: { path: { slug } } })
    expect(detail.data?.event.slug).toBe(slug)
    const missing = await api.GET('/api/events/{slug}', { params: { path: { slug: 'tidak-ada-sama-sekali' } } })
    expect(missing.response.status).toBe(404)
    expect(missing.error?.success).toBe(false)
    const ics = await api.GET('/api/events.ics', { params: { query: { limit: 5 } }, parseAs: 'text' })
    expect(ics.response.status).toBe(200)
    expect(String(ics.data)).toContain('BEGIN:VCALENDAR')
  })

  test('categories, cities, tags, news, stats, settings', async () => {
    const categories = await api.GET('/api/categories')
    const category = categories.data!.data[0]
    expect((await api.GET('/api/categories/{slug}', { params: { path: { slug: category.slug } } })).data?.success).toBe(true)
    const cities = await api.GET('/api/cities')
    const city = cities.data!.data[0]
    expect((await api.GET('/api/cities/{slug}', { params: { path: { slug: city.slug } } })).data?.success).toBe(true)
    expect((await api.GET('/api/tags')).data?.success).toBe(true)
    const news = await api.GET('/api/news', { params: { query: { limit: 3 } } })
    const article = news.data!.data[0]
    expect((await api.GET('/api/news/{slug}', { params: { path: { slug: article.slug } } })).data?.success).toBe(true)
    expect((await api.GET('/api/stats')).data?.success).toBe(true)
    expect((await api.GET('/api/settings')).data?.success).toBe(true)
  })

  test('upload, check-file, image variant, submit', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    )
    const form = new FormData()
    form.append('file', new File([png], 'poster.png', { type: 'image/png' }))
    const uploaded = await api.POST('/api/upload', {
      body: form as unknown as { file: string },
      bodySerializer: (body) => body as unknown as FormData,
    })
    expect(uploaded.data?.success).toBe(true)
    const url = uploaded.data!.url
    const checked = await api.GET('/api/check-file', { params: { query: { url } } })
    expect(checked.data?.exists).toBe(true)
    // a front-end puts the URL in <img srcset>: plain fetches, no client needed (the path has slashes)
    const variant = await fetch(`${url}?w=160&format=webp`)
    expect(variant.headers.get('content-type')).toBe('image/webp')
    const categories = await api.GET('/api/categories')
    const submitted = await api.POST('/api/events/submit', {
      body: {
        title: 'Festival Klien Bertipe',
        category_id: String(categories.data!.data[0].id),
        start_date: '2027-03-14',
        organizer_name: 'Komunitas Penguji',
        contact_email: 'panitia@example.id',
        poster_url: url,
      },
    })
    expect(submitted.response.status).toBe(201)
    expect(submitted.data?.success).toBe(true)
    const invalid = await api.POST('/api/events/submit', { body: { title: 'x' } })
    expect(invalid.response.status).toBe(400)
    const envelope: Schemas['ErrorEnvelope'] | undefined = invalid.error
    expect(envelope?.error).toBeString()
  })
})

describe('admin flow through the typed client', () => {
  test('login, me, list pending, approve, reject, logout', async () => {
    let cookie = ''
    const admin = createClient(baseUrl)
    admin.use({
      onRequest: ({ request }) => {
        if (cookie) request.headers.set('cookie', cookie)
        return request
      },
      onResponse: ({ response }) => {
        const set = response.headers.get('set-cookie')
        if (set) cookie = set.split(';')[0]
        return response
      },
    })
    expect((await admin.GET('/api/admin/me')).response.status).toBe(401)
    const login = await admin.POST('/api/admin/login', { body: ADMIN })
    expect(login.response.status).toBe(200)
    expect((await admin.GET('/api/admin/me')).data?.user.username).toBe(ADMIN.username)
    const pending = await admin.GET('/api/admin/events', { params: { query: { status: 'pending', limit: 10 } } })
    expect(pending.data?.success).toBe(true)
    const ids = pending.data!.events.map((e) => e.id)
    expect(ids.length).toBeGreaterThan(1)
    const approved = await admin.POST('/api/admin/events/{id}/approve', { params: { path: { id: ids[0] } } })
    expect(approved.data?.success).toBe(true)
    const rejected = await admin.POST('/api/admin/events/{id}/reject', {
      params: { path: { id: ids[1] } },
      body: { reason: 'Data belum lengkap' },
    })
    expect(rejected.data?.success).toBe(true)
    expect((await admin.POST('/api/admin/logout')).response.status).toBe(200)
    expect((await admin.GET('/api/admin/me')).response.status).toBe(401)
  })
})
