// OWASP API Security Top 10 (2023), over real HTTP against the whole app (`bun start` composition):
//   API4 Unrestricted Resource Consumption: body size, page size, query length, URL length,
//        upload size, and the login, submit, upload and check-file rates.
//   API7 Server Side Request Forgery: check-file and every URL field (poster_url, ticket_url)
//        never connect anywhere, whatever the URL (loopback in decimal, hex, octal, IPv6-mapped,
//        names of private addresses, redirectors), proven by a TCP listener that counts connections.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ADMIN, startWholeApp, type WholeApp } from './whole-app'
import { firstIds, postJson, send, submission } from './helpers'

let whole: WholeApp
let base: string
let ids: { categoryId: string; cityId: string }
let connections = 0
let listener: ReturnType<typeof Bun.listen>
let redirector: ReturnType<typeof Bun.serve>

const LIMITS = {
  SUBMIT_LIMIT_PER_HOUR: '3',
  UPLOAD_LIMIT_PER_MINUTE: '3',
  CHECK_FILE_LIMIT_PER_MINUTE: '1000',
  LOGIN_MAX_FAILURES: '3',
}

beforeAll(async () => {
  // every connection to this port, from anyone, is counted (plain TCP: even a TLS or half-open attempt)
  listener = Bun.listen({
    hostname: '0.0.0.0',
    port: 0,
    socket: {
      open(socket) {
        connections++
        socket.end()
      },
      data() {},
    },
  })
  // a public-looking redirector that would send a fetcher to the listener
  redirector = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => {
      connections++
      return Response.redirect(`http://127.0.0.1:${listener.port}/admin`, 302)
    },
  })
  whole = await startWholeApp({ ...LIMITS, TRUSTED_PROXIES: '*' })
  base = whole.base
  ids = await firstIds(base)
}, 60_000)
afterAll(async () => {
  listener?.stop(true)
  redirector?.stop(true)
  await whole?.stop()
}, 30_000)

const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)
const from = (address: string) => ({ 'x-forwarded-for': address })

describe('API4: limits', () => {
  test('a JSON body over 64 KB is 413 on every JSON write, declared or streamed', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(70_000) })
    for (const path of ['/api/events/submit', '/api/admin/login']) {
      const declared = await send(base, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from('198.51.100.1') },
        body: big,
      })
      expect(declared.status, path).toBe(413)
      expect(declared.body.success).toBe(false)
      const streamed = await send(base, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from('198.51.100.1') },
        body: new Blob([big]).stream(),
      })
      expect(streamed.status, path).toBe(413)
    }
  })

  test('page size is clamped, page and query length bounded, URLs capped', async () => {
    const huge = await send(base, '/api/events?limit=100000')
    expect(huge.status).toBe(200)
    expect(huge.body.pagination.limit).toBe(100)
    expect((await send(base, '/api/news?limit=100000')).body.pagination.limit).toBe(50)
    expect((await send(base, '/api/events?page=1000001')).status).toBe(400)
    expect((await send(base, `/api/events?q=${'a'.repeat(201)}`)).status).toBe(400)
    expect((await send(base, `/api/events?kota=${'a'.repeat(101)}`)).status).toBe(400)
    const longUrl = await send(base, `/api/events?${Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')}`)
    expect(longUrl.status).toBe(414)
    expect(longUrl.body.success).toBe(false)
  })

  test('an upload over 24 MB is 413, and uploads are rate limited (429 + Retry-After)', async () => {
    const over = new Uint8Array(24 * 1024 * 1024 + 1)
    over.set(PNG)
    const form = new FormData()
    form.append('file', new File([over], 'besar.png', { type: 'image/png' }))
    const res = await send(base, '/api/upload', { method: 'POST', body: form, headers: from('198.51.100.2') })
    expect(res.status).toBe(413)
    expect(res.body.success).toBe(false)
    const statuses: number[] = []
    let last: Awaited<ReturnType<typeof send>> | undefined
    for (let i = 0; i < 5; i++) {
      const f = new FormData()
      f.append('file', new File([PNG], 'a.png', { type: 'image/png' }))
      last = await send(base, '/api/upload', { method: 'POST', body: f, headers: from('198.51.100.3') })
      statuses.push(last.status)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('submissions are rate limited per address (429 + Retry-After), and the refused ones are not stored', async () => {
    const count = async () => (await whole.database.rows<{ n: number }>(sql`select count(*)::int as n from events`))[0]!.n
    const before = await count()
    const statuses: number[] = []
    let last: Awaited<ReturnType<typeof send>> | undefined
    for (let i = 0; i < 5; i++) {
      last = await postJson(
        base,
        '/api/events/submit',
        submission(ids.categoryId, ids.cityId, { title: `Batas Laju ${i}` }),
        from('198.51.100.4'),
      )
      statuses.push(last.status)
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429])
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await count()).toBe(before + 3)
  })

  test('failed logins lock the username and the address (429), even for the right password after', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await postJson(
            base,
            '/api/admin/login',
            { username: ADMIN.username, password: `salah-${i}-kata-sandi` },
            from('198.51.100.5'),
          )
        ).status,
      )
    expect(statuses).toEqual([401, 401, 401, 429])
    const right = await postJson(base, '/api/admin/login', ADMIN, from('198.51.100.6'))
    expect(right.status).toBe(429)
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('API7: no request leaves the server because of a URL it was given', () => {
  const port = () => listener.port
  const vectors = () => [
    `http://127.0.0.1:${port()}/`,
    `http://2130706433:${port()}/`,
    `http://0x7f000001:${port()}/`,
    `http://0177.0.0.1:${port()}/`,
    `http://017700000001:${port()}/`,
    `http://127.1:${port()}/`,
    `http://[::1]:${port()}/`,
    `http://[::ffff:127.0.0.1]:${port()}/`,
    `http://[::ffff:7f00:1]:${port()}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${port()}/`,
    `http://localhost:${port()}/`,
    `http://localtest.me:${port()}/`,
    `http://127.0.0.1.nip.io:${port()}/`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://10.0.0.1:${port()}/`,
    `http://192.168.0.1:${port()}/`,
    `http://user:pass@127.0.0.1:${port()}/`,
    `http://127.0.0.1:${redirector.port}/redirect`,
    `http://evil.example@127.0.0.1:${port()}/`,
    `gopher://127.0.0.1:${port()}/_x`,
    `file:///etc/passwd`,
    `dict://127.0.0.1:${port()}/`,
    `ftp://127.0.0.1:${port()}/`,
    `http://127.0.0.1:${port()}/media/uploads/2026/01/01a2021c-e0c3-7277-9428-eb1e8405828a.png`,
  ]

  test('check-file refuses every vector with a 400 envelope and never connects', async () => {
    for (const url of vectors()) {
      const res = await send(base, `/api/check-file?url=${encodeURIComponent(url)}`)
      expect(res.status, url).toBe(400)
      expect(res.body.success).toBe(false)
    }
    await Bun.sleep(300)
    expect(connections).toBe(0)
  })

  test('poster_url and ticket_url with every vector: stored or refused, never fetched', async () => {
    let i = 0
    for (const url of vectors()) {
      const res = await postJson(
        base,
        '/api/events/submit',
        submission(ids.categoryId, ids.cityId, { title: `Uji SSRF ${i++}`, poster_url: url, ticket_url: url }),
        from(`203.0.113.${i}`),
      )
      expect([201, 400], url).toContain(res.status)
    }
    // approving makes the URLs public; still nobody fetches them
    await Bun.sleep(500)
    expect(connections).toBe(0)
  })
})
