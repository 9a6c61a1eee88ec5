import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { createDb } from '@app/db'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createBaseApp } from './app'
import { clientAddress } from './client-ip'
import { ConfigError, readConfig } from './env'
import { HttpError } from './errors'
import { pageQuery, pageRequest, pagination } from './pagination'
import { createRateLimiter } from './rate-limit'
import type { Logger } from './request-log'
import { call, envelopeMessage, get, post } from './testing'

function captureLogger() {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = []
  const logger: Logger = {
    info: (msg, fields) => lines.push({ level: 'info', msg, fields }),
    warn: (msg, fields) => lines.push({ level: 'warn', msg, fields }),
    error: (msg, fields) => lines.push({ level: 'error', msg, fields }),
  }
  return { logger, lines }
}

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

function testApp(logger: Logger, db = database) {
  return createBaseApp({ service: 'test', logger, checks: { database: () => db.ping() } })
    .get('/boom', () => {
      throw new Error('secret internal detail at /srv/app.ts:42')
    })
    .get('/teapot', () => {
      throw new HttpError(418, 'Saya teko')
    })
    .get('/db', async () => {
      await db.ping()
      return { success: true }
    })
    .get('/list', ({ query }) => ({ success: true, ...pageRequest(query, 12, 100) }), { query: t.Object(pageQuery) })
    .post('/echo', ({ body }) => ({ success: true, body }), {
      body: t.Object({ title: t.String({ minLength: 3, error: 'Judul minimal 3 karakter' }), n: t.Optional(t.Number()) }),
    })
}

describe('error envelope', () => {
  test('unknown route: 404 envelope', async () => {
    const res = await get(testApp(captureLogger().logger), '/api/tidak-ada')
    expect(res.status).toBe(404)
    expect(envelopeMessage(res)).toBe('Halaman atau endpoint tidak ditemukan')
  })

  test('wrong method: 404 envelope, not a framework page', async () => {
    const res = await call(testApp(captureLogger().logger), 'DELETE', '/list')
    expect([404, 405]).toContain(res.status)
    envelopeMessage(res)
  })

  test('malformed JSON: 400 envelope', async () => {
    const res = await call(testApp(captureLogger().logger), 'POST', '/echo', {
      rawBody: '{"title": "abc"',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(envelopeMessage(res)).toBe('Format JSON tidak valid')
  })

  test('validation: 400 (not 422) with the schema message and field details', async () => {
    const res = await post(testApp(captureLogger().logger), '/echo', { title: 'ab', n: 'x' })
    expect(res.status).toBe(400)
    expect(envelopeMessage(res)).toBe('Judul minimal 3 karakter')
    expect(res.body.details).toEqual([
      { field: 'title', message: 'Judul minimal 3 karakter' },
      { field: 'n', message: 'n harus berupa angka' },
    ])
    expect(res.text).not.toContain('Expected')
  })

  test('JSON body over 64 KB: 413 envelope, declared or streamed', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(70 * 1024) })
    const declared = await call(testApp(captureLogger().logger), 'POST', '/echo', {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    })
    expect(declared.status).toBe(413)
    envelopeMessage(declared)
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    const response = await testApp(captureLogger().logger).handle(
      new Request('http://localhost/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream }),
    )
    expect(response.status).toBe(413)
  })

  test('HttpError keeps its status and message', async () => {
    const res = await get(testApp(captureLogger().logger), '/teapot')
    expect(res.status).toBe(418)
    expect(envelopeMessage(res)).toBe('Saya teko')
  })

  test('unexpected error: 500 envelope without internals, logged with the request id', async () => {
    const { logger, lines } = captureLogger()
    const res = await get(testApp(logger), '/boom', { headers: { 'x-request-id': 'req-abc-123' } })
    expect(res.status).toBe(500)
    expect(envelopeMessage(res)).toBe('Terjadi kesalahan pada server')
    expect(res.text).not.toContain('secret')
    expect(res.text).not.toContain('app.ts')
    const logged = lines.find((l) => l.msg === 'unhandled error')!
    expect(logged.fields?.request_id).toBe('req-abc-123')
    expect(String(logged.fields?.error)).toContain('secret internal detail')
  })

  test('database unreachable: 503 envelope within seconds, and /ready says so', async () => {
    const down = await createDb('postgres://postgres@127.0.0.1:9/nothing', { connectTimeoutSeconds: 2 })
    const app = testApp(captureLogger().logger, down)
    const started = performance.now()
    const res = await get(app, '/db')
    expect(res.status).toBe(503)
    expect(envelopeMessage(res)).toBe('Layanan sedang tidak tersedia, coba lagi nanti')
    expect(performance.now() - started).toBeLessThan(5000)
    const ready = await get(app, '/ready')
    expect(ready.status).toBe(503)
    expect(envelopeMessage(ready)).toContain('database')
    expect((await get(app, '/health')).status).toBe(200)
    await down.close()
  })

  test('/ready is 200 when the database answers', async () => {
    const res = await get(testApp(captureLogger().logger), '/ready')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, status: 'ready', checks: { database: 'ok' } })
  })
})

