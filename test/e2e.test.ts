// End to end through Caddy against the local stack (scripts/stack-lib.ts): real PostgreSQL (a
// throwaway cluster this test starts and stops), a real S3-compatible server (s3rver), two
// catalog and two media replicas, real HTTP. The whole journey of an event, replicas stopped
// and killed under load, and the database going away and coming back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { freePort, startStack, stopProcess, type Stack } from '../scripts/stack-lib'
import { listedPaths, renderedDom } from './browser'
import { ADDED_ENDPOINTS, CONTRACT_ENDPOINTS } from './contract'

const ADMIN = { username: 'moderator', password: 'kata-sandi-uji-e2e-2026' }
const BUCKET = 'uploads'
let stack: Stack
let s3: S3rver
let s3Dir: string
let gw: string

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 'e2e-s3-'))
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir })
  const { port } = (await s3.run()) as { port: number }
  stack = await startStack({
    gatewayPort: freePort(),
    catalogReplicas: 2,
    mediaReplicas: 2,
    s3: { endpoint: `http://127.0.0.1:${port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: BUCKET },
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    env: { UPLOAD_LIMIT_PER_MINUTE: '10000', SUBMIT_LIMIT_PER_HOUR: '10000' },
  })
  gw = stack.gateway
}, 180_000)

afterAll(async () => {
  await stack?.stop()
  await s3?.close().catch(() => {})
  rmSync(s3Dir, { recursive: true, force: true })
}, 60_000)

// a small valid PNG (1x1), padded to `size` bytes with a trailing chunk the decoder ignores
function png(size = 0): Uint8Array {
  const base = Uint8Array.from(
    atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
    (c) => c.charCodeAt(0),
  )
  if (size <= base.length) return base
  const out = new Uint8Array(size)
  out.set(base)
  for (let i = base.length; i < size; i++) out[i] = i % 251
  return out
}

async function upload(bytes: Uint8Array, name = 'poster.png') {
  const form = new FormData()
  form.append('file', new File([bytes], name, { type: 'image/png' }))
  return fetch(`${gw}/api/upload`, { method: 'POST', body: form })
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any, headers: res.headers })
const getJson = (path: string, init?: RequestInit) => fetch(`${gw}${path}`, init).then(json)
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${gw}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then(json)

describe('the journey of an event, through the gateway', () => {
  test('upload, check, submit, moderate, publish, log out', async () => {
    // 1. upload a poster and read it back through the gateway
    const poster = png(5000)
    const uploaded = await json(await upload(poster))
    expect(uploaded.status).toBe(200)
    expect(uploaded.body.success).toBe(true)
    expect(uploaded.body.url).toBe(uploaded.body.data.url)
    const fileUrl = new URL(uploaded.body.url)
    const file = await fetch(`${gw}${fileUrl.pathname}`)
    expect(file.status).toBe(200)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(poster)

    // 2. check it
    const check = await getJson(`/api/check-file?url=${encodeURIComponent(uploaded.body.url)}`)
    expect(check.status).toBe(200)
    expect(check.body).toMatchObject({ url: uploaded.body.url, exists: true, status: 200 })

    // 3. submit an event with it
    const before = {
      stats: (await getJson('/api/stats')).body.stats,
      musik: (await getJson('/api/categories?limit=100')).body.data.find((c: any) => c.slug === 'musik'),
    }
    const submitted = await postJson('/api/events/submit', {
      title: 'Konser Uji Ujung ke Ujung',
      category_id: before.musik.id,
      start_date: '2031-05-01',
      start_time: '19:00',
      organizer_name: 'Tim Uji E2E',
      contact_email: 'uji@example.id',
      poster_url: uploaded.body.url,
      tags: 'Ujicoba E2E, Jazz',
    })
    expect(submitted.status).toBe(201)
    const { id, slug } = submitted.body.event

    // 4. not public yet; counted in total_events only
    expect((await getJson(`/api/events/${slug}`)).status).toBe(404)
    const pendingStats = (await getJson('/api/stats')).body.stats
    expect(pendingStats.total_events).toBe(before.stats.total_events + 1)
    expect(pendingStats.published_events).toBe(before.stats.published_events)
    expect((await getJson('/api/tags?q=Ujicoba')).body.data).toEqual([])

    // 5. log in, find it pending
    const login = await fetch(`${gw}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers.get('set-cookie')!.split(';')[0]
    const admin = { cookie }
    const pending = await getJson('/api/admin/events?status=pending', { headers: admin })
    expect(pending.status).toBe(200)
    expect(pending.body.events.map((e: any) => e.id)).toContain(id)

    // 6. approve: public at once, on every catalog replica
    const approved = await postJson(`/api/admin/events/${id}/approve`, undefined, admin)
    expect(approved.status).toBe(200)
    expect(approved.body.success).toBe(true)
    for (const replica of stack.services.catalog) {
      const detail = await fetch(`${replica.url}/api/events/${slug}`).then(json)
      expect(detail.status).toBe(200)
      expect(detail.body.event.poster_url).toBe(uploaded.body.url)
    }
    const list = await getJson('/api/events?kategori=musik&limit=100')
    expect(list.body.data.map((e: any) => e.slug)).toContain(slug)
    const tag = (await getJson('/api/tags?q=Ujicoba')).body.data
    expect(tag).toEqual([expect.objectContaining({ name: 'Ujicoba E2E', event_count: 1 })])
    const musik = (await getJson('/api/categories?limit=100')).body.data.find((c: any) => c.slug === 'musik')
    expect(musik.event_count).toBe(before.musik.event_count + 1)
    const stats = (await getJson('/api/stats')).body.stats
    expect(stats.published_events).toBe(before.stats.published_events + 1)

    // 7. log out: the admin list is refused
    expect((await postJson('/api/admin/logout', undefined, admin)).status).toBe(200)
    const refused = await getJson('/api/admin/events', { headers: admin })
    expect(refused.status).toBe(401)
    expect(refused.body.success).toBe(false)
  }, 60_000)
})

