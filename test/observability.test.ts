// Metrics and request ids on the real stack (scripts/stack-lib.ts: throwaway PostgreSQL cluster,
// services as processes, Caddy): `/metrics` scraped from a service's own port and parsed with a
// Prometheus text-format parser, never reachable through the gateway; one request id seen from
// the caller through Caddy to the service's JSON log line and back in the response.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import postgres from 'postgres'
import { createDb } from '@app/db'
import { sql as sqlText } from 'drizzle-orm'
import { freePort, startStack, type Stack } from '../scripts/stack-lib'

let stack: Stack

beforeAll(async () => {
  stack = await startStack({ gatewayPort: freePort(), catalogReplicas: 1, mediaReplicas: 1, logLevel: 'info' })
}, 180_000)

afterAll(async () => {
  await stack?.stop()
}, 60_000)

const families = (map: Map<string, Family>, name: string) => {
  const family = map.get(name)
  expect(family).toBeDefined()
  return family!
}

type Family = { name: string; type: string; metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[] }

async function scrape(url: string) {
  const res = await fetch(`${url}/metrics`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  const text = await res.text()
  const families = parsePrometheusTextFormat(text) as Family[]
  return { text, families: new Map(families.map((f) => [f.name, f])) }
}

describe('metrics', () => {
  test('a service answers /metrics on its own port: requests by route template and status, latency, memory, event-loop lag', async () => {
    const catalog = stack.services.catalog[0]!
    for (const slug of ['tidak-ada-1', 'tidak-ada-2', 'tidak-ada-3']) await fetch(`${stack.gateway}/api/events/${slug}`)
    await fetch(`${stack.gateway}/api/events?limit=5`)
    const { text, families } = await scrape(catalog.url)
    const requests = families.get('http_requests_total')!
    expect(requests.type).toBe('COUNTER')
    const detail = requests.metrics.find((m) => m.labels?.route === '/api/events/:slug' && m.labels?.status === '404')
    // three distinct URLs, one bounded label set
    expect(Number(detail?.value)).toBe(3)
    const list = requests.metrics.find((m) => m.labels?.route === '/api/events' && m.labels?.status === '200')
    expect(Number(list?.value)).toBeGreaterThanOrEqual(1)
    const latency = families.get('http_request_duration_seconds')!
    expect(latency.type).toBe('HISTOGRAM')
    // this parser merges a histogram's label sets: its per-route count is read from the text
    const counts = text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds_count{'))
    expect(counts.find((l) => l.includes('route="/api/events/:slug"') && l.includes('status="404"'))).toEndWith('} 3')
    expect(Number(families.get('process_resident_memory_bytes')?.metrics[0]?.value)).toBeGreaterThan(10_000_000)
    expect(families.get('nodejs_eventloop_lag_p99_seconds')).toBeDefined()
  })

  test('every service exposes it', async () => {
    const services = [stack.services.news, stack.services.admin, stack.services.docs, stack.services.media[0]!]
    for (const service of services) {
      const { families } = await scrape(service.url)
      expect(families.get('http_requests_total')?.type).toBe('COUNTER')
    }
  })

  test('accepted upload bytes are counted on the media replica that took them', async () => {
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    )
    const form = new FormData()
    form.append('file', new File([png], 'poster.png', { type: 'image/png' }))
    const res = await fetch(`${stack.gateway}/api/upload`, { method: 'POST', body: form })
    expect(res.status).toBe(200)
    const { families } = await scrape(stack.services.media[0]!.url)
    expect(Number(families.get('upload_bytes_total')?.metrics[0]?.value)).toBeGreaterThan(png.length)
  })

  test('response cache series: a hit increments hits, a write counts as an invalidation, entries and bytes follow', async () => {
    const catalog = stack.services.catalog[0]!
    const value = (families: Map<string, Family>, name: string) =>
      Number(families.get(name)?.metrics.find((m) => m.labels?.cache === 'catalog')?.value)
    // a URL of its own, so the first answer is a miss whatever ran before
    const url = `${catalog.url}/api/events?limit=3&page=7`
    expect((await fetch(url)).headers.get('x-cache')).toBe('miss')
    const before = (await scrape(catalog.url)).families
    expect(families(before, 'response_cache_hits_total').type).toBe('COUNTER')
    expect(families(before, 'response_cache_entries').type).toBe('GAUGE')
    expect(value(before, 'response_cache_entries')).toBeGreaterThanOrEqual(1)
    expect(value(before, 'response_cache_bytes')).toBeGreaterThan(400)
    expect((await fetch(url)).headers.get('x-cache')).toBe('hit')
    const afterHit = (await scrape(catalog.url)).families
    expect(value(afterHit, 'response_cache_hits_total')).toBe(value(before, 'response_cache_hits_total') + 1)
    expect(value(afterHit, 'response_cache_misses_total')).toBe(value(before, 'response_cache_misses_total'))

    // a public write (every published event's title rewritten unchanged) drops what depends on it
    const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} })
    try {
      await sql`update events set title = title where status = 'published'`
    } finally {
      await sql.end()
    }
    const dropped = (f: Map<string, Family>) =>
      value(f, 'response_cache_invalidations_total') + value(f, 'response_cache_clears_total')
    let afterWrite = afterHit
    for (let i = 0; i < 50 && dropped(afterWrite) === dropped(afterHit); i++) {
      await Bun.sleep(50)
      afterWrite = (await scrape(catalog.url)).families
    }
    expect(dropped(afterWrite)).toBeGreaterThan(dropped(afterHit))
    expect(value(afterWrite, 'response_cache_entries')).toBeLessThan(value(afterHit, 'response_cache_entries'))
    expect((await fetch(url)).headers.get('x-cache')).toBe('miss')
  })

  test('db pool series on every service with a database; in flight counted against the pool size', async () => {
    for (const service of [stack.services.catalog[0]!, stack.services.news, stack.services.admin, stack.services.media[0]!]) {
      const { families } = await scrape(service.url)
      const of = (name: string) => Number(families.get(name)?.metrics.find((m) => m.labels?.pool === 'primary')?.value)
      expect(of('db_pool_max')).toBeGreaterThan(0)
      expect(of('db_pool_in_use')).toBeGreaterThanOrEqual(0)
      expect(of('db_pool_in_use')).toBeLessThanOrEqual(of('db_pool_max'))
      expect(of('db_pool_waiting')).toBe(0)
    }
    // what the gauges read, under load: 5 slow queries on a pool of 2 = 2 in use, 3 waiting
    const database = await createDb(stack.databaseUrl, { max: 2 })
    try {
      const running = Array.from({ length: 5 }, () => database.rows(sqlText.raw('select pg_sleep(0.3)')))
      await Bun.sleep(100)
      expect(database.pool()).toEqual({ inFlight: 5, max: 2 })
      await Promise.all(running)
      expect(database.pool()).toEqual({ inFlight: 0, max: 2 })
      // a transaction holds its connection (counted once) until it ends
      let inside = -1
      await database.db.transaction(async (tx) => {
        await tx.execute(sqlText.raw('select 1'))
        inside = database.pool().inFlight
      })
      expect(inside).toBe(1)
      expect(database.pool().inFlight).toBe(0)
    } finally {
      await database.close()
    }
  })

  test('the gateway does not route /metrics', async () => {
    const res = await fetch(`${stack.gateway}/metrics`)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ success: false, error: 'Halaman atau endpoint tidak ditemukan' })
  })
})