describe('request log', () => {
  test('one line per request with method, path, status, ms and the echoed request id', async () => {
    const { logger, lines } = captureLogger()
    const app = testApp(logger)
    const res = await get(app, '/list?page=2')
    const id = res.headers.get('x-request-id')
    expect(id).toBeTruthy()
    await get(app, '/nope')
    // onAfterResponse runs after the response is handed back
    await Bun.sleep(20)
    const requests = lines.filter((l) => l.msg === 'request')
    expect(requests).toHaveLength(2)
    expect(requests[0].fields).toMatchObject({ method: 'GET', path: '/list', status: 200, request_id: id })
    expect(typeof requests[0].fields?.ms).toBe('number')
    expect(requests[1].fields).toMatchObject({ path: '/nope', status: 404 })
  })

  test('a sane incoming X-Request-Id is kept, a hostile one replaced', async () => {
    const app = testApp(captureLogger().logger)
    expect((await get(app, '/list', { headers: { 'x-request-id': 'gw-123' } })).headers.get('x-request-id')).toBe('gw-123')
    const hostile = (await get(app, '/list', { headers: { 'x-request-id': 'a b<script>' } })).headers.get('x-request-id')
    expect(hostile).not.toContain('<')
  })
})

describe('pagination', () => {
  test('math at the edges', () => {
    expect(pagination(pageRequest({}, 12, 100), 25, true)).toEqual({
      page: 1,
      limit: 12,
      total: 25,
      total_pages: 3,
      has_next: true,
      has_prev: false,
      next_page: 2,
      prev_page: null,
    })
    expect(pagination(pageRequest({ page: 3 }, 12, 100), 25, true)).toMatchObject({
      has_next: false,
      next_page: null,
      prev_page: 2,
    })
    expect(pagination(pageRequest({ page: 9 }, 12, 100), 25, true)).toMatchObject({
      has_next: false,
      has_prev: true,
      prev_page: 3,
    })
    expect(pagination(pageRequest({}, 12, 100), 0, true)).toMatchObject({ total_pages: 0, has_next: false, has_prev: false })
    expect(pageRequest({ limit: 1000 }, 12, 100)).toEqual({ page: 1, limit: 100, offset: 0 })
    expect(pageRequest({ page: 4, limit: 10 }, 12, 100).offset).toBe(30)
    expect(Object.keys(pagination(pageRequest({}, 20, 100), 5))).not.toContain('next_page')
  })

  test('page and limit parsing: 400 for non-numeric and < 1', async () => {
    const app = testApp(captureLogger().logger)
    for (const q of ['page=0', 'page=abc', 'limit=0', 'limit=1e3x', 'page=2.5']) {
      const res = await get(app, `/list?${q}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toMatch(/^(page|limit) /)
    }
    expect((await get(app, '/list?limit=500')).body.limit).toBe(100)
  })
})

describe('config', () => {
  test('defaults', () => {
    const config = readConfig({})
    expect(config).toMatchObject({ port: 3000, dataDir: './data', seedDemo: true, cookieSecure: false, submitLimitPerHour: 10 })
    expect(config.databaseReadPool).toBe(4)
    expect(readConfig({ DATABASE_READ_POOL: '12' }).databaseReadPool).toBe(12)
    expect(readConfig({ DATABASE_URL: 'postgres://x@h/db' }).seedDemo).toBe(false)
  })

  test('invalid values name the variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ S3_ENDPOINT: 'http://minio:9000' }, 'S3_ACCESS_KEY'],
      [{ COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE'],
      [{ ADMIN_USERNAME: 'admin' }, 'ADMIN_PASSWORD'],
      [{ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
      [{ SUBMIT_LIMIT_PER_HOUR: '0' }, 'SUBMIT_LIMIT_PER_HOUR'],
      [{ DATABASE_READ_POOL: '0' }, 'DATABASE_READ_POOL'],
      [{ DATABASE_READ_POOL: 'many' }, 'DATABASE_READ_POOL'],
      [{ TRUSTED_PROXIES: 'caddy;rm' }, 'TRUSTED_PROXIES'],
    ]
    for (const [env, name] of cases) {
      expect(() => readConfig(env)).toThrow(ConfigError)
      expect(() => readConfig(env)).toThrow(name)
    }
  })

  test('a service with an invalid value stops with one line naming it', async () => {
    const proc = Bun.spawn(['bun', 'run', 'services/catalog/src/main.ts'], {
      cwd: `${import.meta.dir}/../../..`,
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const code = await proc.exited
    const stderr = (await new Response(proc.stderr).text()).trim()
    expect(code).toBe(1)
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toContain('PORT')
  })
})

describe('client address', () => {
  const request = (xff?: string) => new Request('http://localhost/', { headers: xff ? { 'x-forwarded-for': xff } : {} })
  const server = (ip: string) => ({ requestIP: () => ({ address: ip }) })

  test('an untrusted peer is the client, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('1.2.3.4'), server('203.0.113.9'), [])).toBe('203.0.113.9')
    expect(clientAddress(request('1.2.3.4'), server('::ffff:10.0.0.5'), ['127.0.0.1'])).toBe('10.0.0.5')
  })

  test('behind a trusted proxy, the right-most untrusted forwarded address', () => {
    expect(clientAddress(request('6.6.6.6, 1.2.3.4'), server('127.0.0.1'), ['127.0.0.1'])).toBe('1.2.3.4')
    expect(clientAddress(request('1.2.3.4, 10.0.0.2'), server('127.0.0.1'), ['127.0.0.1', '10.0.0.2'])).toBe('1.2.3.4')
    expect(clientAddress(request(), server('127.0.0.1'), ['127.0.0.1'])).toBe('127.0.0.1')
  })
})

describe('rate limiter', () => {
  test('allows the limit, then 429 with Retry-After; keys and buckets are separate', async () => {
    const limiter = createRateLimiter(database)
    for (let i = 0; i < 3; i++) await limiter.hit('t1', '1.1.1.1', 3, 60)
    const error = await limiter.hit('t1', '1.1.1.1', 3, 60).catch((e) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error.status).toBe(429)
    expect(Number(error.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(error.headers['retry-after'])).toBeLessThanOrEqual(60)
    await limiter.hit('t1', '2.2.2.2', 3, 60)
    await limiter.hit('t2', '1.1.1.1', 3, 60)
  })

  test('a new window starts once the old one expires', async () => {
    const limiter = createRateLimiter(database)
    await limiter.hit('t3', 'k', 1, 60)
    await expect(limiter.hit('t3', 'k', 1, 60)).rejects.toBeInstanceOf(HttpError)
    await database.rows(
      (await import('drizzle-orm')).sql`update rate_limit_hits set expires_at = now() - interval '1 second' where key = 't3:k'`,
    )
    await limiter.hit('t3', 'k', 1, 60)
  })
})

describe('request size over real HTTP', () => {
  test('a declared body above 25 MiB gets the 413 envelope, not the server default', async () => {
    const { listenOptions } = await import('./serve')
    const app = testApp(captureLogger().logger).listen({ ...listenOptions(0), hostname: '127.0.0.1' })
    try {
      const res = await fetch(`http://127.0.0.1:${app.server!.port}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Uint8Array(30 * 1024 * 1024),
      })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({ success: false, error: 'Ukuran data melebihi batas yang diizinkan' })
    } finally {
      await app.stop()
    }
  })
})

describe('listening', () => {
  test('a second service on a port in use fails to start instead of sharing its connections', async () => {
    const { listenOptions } = await import('./serve')
    const first = testApp(captureLogger().logger).listen({ ...listenOptions(0), hostname: '127.0.0.1' })
    try {
      const port = first.server!.port
      expect(() => testApp(captureLogger().logger).listen({ ...listenOptions(port!), hostname: '127.0.0.1' })).toThrow()
      // every request still reaches the first one
      for (let i = 0; i < 20; i++) expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
    } finally {
      await first.stop()
    }
  })
})