describe('the gateway', () => {
  test('routes by exact path, answers its own errors with the envelope, adds security headers', async () => {
    for (const path of ['/api/newsletter', '/api/eventsx', '/api/admin', '/nope']) {
      const res = await getJson(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ success: false, error: expect.any(String) })
    }
    const res = await fetch(`${gw}/api/events`)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('referrer-policy')).toBeTruthy()
  })

  test('the admin studio: /admin/ and its bundle through the gateway; an edit is public on every replica, the old slug 301s', async () => {
    for (const path of ['/admin', '/admin/']) {
      const page = await fetch(`${gw}${path}`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toStartWith('text/html')
      expect(await page.text()).toContain('/admin/app.js')
    }
    const js = await fetch(`${gw}/admin/app.js`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toStartWith('text/javascript')
    expect((await js.text()).length).toBeGreaterThan(10_000)

    const login = await fetch(`${gw}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
    const cookie = login.headers.get('set-cookie')!.split(';')[0]
    const [event] = (await getJson('/api/events?limit=1&sort=start_date_asc')).body.data
    const current = await fetch(`${gw}/api/admin/events/${event.id}`, { headers: { cookie } })
    const etag = current.headers.get('etag')!
    // as the browser sends it: same origin through the gateway
    const edit = await fetch(`${gw}/api/admin/events/${event.id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json', 'if-match': etag, origin: gw, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ slug: `${event.slug}-gw`, venue_name: 'Gedung Lewat Gateway' }),
    })
    expect(edit.status).toBe(200)
    for (const replica of stack.services.catalog) {
      const moved = await fetch(`${replica.url}/api/events/${event.slug}`, { redirect: 'manual' })
      expect(moved.status).toBe(301)
      expect(moved.headers.get('location')).toBe(`/api/events/${event.slug}-gw`)
      const detail = await fetch(`${replica.url}/api/events/${event.slug}-gw`).then(json)
      expect(detail.body.event.venue_name).toBe('Gedung Lewat Gateway')
    }
    const stale = await fetch(`${gw}/api/admin/events/${event.id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ venue_name: 'Tertimpa' }),
    })
    expect(stale.status).toBe(412)
  }, 60_000)

  test('routes the iCalendar feeds to the catalog: /api/events.ics and /api/events/{slug}.ics', async () => {
    const feed = await fetch(`${gw}/api/events.ics?waktu=mendatang&limit=5`)
    expect(feed.status).toBe(200)
    expect(feed.headers.get('content-type')).toStartWith('text/calendar')
    const body = await feed.text()
    expect(body).toStartWith('BEGIN:VCALENDAR\r\n')
    // a subscribed calendar app revalidates: an unchanged feed is 304 from either replica
    const again = await fetch(`${gw}/api/events.ics?waktu=mendatang&limit=5`, {
      headers: { 'if-none-match': feed.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
    const slug = /URL:[^\r]*\/api\/events\/([a-z0-9-]+)\r\n/.exec(body)?.[1]
    expect(slug).toBeTruthy()
    const one = await fetch(`${gw}/api/events/${slug}.ics`)
    expect(one.status).toBe(200)
    expect(await one.text()).toContain('BEGIN:VEVENT')
    expect((await getJson(`/api/events/${slug}`)).body.event.slug).toBe(slug)
  })

  test('1 MB body limit on JSON endpoints, 25 MiB on upload; an oversized body does not harm the next request', async () => {
    const big = await postJson('/api/events/submit', { title: 'x'.repeat(1_100_000) })
    expect(big.status).toBe(413)
    expect(big.body.success).toBe(false)
    // the same without a declared length: stopped while streaming
    const chunks = new TextEncoder().encode(JSON.stringify({ title: 'x'.repeat(1_100_000) }))
    const streamed = await fetch(`${gw}/api/events/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < chunks.length; i += 64 * 1024) controller.enqueue(chunks.slice(i, i + 64 * 1024))
          controller.close()
        },
      }),
    }).then(json)
    expect(streamed.status).toBe(413)
    expect(streamed.body.success).toBe(false)
    expect((await getJson('/api/events')).status).toBe(200)

    const tooBig = await upload(png(26 * 1024 * 1024))
    expect(tooBig.status).toBe(413)
    expect((await tooBig.json()).success).toBe(false)
    // exactly at the limit still goes through the gateway
    const atLimit = await upload(png(24 * 1024 * 1024))
    expect(atLimit.status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await upload(png(1000))).status).toBe(200)
  }, 60_000)

  test('docs: one OpenAPI document for every service, and Swagger UI renders it in a browser', async () => {
    const doc = (await getJson('/api/openapi.json')).body
    for (const [method, path] of [...CONTRACT_ENDPOINTS, ...ADDED_ENDPOINTS]) expect(doc.paths[path]?.[method]).toBeDefined()
    const paths = listedPaths(await renderedDom(`${gw}/docs`))
    for (const [, path] of CONTRACT_ENDPOINTS) expect(paths).toContain(path)
  }, 90_000)
})

