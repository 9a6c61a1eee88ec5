// What a front-end on another origin sees (issue 15): CORS and compression, on `bun start` (one
// process on PGlite) and through Caddy (`bun run stack`'s separate services), with a real headless
// Chromium on pages served from other loopback origins calling the API with fetch.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { chromium, type Browser } from 'playwright-core'
import S3rver from 's3rver'
import sharp from 'sharp'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { startStack, type Stack } from '../scripts/stack-lib'
import { BROWSER_FLAGS, chromiumPath } from './browser'
import { freePort, repoRoot, stop, waitFor } from './helpers'
import { completenessProblems, lintErrors } from './openapi-lint'

const ADMIN = { username: 'moderator', password: 'kata-sandi-uji-apps-2026' }

// two pages on other origins: one listed in CORS_ORIGINS, one not
const pageServer = (label: string) =>
  Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () =>
      new Response(`<!doctype html><title>${label}</title><p>${label}</p>`, { headers: { 'content-type': 'text/html' } }),
  })
const trustedPage = pageServer('front-end')
const strangerPage = pageServer('stranger')
const TRUSTED = `http://127.0.0.1:${trustedPage.port}`
const STRANGER = `http://127.0.0.1:${strangerPage.port}`

let browser: Browser
let startProc: ReturnType<typeof Bun.spawn> | undefined
let stack: Stack | undefined
let stackDb: TestDatabase | undefined
let s3: S3rver | undefined
const dataDir = mkdtempSync(join(tmpdir(), 'apps-'))
const targets: Record<string, string> = {}

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath(), args: BROWSER_FLAGS })
  const env = {
    CORS_ORIGINS: `${TRUSTED},https://admin.example.id`,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  }
  const port = freePort()
  const { DATABASE_URL: _ignored, ...parentEnv } = process.env
  startProc = Bun.spawn(['bun', 'run', 'main.ts'], {
    cwd: repoRoot,
    env: { ...parentEnv, ...env, PORT: String(port), DATA_DIR: join(dataDir, 'start'), LOG_LEVEL: 'warn' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  stackDb = process.env.DATABASE_URL ? await createTestDatabase() : undefined
  // the gateway in its S3 mode: plain /media/ URLs come from the bucket, variants from the media service
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dataDir, 's3') })
  const { port: s3Port } = (await s3.run()) as { port: number }
  stack = await startStack({
    s3: { endpoint: `http://127.0.0.1:${s3Port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'uploads' },
    gatewayPort: freePort(),
    catalogReplicas: 1,
    mediaReplicas: 1,
    databaseUrl: stackDb?.url,
    workDir: join(dataDir, 'stack'),
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    env: { CORS_ORIGINS: env.CORS_ORIGINS },
  })
  await waitFor(`http://127.0.0.1:${port}/ready`, 60_000, startProc)
  targets['bun start'] = `http://127.0.0.1:${port}`
  targets['gateway'] = stack.gateway
}, 180_000)

afterAll(async () => {
  await browser?.close()
  if (startProc) await stop(startProc)
  await stack?.stop()
  await stackDb?.close()
  await s3?.close().catch(() => {})
  trustedPage.stop(true)
  strangerPage.stop(true)
  rmSync(dataDir, { recursive: true, force: true })
}, 60_000)

/** Runs `fetch` inside a page of `pageOrigin`; answers what the page's script could read. */
async function fetchFromPage(pageOrigin: string, url: string, init: RequestInit = {}) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(pageOrigin)
    return await page.evaluate(
      async ([url, init]) => {
        try {
          const res = await fetch(url, init)
          return { ok: true as const, status: res.status, body: await res.text(), etag: res.headers.get('etag') }
        } catch (error) {
          return { ok: false as const, error: String(error) }
        }
      },
      [url, init] as const,
    )
  } finally {
    await context.close()
  }
}

/** Logs in and reads /api/admin/me from a page of `pageOrigin`, credentials included, in one context. */
async function adminFromPage(pageOrigin: string, api: string) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(pageOrigin)
    return await page.evaluate(
      async ([api, admin]) => {
        const out: Record<string, unknown> = {}
        try {
          const login = await fetch(`${api}/api/admin/login`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(admin),
          })
          out.login = login.status
          const me = await fetch(`${api}/api/admin/me`, { credentials: 'include' })
          out.me = me.status
          out.user = ((await me.json()) as any).user?.username
        } catch (error) {
          out.error = String(error)
        }
        return out
      },
      [api, ADMIN] as const,
    )
  } finally {
    await context.close()
  }
}