describe('request ids', () => {
  test("the caller's id crosses Caddy into the service's log line and comes back", async () => {
    const id = `uji-${Bun.randomUUIDv7()}`
    const res = await fetch(`${stack.gateway}/api/categories`, { headers: { 'x-request-id': id } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toBe(id)
    await Bun.sleep(300)
    const lines = readFileSync(stack.services.catalog[0]!.logFile, 'utf8').split('\n').filter((l) => l.includes(id))
    expect(lines.length).toBe(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'request', path: '/api/categories', status: 200, request_id: id })
  })

  test('without one (or with an unsafe one) Caddy makes one, the service logs it and it comes back once', async () => {
    for (const given of [undefined, 'bad id with spaces']) {
      const res = await fetch(`${stack.gateway}/api/cities`, given ? { headers: { 'x-request-id': given } } : {})
      expect(res.status).toBe(200)
      const id = res.headers.get('x-request-id')!
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      await Bun.sleep(300)
      const logged = readFileSync(stack.services.catalog[0]!.logFile, 'utf8').split('\n').filter((l) => l.includes(id))
      expect(logged.length).toBe(1)
    }
  })

  test("the gateway's own answers carry one too", async () => {
    const res = await fetch(`${stack.gateway}/tidak-ada`, { headers: { 'x-request-id': 'uji-gateway-404' } })
    expect(res.status).toBe(404)
    expect(res.headers.get('x-request-id')).toBe('uji-gateway-404')
  })
})