describe('failures', () => {
  /**
   * The gateway leaves a replica out of rotation for `fail_duration` (3 s, caddy/Caddyfile) after
   * its last failed request, restarted or not: waits that out, so the next test starts with every
   * replica taking requests (else killing the other one leaves none, and uploads are 503s).
   */
  async function outOfRotationOver(failureTimes: number[]) {
    const last = Math.max(0, ...failureTimes)
    await Bun.sleep(Math.max(0, last + 3100 - performance.now()))
  }

  async function uploadsDuring(count: number, concurrency: number, during: (started: () => number) => Promise<void>) {
    const results: { status: number; startedAt: number; endedAt: number; body?: string }[] = []
    let next = 0
    const bytes = png(512 * 1024)
    const worker = async () => {
      while (next < count) {
        next++
        const startedAt = performance.now()
        // a failure keeps its answer: the envelope and who gave it (a replica or the gateway)
        const { status, body } = await upload(bytes)
          .then(async (r) => ({ status: r.status, body: r.status === 200 ? undefined : await r.text() }))
          .catch((error) => ({ status: 0, body: String(error) }))
        results.push({ status, startedAt, endedAt: performance.now(), body })
      }
    }
    await Promise.all([...Array.from({ length: concurrency }, worker), during(() => results.length)])
    return results
  }

  test('a media replica stopped with SIGTERM during uploads fails none of them', async () => {
    const victim = stack.services.media[0]
    const results = await uploadsDuring(60, 4, async (done) => {
      while (done() < 10) await Bun.sleep(20)
      await stopProcess(victim.proc)
    })
    expect(results.filter((r) => r.status !== 200)).toEqual([])
    stack.services.media[0] = await stack.restart(victim)
  }, 120_000)

  test('a media replica killed with SIGKILL fails at most the uploads it held, none after', async () => {
    const victim = stack.services.media[1]
    let killedAt = 0
    const results = await uploadsDuring(60, 4, async (done) => {
      while (done() < 10) await Bun.sleep(20)
      victim.proc.kill('SIGKILL')
      killedAt = performance.now()
    })
    const failed = results.filter((r) => r.status !== 200)
    if (failed.length) console.log('failed uploads around the kill', { killedAt, failed })
    expect(failed.length).toBeLessThanOrEqual(4)
    expect(killedAt).toBeGreaterThan(0)
    // Once the gateway has seen the replica die (it failed a request), later requests do not
    // fail. A request sent in the instant around that first failure can still be routed to the
    // dead replica (Caddy 2.6 cannot replay a request body to another one): 50 ms of grace.
    if (failed.length) {
      const seenDeadAt = Math.min(...failed.map((f) => f.endedAt))
      for (const f of failed) expect(f.startedAt).toBeLessThanOrEqual(seenDeadAt + 50)
    }
    stack.services.media[1] = await stack.restart(victim)
    await outOfRotationOver([killedAt, ...failed.map((f) => f.endedAt)])
  }, 120_000)

  test('a media replica that died while idle: the uploads sent to it before the gateway knows fail, the other replica keeps taking them', async () => {
    // Nothing is in flight when it dies, so the gateway learns of it from a failed dial. Caddy 2.6
    // cannot retry a body after a failed dial (the retry fails on the live replica, which is then
    // marked down and every upload is a 503 for 3 s): the gateway must not retry writes at all.
    const victim = stack.services.media[0]
    victim.proc.kill('SIGKILL')
    await victim.proc.exited
    const results = await uploadsDuring(40, 4, async () => {})
    const failed = results.filter((r) => r.status !== 200)
    if (failed.length) console.log('failed uploads after an idle replica died', failed)
    expect(failed.every((f) => f.status === 502)).toBe(true)
    expect(failed.length).toBeLessThanOrEqual(4)
    const seenDeadAt = Math.min(...failed.map((f) => f.endedAt))
    for (const f of failed) expect(f.startedAt).toBeLessThanOrEqual(seenDeadAt + 50)
    stack.services.media[0] = await stack.restart(victim)
    await outOfRotationOver(failed.map((f) => f.endedAt))
  }, 120_000)

  test('the database stopped: 503 envelopes within 5 seconds; back by itself when it returns', async () => {
    const cluster = stack.cluster!
    await cluster.stop()
    try {
      // URLs no replica has cached: a cached answer is served, correctly, for up to 2 s after the
      // database goes (the replica's trust in its notifications, shared/kit/src/invalidation.ts)
      for (const path of ['/api/events?limit=17', '/api/news?limit=17', '/api/events?limit=3&page=2']) {
        const started = performance.now()
        const res = await getJson(path)
        expect(res.status).toBe(503)
        expect(res.body).toEqual({ success: false, error: expect.any(String) })
        expect(performance.now() - started).toBeLessThan(5000)
      }
    } finally {
      await cluster.start()
    }
    // every service finds the database again on its own, each at its own pace (a news replica's
    // pool may still hold a connection from before the restart when the catalog's is fresh)
    const deadline = Date.now() + 30_000
    const back = { events: 0, news: 0 }
    while (Date.now() < deadline && (back.events !== 200 || back.news !== 200)) {
      if (back.events !== 200) back.events = (await fetch(`${gw}/api/events`)).status
      if (back.news !== 200) back.news = (await fetch(`${gw}/api/news`)).status
      if (back.events !== 200 || back.news !== 200) await Bun.sleep(250)
    }
    expect(back).toEqual({ events: 200, news: 200 })
  }, 90_000)
})