const raw = (url: string, init: RequestInit = {}) => fetch(url, { ...init, decompress: false } as RequestInit)

function decode(encoding: string | null, body: ArrayBuffer): string {
  const bytes = new Uint8Array(body)
  if (encoding === 'br') return brotliDecompressSync(bytes).toString()
  if (encoding === 'gzip') return gunzipSync(bytes).toString()
  if (encoding === 'zstd') return new TextDecoder().decode(Bun.zstdDecompressSync(bytes))
  return new TextDecoder().decode(bytes)
}

for (const name of ['bun start', 'gateway']) {
  describe(`CORS (${name})`, () => {
    test('a page on any origin reads public data, without credentials', async () => {
      const api = targets[name]
      for (const origin of [TRUSTED, STRANGER]) {
        const result = await fetchFromPage(origin, `${api}/api/events?limit=2`)
        expect(result.ok, JSON.stringify(result)).toBe(true)
        if (result.ok) {
          expect(result.status).toBe(200)
          expect(JSON.parse(result.body).success).toBe(true)
          // exposed, so a front-end can revalidate with If-None-Match
          expect(result.etag).toMatch(/^W\//)
        }
      }
      const res = await fetch(`${api}/api/events?limit=2`, { headers: { origin: STRANGER } })
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    })

    test('only a listed origin can submit; others get no CORS headers and the browser blocks them', async () => {
      const api = targets[name]
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }
      const trusted = await fetchFromPage(TRUSTED, `${api}/api/events/submit`, init)
      // the page can read the API's answer (a validation 400 for an empty body)
      expect(trusted.ok && trusted.status, JSON.stringify(trusted)).toBe(400)
      if (trusted.ok) expect(JSON.parse(trusted.body).success).toBe(false)
      const stranger = await fetchFromPage(STRANGER, `${api}/api/events/submit`, init)
      expect(stranger.ok).toBe(false)

      const pre = (origin: string, path: string, method = 'POST') =>
        fetch(`${api}${path}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
        })
      const allowed = await pre(TRUSTED, '/api/events/submit')
      expect(allowed.status).toBe(204)
      expect(allowed.headers.get('access-control-allow-origin')).toBe(TRUSTED)
      expect(allowed.headers.get('access-control-allow-methods')).toContain('POST')
      expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
      expect(Number(allowed.headers.get('access-control-max-age'))).toBeGreaterThan(0)
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull()
      expect(allowed.headers.get('vary')).toContain('Origin')
      const refused = await pre(STRANGER, '/api/upload')
      expect(refused.status).toBe(204)
      expect([...refused.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([])
      const upload = await fetch(`${api}/api/upload`, { method: 'POST', headers: { origin: STRANGER } })
      expect([...upload.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([])
      expect(upload.headers.get('vary')).toContain('Origin')
      // a public read's preflight (a custom header) is allowed for any origin
      const publicPre = await pre(STRANGER, '/api/events', 'GET')
      expect(publicPre.status).toBe(204)
      expect(publicPre.headers.get('access-control-allow-origin')).toBe('*')
    })

    test('the admin front-end on a listed origin logs in with the cookie; another origin cannot', async () => {
      const api = targets[name]
      expect(await adminFromPage(TRUSTED, api)).toEqual({ login: 200, me: 200, user: ADMIN.username })
      const stranger = await adminFromPage(STRANGER, api)
      expect(stranger.login).toBeUndefined()
      expect(String(stranger.error)).toContain('Failed to fetch')
      const preflight = await fetch(`${api}/api/admin/login`, {
        method: 'OPTIONS',
        headers: { origin: TRUSTED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
      expect(preflight.headers.get('access-control-allow-origin')).toBe(TRUSTED)
      const me = await fetch(`${api}/api/admin/me`, { headers: { origin: TRUSTED } })
      expect(me.status).toBe(401)
      expect(me.headers.get('access-control-allow-origin')).toBe(TRUSTED)
      expect(me.headers.get('vary')).toContain('Origin')
    })
  })

  describe(`OpenAPI document (${name})`, () => {
    test('0 errors from redocly (recommended) and Spectral (spectral:oas); every operation complete', async () => {
      const doc = await (await fetch(`${targets[name]}/api/openapi.json`)).json()
      expect(doc['x-unavailable']).toBeUndefined()
      expect(Object.keys(doc.paths).length).toBeGreaterThan(15)
      expect(await lintErrors(doc)).toEqual([])
      expect(completenessProblems(doc)).toEqual([])
      expect(doc.components.securitySchemes.admin_session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'admin_session' })
      const isFree =
        doc.paths['/api/events'].get.responses['200'].content['application/json'].schema.properties.data.items.properties.is_free
      expect(isFree.type).toBe('integer')
    }, 120_000)
  })

  describe(`compression (${name})`, () => {
    test('br, zstd and gzip by Accept-Encoding, same JSON as uncompressed, ETag/304 across encodings', async () => {
      const api = targets[name]
      const url = `${api}/api/events?limit=100`
      const plain = await raw(url, { headers: { 'accept-encoding': 'identity' } })
      expect(plain.headers.get('content-encoding')).toBeNull()
      expect(plain.headers.get('vary')).toContain('Accept-Encoding')
      const plainText = await plain.text()
      expect(plainText.length).toBeGreaterThan(1024)
      for (const encoding of ['br', 'zstd', 'gzip']) {
        const res = await raw(url, { headers: { 'accept-encoding': encoding } })
        expect(res.status).toBe(200)
        expect(res.headers.get('content-encoding')).toBe(encoding)
        expect(res.headers.get('vary')).toContain('Accept-Encoding')
        const body = await res.arrayBuffer()
        expect(body.byteLength).toBeLessThan(plainText.length / 2)
        expect(decode(encoding, body)).toBe(plainText)
        const etag = res.headers.get('etag')!
        expect(etag).toBe(plain.headers.get('etag')!)
        const again = await raw(url, { headers: { 'accept-encoding': encoding, 'if-none-match': etag } })
        expect(again.status).toBe(304)
        expect(again.headers.get('vary')).toContain('Accept-Encoding')
      }
      // a browser's usual header: gzip, the form the cache keeps (see compression.ts); a client
      // that prefers another by q-value gets it
      const chrome = await raw(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
      expect(chrome.headers.get('content-encoding')).toBe('gzip')
      const weighted = await raw(url, { headers: { 'accept-encoding': 'br;q=0.1, gzip;q=0.9' } })
      expect(weighted.headers.get('content-encoding')).toBe('gzip')
      const preferred = await raw(url, { headers: { 'accept-encoding': 'gzip;q=0.5, br' } })
      expect(preferred.headers.get('content-encoding')).toBe('br')
    })

    test('a client that names no encoding gets the plain answer as the service sent it, its length given', async () => {
      // fetch always offers encodings: a socket speaks for clients that offer none (wrk, scripts)
      const { hostname, port } = new URL(targets[name])
      const chunks: Buffer[] = []
      const { promise: closed, resolve } = Promise.withResolvers<void>()
      const socket = await Bun.connect({
        hostname,
        port: Number(port),
        socket: {
          data: (_socket, data) => void chunks.push(Buffer.from(data)),
          close: () => resolve(),
          error: () => resolve(),
        },
      })
      socket.write(`GET /api/events?limit=100 HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`)
      await Promise.race([closed, Bun.sleep(10_000)])
      socket.end()
      const response = Buffer.concat(chunks).toString('utf8')
      const split = response.indexOf('\r\n\r\n')
      const head = response.slice(0, split).toLowerCase()
      const body = response.slice(split + 4)
      expect(head).toStartWith('http/1.1 200')
      expect(head).not.toContain('content-encoding')
      // through the gateway too: it passes the (absent) Accept-Encoding on, instead of asking the
      // service for gzip and un-gzipping every answer itself, which also lost the length (chunked)
      expect(head).not.toContain('transfer-encoding')
      expect(Number(/content-length: *(\d+)/.exec(head)?.[1])).toBe(Buffer.byteLength(body))
      expect(JSON.parse(body).data.length).toBeGreaterThan(0)
    })

    test('small answers and images are sent as they are', async () => {
      const api = targets[name]
      const small = await raw(`${api}/api/settings`, { headers: { 'accept-encoding': 'br, gzip, zstd' } })
      expect(small.status).toBe(200)
      const smallBody = await small.text()
      if (smallBody.length < 1024) expect(small.headers.get('content-encoding')).toBeNull()
      const health = await raw(`${api}/health`, { headers: { 'accept-encoding': 'gzip' } })
      expect(health.headers.get('content-encoding')).toBeNull()
      const form = new FormData()
      form.append('file', new File([pngBytes(20_000)], 'poster.png', { type: 'image/png' }))
      const uploaded = (await (await fetch(`${api}/api/upload`, { method: 'POST', body: form })).json()) as any
      expect(uploaded.success).toBe(true)
      const image = await raw(`${api}${new URL(uploaded.url).pathname}`, { headers: { 'accept-encoding': 'gzip, br, zstd' } })
      expect(image.status).toBe(200)
      expect(image.headers.get('content-type')).toBe('image/png')
      expect(image.headers.get('content-encoding')).toBeNull()
      expect((await image.arrayBuffer()).byteLength).toBe(20_000)
    })
  })
}

for (const name of ['bun start', 'gateway']) {
  describe(`image variants (${name})`, () => {
    test('an upload URL with w/format gives the resized image; bad sizes 400; the plain URL unchanged', async () => {
      const api = targets[name]
      const photo = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#cc3300' } })
        .jpeg()
        .toBuffer()
      const form = new FormData()
      form.append('file', new File([photo], 'poster.jpg', { type: 'image/jpeg' }))
      const uploaded = (await (await fetch(`${api}/api/upload`, { method: 'POST', body: form })).json()) as any
      expect(uploaded.success).toBe(true)
      const path = new URL(uploaded.url).pathname
      expect(path).toMatch(/^\/media\/uploads\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/)
      const plain = await fetch(`${api}${path}`, { headers: { origin: STRANGER } })
      expect(plain.status).toBe(200)
      // from the bucket (gateway) or the media service (bun start): readable from any origin
      expect(plain.headers.get('access-control-allow-origin')).toBe('*')
      expect(Buffer.from(await plain.arrayBuffer()).equals(photo)).toBe(true)
      for (let round = 0; round < 2; round++) {
        const variant = await fetch(`${api}${path}?w=320&format=webp`)
        expect(variant.status).toBe(200)
        expect(variant.headers.get('content-type')).toBe('image/webp')
        expect(variant.headers.get('cache-control')).toContain('immutable')
        const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata()
        expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 160])
      }
      const negotiated = await fetch(`${api}${path}?preset=thumb`, { headers: { accept: 'image/avif,image/webp,*/*' } })
      expect(negotiated.headers.get('content-type')).toBe('image/avif')
      expect(negotiated.headers.get('vary')).toContain('Accept')
      const bad = await fetch(`${api}${path}?w=321`)
      expect(bad.status).toBe(400)
      expect(((await bad.json()) as any).success).toBe(false)
    })
  })
}

for (const name of ['bun start', 'gateway']) {
  describe(`Swagger UI (${name})`, () => {
    test('offline page with servers list and Authorize; try-it-out runs a real request', async () => {
      const context = await browser.newContext()
      const offline: string[] = []
      try {
        const page = await context.newPage()
        page.on('request', (request) => {
          if (!request.url().startsWith(targets[name])) offline.push(request.url())
        })
        await page.goto(`${targets[name]}/docs`)
        await page.waitForSelector('.opblock', { timeout: 30_000 })
        expect(await page.locator('.servers select option').allTextContents()).toContain('/ - Server yang menyajikan dokumen ini')
        await page.locator('button.authorize').first().click()
        await page.waitForSelector('.auth-container', { timeout: 10_000 })
        expect(await page.locator('.auth-container').first().textContent()).toContain('admin_session')
        await page.locator('.modal-ux .close-modal').click()
        await page.locator('#operations-Kategori-getApiCategories .opblock-summary').click()
        // tryItOutEnabled: the Execute button is there at once
        await page.locator('#operations-Kategori-getApiCategories button.execute').click()
        const cell = '#operations-Kategori-getApiCategories .live-responses-table tr.response .response-col_status'
        await page.waitForSelector(cell, { timeout: 15_000 })
        const status = await page.locator(cell).first().textContent()
        expect(status?.trim()).toBe('200')
        expect(offline).toEqual([])
      } finally {
        await context.close()
      }
    }, 90_000)
  })
}

// a valid 1x1 PNG padded with bytes its decoder ignores
function pngBytes(size: number): Uint8Array {
  const base = Uint8Array.from(
    atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
    (c) => c.charCodeAt(0),
  )
  const out = new Uint8Array(size)
  out.set(base)
  for (let i = base.length; i < size; i++) out[i] = i % 251
  return out
}
