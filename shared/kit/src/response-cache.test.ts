import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { cacheKey, createResponseCache, createVersionSource, type VersionSource } from './response-cache'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const request = (headers: Record<string, string> = {}) => new Request('http://localhost/x', { headers })
const fixedVersion = (box: { v: number }): VersionSource => ({ current: async () => box.v })

describe('version source', () => {
  test('every write to a public table moves the version, in the same transaction', async () => {
    const versions = createVersionSource(database)
    const before = await versions.current()
    await database.rows(sql`update settings set value = value || '!' where key = 'site_title'`)
    const afterSettings = await versions.current()
    expect(afterSettings).toBeGreaterThan(before)
    await database.rows(sql`update events set title = title where id = (select id from events limit 1)`)
    expect(await versions.current()).toBeGreaterThan(afterSettings)
    // a rolled-back write does not
    const settled = await versions.current()
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update categories set name = name`)
        throw new Error('rollback')
      })
      .catch(() => {})
    expect(await versions.current()).toBe(settled)
  })

  test('writes to private tables (sessions, rate limits) do not', async () => {
    const versions = createVersionSource(database)
    const before = await versions.current()
    await database.rows(sql`insert into rate_limit_hits (key, count, expires_at) values ('x', 1, now())`)
    expect(await versions.current()).toBe(before)
  })

  test('concurrent callers share one query, but a caller never reuses a query sent before it arrived', async () => {
    let queries = 0
    const counting = {
      ...database,
      rows: async <T>(q: any) => {
        queries++
        return database.rows<T>(q)
      },
    }
    const versions = createVersionSource(counting)
    const all = await Promise.all(Array.from({ length: 20 }, () => versions.current(0)))
    expect(new Set(all).size).toBe(1)
    expect(queries).toBe(1)
    // arrives later than the query in flight was sent: must send its own
    await versions.current(performance.now() + 1)
    expect(queries).toBe(2)
  })
})

describe('response cache', () => {
  test('answers from memory while the version holds, recomputes once it moves', async () => {
    const box = { v: 1 }
    const cache = createResponseCache({ versions: fixedVersion(box) })
    let computed = 0
    const compute = async () => ({ status: 200, body: { success: true, n: ++computed } })
    const first = await (await cache.respond(request(), 'k', compute)).json()
    const second = await (await cache.respond(request(), 'k', compute)).json()
    expect(first).toEqual({ success: true, n: 1 })
    expect(second).toEqual(first)
    box.v = 2
    expect(await (await cache.respond(request(), 'k', compute)).json()).toEqual({ success: true, n: 2 })
  })

  test('ETag and If-None-Match: 304 while unchanged, 200 with a new tag after a write', async () => {
    const box = { v: 7 }
    const cache = createResponseCache({ versions: fixedVersion(box) })
    const compute = async () => ({ status: 200, body: { success: true, v: box.v } })
    const res = await cache.respond(request(), 'k', compute)
    const etag = res.headers.get('etag')!
    expect(etag).toMatch(/^W\/".+"$/)
    expect(res.headers.get('cache-control')).toBe('public, no-cache')
    const notModified = await cache.respond(request({ 'if-none-match': etag }), 'k', compute)
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
    box.v = 8
    const changed = await cache.respond(request({ 'if-none-match': etag }), 'k', compute)
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  test('error answers are cached with their status but never answered 304', async () => {
    const cache = createResponseCache({ versions: fixedVersion({ v: 1 }) })
    const res = await cache.respond(request(), 'k', async () => ({ status: 404, body: { success: false, error: 'x' } }))
    expect(res.status).toBe(404)
    const again = await cache.respond(request({ 'if-none-match': res.headers.get('etag')! }), 'k', async () => {
      throw new Error('not called')
    })
    expect(again.status).toBe(404)
  })

  test('bounded in bytes: a newcomer asked once is not kept when full; asked again, it takes the place of the least recently used', async () => {
    // each entry here costs ~410 bytes (body, key, bookkeeping): three fit in 1,300
    const cache = createResponseCache({ versions: fixedVersion({ v: 1 }), maxBytes: 1300 })
    const compute = (n: number) => async () => ({ status: 200, body: { n } })
    const read = async (k: string, n: number) => (await (await cache.respond(request(), k, compute(n))).json()) as { n: number }
    for (const k of ['a', 'b', 'c']) await read(k, 0)
    await read('a', 1)
    // asked once while the cache is full: answered, not kept, and nothing is evicted for it
    expect(await read('d', 0)).toEqual({ n: 0 })
    expect(cache.size).toBe(3)
    expect(cache.stats().rejected).toBe(1)
    expect(await read('b', 2)).toEqual({ n: 0 })
    // asked again, d is kept in place of the least recently used (c)
    expect(await read('d', 3)).toEqual({ n: 3 })
    expect(await read('d', 4)).toEqual({ n: 3 })
    expect(cache.size).toBe(3)
    expect(await read('a', 5)).toEqual({ n: 0 })
    expect(await read('c', 6)).toEqual({ n: 6 })
    expect(cache.stats().bytes).toBeLessThanOrEqual(1300)
  })

  test('answers asked once are never compressed; the window holds them plain until they leave it', async () => {
    const body = (n: number) => ({ n, items: Array.from({ length: 100 }, (_, i) => ({ id: i, title: `Acara ${i}` })) })
    const cache = createResponseCache({ versions: fixedVersion({ v: 1 }), maxBytes: 100_000, windowBytes: 20_000 })
    const compute = (n: number) => async () => ({ status: 200, body: body(n) })
    await cache.respond(request(), 'k0', compute(0))
    expect(cache.stats().hotBytes).toBe(0)
    // a compressed client's first ask makes the gzip form
    const zipped = await cache.respond(request({ 'accept-encoding': 'gzip' }), 'k0', compute(-1))
    expect(zipped.headers.get('x-cache')).toBe('hit')
    expect(JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))))).toEqual(body(0))
    // enough new answers to push k0 out of the window: the main part has room, so it is taken
    for (let n = 1; n < 12; n++) await cache.respond(request(), `k${n}`, compute(n))
    expect(cache.stats().admitted).toBeGreaterThan(0)
    expect(cache.stats().hotBytes).toBeGreaterThan(0)
    const again = await cache.respond(request(), 'k0', compute(-1))
    expect(again.headers.get('x-cache')).toBe('hit')
    expect(await again.json()).toEqual(body(0))
    // an answer larger than the whole cache is answered, never kept
    const huge = { items: Array.from({ length: 5000 }, (_, i) => ({ id: i, title: `Acara ${i}` })) }
    const held = cache.stats().entries
    expect(await (await cache.respond(request(), 'huge', async () => ({ status: 200, body: huge }))).json()).toEqual(huge)
    expect(await (await cache.respond(request(), 'huge', async () => ({ status: 200, body: huge }))).json()).toEqual(huge)
    expect(cache.stats().entries).toBeLessThanOrEqual(held)
    expect(cache.stats().bytes).toBeLessThanOrEqual(100_000)
  })

  test('cold entries keep only their gzip form and still answer plain and compressed clients', async () => {
    // ~20 KB of JSON per answer, ~1 KB gzipped: plain forms for one answer only
    const body = (n: number) => ({ n, items: Array.from({ length: 400 }, (_, i) => ({ id: i, title: `Acara ${i}` })) })
    const cache = createResponseCache({ versions: fixedVersion({ v: 1 }), maxBytes: 200_000, hotBytes: 30_000 })
    const computed: number[] = []
    const compute = (n: number) => async () => (computed.push(n), { status: 200, body: body(n) })
    for (let n = 0; n < 20; n++) await cache.respond(request(), `k${n}`, compute(n))
    const stats = cache.stats()
    // twenty answers of ~20 KB would be 400 KB plain: they all stay, most of them compressed
    expect(stats.entries).toBe(20)
    expect(stats.bytes).toBeLessThanOrEqual(200_000)
    expect(stats.hotBytes).toBeLessThanOrEqual(30_000)
    // a cold one: answered from memory, decompressed for a plain client, as gzip for others
    const plain = await cache.respond(request(), 'k0', compute(-1))
    expect(plain.headers.get('x-cache')).toBe('hit')
    expect(await plain.json()).toEqual(body(0))
    const zipped = await cache.respond(request({ 'accept-encoding': 'gzip' }), 'k1', compute(-1))
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))))).toEqual(body(1))
    const brotli = await cache.respond(request({ 'accept-encoding': 'br' }), 'k2', compute(-1))
    expect(brotli.headers.get('content-encoding')).toBe('br')
    expect(computed).toEqual(Array.from({ length: 20 }, (_, n) => n))
    expect(cache.stats().bytes).toBeLessThanOrEqual(200_000)
    expect(cache.stats().hotBytes).toBeLessThanOrEqual(30_000)
  })

  test('the main part keeps new answers plain; one that cools unasked leaves instead when the full main part holds answers asked more', async () => {
    // ~20 KB that compresses to about half: the main part holds a dozen or so
    const body = (n: number) => ({ n, items: Array.from({ length: 400 }, (_, i) => ({ id: i, code: Bun.hash(`${n}:${i}`).toString(36) })) })
    const cache = createResponseCache({ versions: fixedVersion({ v: 1 }), maxBytes: 200_000, hotBytes: 30_000 })
    const ask = async (n: number) => {
      const response = await cache.respond(request(), `k${n}`, async () => ({ status: 200, body: body(n) }))
      expect(await response.json()).toEqual(body(n))
      return response.headers.get('x-cache')
    }
    // while the main part has room, answers that cool are compressed, asked again or not
    for (let n = 0; n < 20; n++) await ask(n)
    const filled = cache.stats()
    expect(filled.compressed).toBeGreaterThan(5)
    expect(filled.unasked).toBe(0)
    // answers asked three times (the last in the main part), then answers asked twice: these take
    // the places of answers asked as often or less (least recently used first), then, the main part
    // holding only answers asked more, leave as they cool, uncompressed, and push none out
    for (let n = 100; n < 115; n++) await ask(n), await ask(n), await ask(n)
    for (let n = 100; n < 115; n++) expect(await ask(n)).toBe('hit')
    const before = cache.stats()
    for (let n = 200; n < 250; n++) await ask(n), await ask(n)
    const after = cache.stats()
    expect(after.unasked - before.unasked).toBeGreaterThan(10)
    expect(after.bytes).toBeLessThanOrEqual(200_000)
    expect(after.hotBytes).toBeLessThanOrEqual(30_000)
    for (let n = 100; n < 115; n++) expect(await ask(n)).toBe('hit')
    expect(await ask(249 - 5)).toBe('miss')
    for (let n = 0; n < 20; n++) expect(await ask(n)).toBe('miss')
  })

  test('a write drops exactly the answers that depend on its keys', async () => {
    let listener: (version: number, keys: string[] | null) => void = () => {}
    const box = { v: 1 }
    const versions: VersionSource = { current: async () => box.v, onChange: (l) => (listener = l) }
    const cache = createResponseCache({ versions })
    const write = (keys: string[] | null) => listener(++box.v, keys)
    let n = 0
    const compute = (deps?: string[]) => async () => ({ status: 200, body: { n: ++n }, deps })
    const read = async (key: string, deps?: string[]) =>
      ((await (await cache.respond(request(), key, compute(deps))).json()) as { n: number }).n
    const a = await read('event-a', ['event:a', 'list:cat:musik'])
    const b = await read('event-b', ['event:b', 'list:cat:olahraga'])
    const undeclared = await read('settings')
    write(['event:a', 'stats'])
    expect(await read('event-a', ['event:a'])).not.toBe(a)
    expect(await read('event-b', ['event:b'])).toBe(b)
    // an answer that declares nothing depends on everything
    expect(await read('settings')).not.toBe(undeclared)
    const b2 = await read('event-b')
    expect(b2).toBe(b)
    write(['list:cat:olahraga'])
    expect(await read('event-b', ['event:b', 'list:cat:olahraga'])).not.toBe(b)
    // a write with unknown keys, or a version this process was not told about, drops everything
    const kept = await read('event-b', ['event:b'])
    write(null)
    expect(await read('event-b', ['event:b'])).not.toBe(kept)
    const kept2 = await read('event-b', ['event:b'])
    box.v += 2
    expect(await read('event-b', ['event:b'])).not.toBe(kept2)
    expect(cache.stats().hits).toBeGreaterThan(0)
  })

  test('a change key shared by many answers, some replaced or evicted meanwhile, drops exactly those left', async () => {
    let listener: (version: number, keys: string[] | null) => void = () => {}
    const box = { v: 1 }
    const versions: VersionSource = { current: async () => box.v, onChange: (l) => (listener = l) }
    // room for about four of these answers
    const cache = createResponseCache({ versions, maxBytes: 2400 })
    const write = (keys: string[]) => listener(++box.v, keys)
    let n = 0
    const read = async (key: string, deps: string[]) =>
      (
        (await (await cache.respond(request(), key, async () => ({ status: 200, body: { n: ++n }, deps }))).json()) as {
          n: number
        }
      ).n
    // the first and the second dependent of a key both go
    const x = await read('x', ['list:cat:musik'])
    const y = await read('y', ['list:cat:musik'])
    write(['list:cat:musik'])
    expect(await read('x', ['list:cat:musik'])).not.toBe(x)
    expect(await read('y', ['list:cat:musik'])).not.toBe(y)
    write(['list:cat:musik'])
    // one dependent, then a second and a third on the same key
    const a = await read('a', ['list:city:bandung', 'event:a'])
    const b = await read('b', ['list:city:bandung', 'event:b'])
    await read('c', ['list:city:bandung', 'event:c'])
    // c leaves by a write of its own key; d and e push the least recently used (a) out
    write(['event:c'])
    expect(await read('b', ['list:city:bandung', 'event:b'])).toBe(b)
    const d = await read('d', ['list:city:surabaya'])
    await read('e', ['list:city:surabaya'])
    // f, asked twice, takes the place of a (asked once, least recently used)
    await read('f', ['list:city:surabaya'])
    await read('f', ['list:city:surabaya'])
    expect(await read('a', ['list:city:bandung', 'event:a'])).not.toBe(a)
    // asked again and again, a is taken back (in place of b, asked less)
    await read('a', ['list:city:bandung', 'event:a'])
    const a2 = await read('a', ['list:city:bandung', 'event:a'])
    expect(await read('a', ['list:city:bandung', 'event:a'])).toBe(a2)
    // bandung drops a and b, and only them
    write(['list:city:bandung'])
    expect(cache.size).toBeGreaterThan(0)
    expect(await read('a', ['list:city:bandung', 'event:a'])).not.toBe(a2)
    expect(await read('b', ['list:city:bandung', 'event:b'])).not.toBe(b)
    // a key whose every dependent left is forgotten: a later answer on it is stored and dropped as usual
    write(['list:city:surabaya'])
    const d2 = await read('d', ['list:city:surabaya'])
    expect(d2).not.toBe(d)
    expect(await read('d', ['list:city:surabaya'])).toBe(d2)
    write(['list:city:surabaya'])
    expect(await read('d', ['list:city:surabaya'])).not.toBe(d2)
  })

  test('a change key named twice by an answer, or whose dependents mostly left, drops exactly the answers left', async () => {
    let listener: (version: number, keys: string[] | null) => void = () => {}
    const box = { v: 1 }
    const versions: VersionSource = { current: async () => box.v, onChange: (l) => (listener = l) }
    const cache = createResponseCache({ versions })
    const write = (keys: string[]) => listener(++box.v, keys)
    let n = 0
    const read = async (i: number) =>
      (
        (await (
          await cache.respond(request(), `l${i}`, async () => ({ status: 200, body: { n: ++n }, deps: ['list:all', `event:${i}`, 'list:all'] }))
        ).json()) as { n: number }
      ).n
    const first = await Promise.all(Array.from({ length: 40 }, (_, i) => read(i)))
    // 30 leave by their own keys: the shared key's list of dependents is compacted on the way
    for (let i = 0; i < 30; i++) write([`event:${i}`])
    expect(cache.stats().invalidated).toBe(30)
    for (let i = 30; i < 40; i++) expect(await read(i)).toBe(first[i])
    // the dropped ones come back, and the shared key drops all 40 (each once)
    const again = await Promise.all(Array.from({ length: 30 }, (_, i) => read(i)))
    again.forEach((value, i) => expect(value).not.toBe(first[i]))
    write(['list:all'])
    expect(cache.stats().invalidated).toBe(70)
    expect(cache.size).toBe(0)
    for (let i = 0; i < 40; i++) expect(await read(i)).toBeGreaterThan(n - 40)
    expect(cache.size).toBe(40)
    // the last answer stored on the shared key, dropped by its own and stored again, is still its dependent
    write(['event:39'])
    const back = await read(39)
    write(['list:all'])
    expect(await read(39)).not.toBe(back)
  })

  test('cache keys ignore parameter order and absent values', () => {
    expect(cacheKey('events', { b: 1, a: 'x y', c: undefined })).toBe(cacheKey('events', { a: 'x y', b: 1 }))
    expect(cacheKey('events', { a: '1' })).not.toBe(cacheKey('event', { a: '1' }))
  })
})
