// The list index: its pages against a plain filter-and-sort of the same rows, and end to end
// against the SQL lists on a real database, before and after writes it follows by change keys.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createListeningVersionSource, createLogger, createRateLimiter, createResponseCache, type ListeningVersionSource } from '@app/kit'
import { get } from '@app/kit/testing'
import { createApp } from '../app'
import type { MatchNode } from './lexeme-postings'
import { createListIndex, IndexData, slugHash, type IndexFilters, type IndexRow, type ListIndex } from './list-index'
import { EVENT_SORTS, type EventSort } from './model'
import { findPublishedEvent } from './service'
import { localDate, ZONES, zoneOf } from './windows'

function seeded(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('IndexData', () => {
  const random = seeded(11)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('')
  const uuid = () => `${hex(8)}-${hex(4)}-7${hex(3)}-8${hex(3)}-${hex(12)}`
  const cities = ['c1', 'c2', 'c3', 'c4']
  const categories = ['k1', 'k2', 'k3']
  const tags = ['t1', 't2', 't3', 't4', 't5', 't6']
  // some common (kept as bitmaps), most rare (sorted slots), several sharing a prefix
  const vocabulary = Array.from({ length: 60 }, (_, i) => `${['ka', 'kb', 'la', 'm'][i % 4]}${i}`)
  const lexemesOf = () => [...new Set(Array.from({ length: Math.floor(random() * 8) }, () => vocabulary[Math.floor(random() ** 3 * vocabulary.length)]))]
  const row = (id = uuid(), startDay = Math.floor(random() * 10)): IndexRow => ({
    id,
    // a replacement renames it
    slug: `acara-${hex(12)}`,
    // few distinct keys, so ties are broken by the id
    createdMicros: Math.floor(random() * 20),
    startDay,
    endDay: startDay + pick([0, 0, 1, 3]),
    timeZone: pick([null, 'Asia/Jakarta', 'Asia/Makassar', 'Asia/Jayapura']),
    price: pick([0, 0, 50_000, 75_000.5]),
    titleRank: random(),
    cityId: random() < 0.1 ? null : pick(cities),
    categoryId: pick(categories),
    format: pick(['offline', 'online', 'hybrid']),
    isFree: random() < 0.4,
    tags: [...new Set(Array.from({ length: Math.floor(random() * 4) }, () => pick(tags)))],
    lexemes: lexemesOf(),
  })
  /** A random match: AND of 1-2 ORs of 1-3 lexemes or prefixes. */
  const randomMatch = (): MatchNode => {
    const part = (): MatchNode => {
      const args = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        random() < 0.2 ? { lexeme: pick(['k', 'ka', 'la1', 'zz']), prefix: true } : { lexeme: pick([...vocabulary, 'zz0']), prefix: false },
      )
      return args.length === 1 ? args[0] : { op: 'or', args }
    }
    return random() < 0.5 ? part() : { op: 'and', args: [part(), part()] }
  }
  const holds = (lexemes: string[], match: MatchNode): boolean =>
    'op' in match
      ? match.op === 'and'
        ? match.args.every((arg) => holds(lexemes, arg))
        : match.args.some((arg) => holds(lexemes, arg))
      : lexemes.some((l) => (match.prefix ? l.startsWith(match.lexeme) : l === match.lexeme))

  /** `count` new events, in the index and in the plain rows. */
  function fill(data: IndexData, rows: Map<string, IndexRow>, count: number) {
    for (let i = 0; i < count; i++) {
      const r = row()
      rows.set(r.id, r)
      data.put(r)
    }
  }
  /** `count` writes to events of `ids`: a removal (a `removed` share of them) or a replacement. */
  function churn(data: IndexData, rows: Map<string, IndexRow>, ids: string[], count: number, removed: number, renamedFrom?: string[]) {
    for (let i = 0; i < count; i++) {
      const id = pick(ids)
      if (random() < removed) {
        data.remove(id)
        rows.delete(id)
      } else {
        const r = row(id)
        renamedFrom?.push(rows.get(id)?.slug ?? r.slug)
        rows.set(id, r)
        data.put(r)
      }
    }
  }
  const relatedOf = (data: IndexData, self: IndexRow, nowMs: number) =>
    data.related({ id: self.id, categoryId: self.categoryId, cityId: self.cityId, tagIds: self.tags }, nowMs)

  /** The same page the slow way. */
  function reference(rows: Map<string, IndexRow>, filters: IndexFilters, sort: EventSort, offset: number, limit: number) {
    const id = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const order: Record<EventSort, (a: IndexRow, b: IndexRow) => number> = {
      created_at_desc: (a, b) => b.createdMicros - a.createdMicros || id(b.id, a.id),
      start_date_asc: (a, b) => a.startDay - b.startDay || id(a.id, b.id),
      start_date_desc: (a, b) => b.startDay - a.startDay || id(b.id, a.id),
      price_asc: (a, b) => a.price - b.price || id(a.id, b.id),
      title_asc: (a, b) => a.titleRank - b.titleRank,
    }
    const matching = [...rows.values()].filter(
      (r) =>
        (filters.kota === undefined || r.cityId === filters.kota) &&
        (filters.kategori === undefined || r.categoryId === filters.kategori) &&
        (filters.tag === undefined || r.tags.includes(filters.tag)) &&
        (filters.format === undefined || r.format === filters.format) &&
        (filters.gratis === undefined || r.isFree === (filters.gratis === '1')) &&
        (filters.match === undefined || holds(r.lexemes!, filters.match)),
    )
    return { ids: matching.sort(order[sort]).slice(offset, offset + limit).map((r) => r.id), total: matching.length }
  }

  /** The related events of `self` the slow way: related.ts's branches, ranking and ties. */
  function referenceRelated(rows: Map<string, IndexRow>, self: IndexRow, nowMs: number) {
    const day = (zone: (typeof ZONES)[number]) => (Date.parse(localDate(nowMs, zone)) - Date.UTC(2000, 0, 1)) / 86_400_000
    const upcoming = [...rows.values()].filter((r) => r.endDay >= day(zoneOf(r.timeZone)))
    const id = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const soonest = (a: IndexRow, b: IndexRow) => a.endDay - b.endDay || id(a.id, b.id)
    const branches = [upcoming.filter((r) => r.categoryId === self.categoryId).sort(soonest)]
    if (self.cityId !== null)
      branches.push(
        upcoming.filter((r) => r.cityId === self.cityId && r.categoryId === self.categoryId).sort(soonest),
        upcoming.filter((r) => r.cityId === self.cityId).sort(soonest),
      )
    for (const tag of self.tags) branches.push(upcoming.filter((r) => r.tags.includes(tag)).sort(soonest))
    const score = new Map<IndexRow, number>()
    for (const branch of branches)
      for (const r of branch.slice(0, 7).filter((r) => r.id !== self.id).slice(0, 6))
        score.set(
          r,
          (r.categoryId === self.categoryId ? 2 : 0) + (self.cityId !== null && r.cityId === self.cityId ? 1 : 0) + 2 * r.tags.filter((t) => self.tags.includes(t)).length,
        )
    return [...score.keys()]
      .sort((a, b) => score.get(b)! - score.get(a)! || a.startDay - b.startDay || id(a.id, b.id))
      .slice(0, 4)
      .map((r) => r.id)
  }

  test('related events equal the branches read the slow way, through writes and date changes', () => {
    const data = new IndexData()
    const rows = new Map<string, IndexRow>()
    // around the dates of the rows, at hours where the zones' dates differ (after 15:00 UTC) or not
    const someTime = () => Date.UTC(2000, 0, 1 + Math.floor(random() * 12), Math.floor(random() * 24), 30)
    const check = (queries: number) => {
      const held = [...rows.values()]
      for (let q = 0; q < queries; q++) {
        const nowMs = someTime()
        // an event held, or one that is not (a detail at a version the index does not hold it)
        const self = random() < 0.9 ? pick(held) : row()
        const related = relatedOf(data, self, nowMs)
        const expected = referenceRelated(rows, self, nowMs)
        expect({ self: self.id, nowMs, related }).toEqual({ self: self.id, nowMs, related: expected })
        // by its slug, as a detail's miss asks: the same event and the same related ids
        const bySlug = data.detail(self.slug, nowMs)
        if (rows.get(self.id)?.slug === self.slug) expect(bySlug).toEqual({ id: self.id, related: expected })
        else expect(bySlug).toBeUndefined()
      }
      // a slug no held event has (renamed ones included) is not found
      for (const r of renamed) if (![...rows.values()].some((held) => slugHash(held.slug) === slugHash(r))) expect(data.detail(r, 0)).toBeUndefined()
    }
    /** slugs that events had before a replacement renamed them */
    const renamed: string[] = []
    fill(data, rows, 1500)
    check(300)
    // writes between reads: the kept branches of the changed events' category, city and tags go
    const ids = [...rows.keys()]
    for (let round = 0; round < 30; round++) {
      churn(data, rows, ids, 20, 0.3, renamed)
      check(20)
    }
    // removals alone, of events a branch holds: no later write of the same branch forgets it
    for (let round = 0; round < 40; round++) {
      const self = pick([...rows.values()])
      const nowMs = someTime()
      const [gone] = relatedOf(data, self, nowMs)
      if (!gone) continue
      data.remove(gone)
      rows.delete(gone)
      expect(relatedOf(data, self, nowMs)).toEqual(referenceRelated(rows, self, nowMs))
    }
  })

  /**
   * An index with the test's cities, categories and tags: the first half of each numbered first,
   * then `seen` other ids, then the rest (so the two halves' numbers lie `seen` apart).
   */
  function indexWithNumbers(seen = 0) {
    const data = new IndexData()
    const lists = [cities, categories, tags]
    // slugs are the ids here: the index maps slugs to the numbers of the ids it has seen
    const number = (value: string) => {
      const map = value.startsWith('c') ? data.cities : value.startsWith('k') ? data.categories : data.tagSlugs
      map.set(value, data.numberOf(value))
    }
    for (const list of lists) list.slice(0, list.length >> 1).forEach(number)
    for (let i = 0; i < seen; i++) data.numberOf(`seen-${i}`)
    for (const list of lists) list.slice(list.length >> 1).forEach(number)
    return data
  }

  test('pages and totals equal a filter-and-sort of the same rows, through puts, replacements and removals', () => {
    const data = indexWithNumbers()
    const rows = new Map<string, IndexRow>()
    const check = (queries: number) => {
      expect(data.size).toBe(rows.size)
      for (let q = 0; q < queries; q++) {
        const filters = {
          kota: random() < 0.4 ? pick([...cities, 'nowhere']) : undefined,
          kategori: random() < 0.4 ? pick(categories) : undefined,
          tag: random() < 0.3 ? pick(tags) : undefined,
          format: random() < 0.3 ? pick(['offline', 'online', 'hybrid']) : undefined,
          gratis: random() < 0.3 ? pick(['0', '1']) : undefined,
          match: random() < 0.5 ? randomMatch() : undefined,
        }
        const sort = pick(EVENT_SORTS)
        const offset = Math.floor(random() * 40)
        const limit = 1 + Math.floor(random() * 30)
        expect(data.page(filters, sort, offset, limit)).toEqual(reference(rows, filters, sort, offset, limit))
      }
    }
    // more than the first capacity (1,024 slots), so every array grows
    fill(data, rows, 3000)
    check(400)
    const ids = [...rows.keys()]
    churn(data, rows, ids, 1500, 0.5)
    check(400)
    // many replacements: the tag pool fills with dead runs and is compacted on the way
    const kept = [...rows.keys()]
    for (let i = 0; i < 20_000; i++) {
      const r = row(pick(kept))
      rows.set(r.id, r)
      data.put(r)
    }
    check(200)
    // every remaining id is still found, every removed one is not
    for (const id of ids) expect(data.slotOf(id) >= 0).toBe(rows.has(id))
  })

  test('pages stay exact with more city, category and tag numbers than the packed order fields hold', () => {
    // 16,370: every number packed, the last ones near the edge; 16,378: the second half's numbers
    // are the first half's + 16,384, the same in 14 bits (c3 reads as c1 there), so walks must
    // read each slot's own fields; 20,000: past the edge
    for (const seen of [16_370, 16_378, 20_000]) {
      const data = indexWithNumbers(seen)
      const rows = new Map<string, IndexRow>()
      fill(data, rows, 1500)
      churn(data, rows, [...rows.keys()], 500, 0.5)
      for (let q = 0; q < 300; q++) {
        const filters = {
          kota: random() < 0.5 ? pick(cities) : undefined,
          kategori: random() < 0.5 ? pick(categories) : undefined,
          format: random() < 0.3 ? pick(['offline', 'online', 'hybrid']) : undefined,
          gratis: random() < 0.3 ? pick(['0', '1']) : undefined,
        }
        const sort = pick(EVENT_SORTS)
        const offset = Math.floor(random() * 200)
        expect(data.page(filters, sort, offset, 12)).toEqual(reference(rows, filters, sort, offset, 12))
      }
    }
  })

  test('a title rank between two neighbours keeps the title order, also after the gap runs out', () => {
    const data = new IndexData()
    data.categories.set('k1', data.numberOf('k1'))
    const first = { ...row(), categoryId: 'k1', titleRank: 1 }
    const last = { ...row(), categoryId: 'k1', titleRank: 2 }
    data.put(first)
    data.put(last)
    const middle = { ...row(), categoryId: 'k1', titleRank: data.titleRankAfter(first.id)! }
    data.put(middle)
    expect(data.page({}, 'title_asc', 0, 10).ids).toEqual([first.id, middle.id, last.id])
    expect(data.titleRankAfter(null)).toBeLessThan(1)
    expect(data.titleRankAfter('00000000-0000-7000-8000-000000000000')).toBeNull()
    // a series of titles that sort together, each after the one before: the gap halves each time
    // and runs out after ~50; the order is then numbered again
    const series: string[] = []
    let previous = first.id
    for (let i = 0; i < 200; i++) {
      const next = { ...row(), categoryId: 'k1', titleRank: data.titleRankAfter(previous)! }
      expect(next.titleRank).not.toBeNull()
      data.put(next)
      series.push(next.id)
      previous = next.id
    }
    expect(data.page({}, 'title_asc', 0, 300).ids).toEqual([first.id, ...series, middle.id, last.id])
  })
})

describe('the list index on a database', () => {
  let database: TestDatabase
  let versions: ListeningVersionSource
  let index: ListIndex
  /** answers the index gave (not PostgreSQL, while it was behind): list pages, related events */
  let used = 0
  let relatedUsed = 0
  let detailUsed = 0
  /** while set, the statements drizzle sends */
  let statements: string[] | undefined
  let withIndex: ReturnType<typeof createApp>
  let withoutIndex: ReturnType<typeof createApp>

  beforeAll(async () => {
    database = await createTestDatabase()
    // before any statement is prepared: a prepared one keeps the logger it was made with
    ;(database.db as any).session.logger = { logQuery: (text: string) => statements?.push(text) }
    versions = createListeningVersionSource(database, { service: 'test', heartbeatMs: 100 })
    index = createListIndex(database)
    const app = (listIndex?: ListIndex) =>
      createApp({
        database,
        cache: createResponseCache({ versions, maxBytes: 0 }),
        listIndex,
        rateLimiter: createRateLimiter(database),
        submitLimitPerHour: 1000,
        trustedProxies: ['*'],
        logger: createLogger('silent'),
      })
    withIndex = app({
      at: async (version) => {
        const view = await index.at(version)
        return (
          view && {
            page: (...args) => (used++, view.page(...args)),
            related: (...args) => (relatedUsed++, view.related(...args)),
            detail: (...args) => (detailUsed++, view.detail(...args)),
          }
        )
      },
      size: 0,
      stats: () => index.stats(),
      close: () => {},
    })
    withoutIndex = app()
  }, 60_000)
  afterAll(async () => {
    index?.close()
    await versions?.close()
    await database?.close()
  })

  /** Until the index has applied the database's current version. */
  async function indexCurrent() {
    const deadline = Date.now() + 15_000
    for (;;) {
      const [{ version }] = await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
      // a request makes an untrusted source read the version (and the index follow it)
      await get(withIndex, '/api/events?limit=1')
      if (await index.at(Number(version))) return
      if (Date.now() > deadline) throw new Error('the list index never caught up')
      await Bun.sleep(25)
    }
  }

  /** Random list URLs over the database's own slugs. */
  async function listUrls(count: number, seed: number) {
    const slugs = async (table: ReturnType<typeof sql>) =>
      (await database.rows<{ slug: string }>(sql`select slug from ${table}`)).map((r) => r.slug)
    const [cities, categories, tags] = await Promise.all([slugs(sql`cities`), slugs(sql`categories`), slugs(sql`tags`)])
    const random = seeded(seed)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
    return Array.from({ length: count }, () => {
      const params = new URLSearchParams()
      if (random() < 0.4) params.set('kota', pick([...cities, 'tidak-ada']))
      if (random() < 0.4) params.set('kategori', pick(categories))
      if (random() < 0.3) params.set('tag', pick(tags))
      if (random() < 0.3) params.set('format', pick(['offline', 'online', 'hybrid']))
      if (random() < 0.3) params.set('gratis', pick(['0', '1']))
      if (random() < 0.7) params.set('sort', pick(EVENT_SORTS))
      if (random() < 0.4) params.set('page', String(1 + Math.floor(random() * 4)))
      if (random() < 0.4) params.set('limit', String(pick([1, 3, 12, 100])))
      return `/api/events?${params}`
    })
  }

  /**
   * Random searches over the words of the database's own titles and venues: one or two words, a
   * quarter with a typo, some cut to a prefix, stop words, with random filters, sorts and pages.
   */
  async function searchUrls(count: number, seed: number) {
    const texts = await database.rows<{ text: string }>(sql`
      select e.title || ' ' || coalesce(e.venue_name, '') as text from events e where e.status = 'published'`)
    const words = [...new Set(texts.flatMap((r) => r.text.toLowerCase().split(/[^a-z0-9]+/)).filter((w) => w.length >= 2))]
    const filters = (await listUrls(count, seed + 1)).map((url) => new URL(url, 'http://x').searchParams)
    const random = seeded(seed)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
    const term = () => {
      const word = random() < 0.05 ? pick(['dan', 'di', 'yang']) : pick(words)
      const roll = random()
      if (roll < 0.25 && word.length > 3) {
        const at = 1 + Math.floor(random() * (word.length - 1))
        return word.slice(0, at) + word.slice(at + 1)
      }
      if (roll < 0.4) return word.slice(0, 2 + Math.floor(random() * 3))
      return word
    }
    return filters.map((params) => {
      params.set('q', random() < 0.6 ? term() : `${term()} ${term()}`)
      if (random() < 0.5) for (const name of ['kota', 'kategori', 'tag', 'format', 'gratis']) params.delete(name)
      return `/api/events?${params}`
    })
  }

  /**
   * Every answer byte for byte as the SQL lists give it, real pages among them (not only empty
   * ones), from the index: every list; of searches most (sort=relevance and matches the index
   * cannot read go to PostgreSQL).
   */
  async function expectSameAnswers(urls: string[], fromIndex = (used: number) => expect(used).toBe(urls.length)) {
    let nonEmpty = 0
    const usedBefore = used
    for (const url of urls) {
      const [a, b] = await Promise.all([get(withIndex, url), get(withoutIndex, url)])
      expect({ url, status: a.status, body: a.text }).toEqual({ url, status: b.status, body: b.text })
      if (a.status === 200 && a.body.data.length) nonEmpty++
    }
    expect(nonEmpty).toBeGreaterThan(urls.length / 4)
    fromIndex(used - usedBefore)
  }
  const expectSameSearches = (urls: string[]) => expectSameAnswers(urls, (used) => expect(used).toBeGreaterThan(urls.length * 0.7))

  /** Every published event's detail (its `related`) byte for byte as the SQL branches give it. */
  async function expectSameDetails() {
    const slugs = (await database.rows<{ slug: string }>(sql`select slug from events where status = 'published' order by slug`)).map((r) => r.slug)
    const relatedBefore = relatedUsed
    const detailBefore = detailUsed
    let withRelated = 0
    for (const slug of slugs) {
      const [a, b] = await Promise.all([get(withIndex, `/api/events/${slug}`), get(withoutIndex, `/api/events/${slug}`)])
      expect({ slug, status: a.status, body: a.text }).toEqual({ slug, status: b.status, body: b.text })
      if (a.status === 200 && a.body.event.related.length) withRelated++
    }
    expect(withRelated).toBeGreaterThan(slugs.length / 2)
    // each found by its slug in the index, its related ids with it: never computed again
    expect(detailUsed - detailBefore).toBe(slugs.length)
    expect(relatedUsed - relatedBefore).toBe(0)
  }

  test('answers exactly as the SQL lists for random filter, sort and page combinations', async () => {
    await indexCurrent()
    expect(index.size).toBeGreaterThan(10)
    expect(index.stats()).toEqual({ events: index.size, loads: 1 })
    // the metrics show it
    const metrics = (await get(withIndex, '/metrics')).text
    expect(metrics).toContain(`list_index_events{service="catalog"} ${index.size}`)
    await expectSameAnswers(await listUrls(300, 5))
    await expectSameDetails()
  }, 60_000)

  test('answers searches exactly as the SQL lists: words, typos, prefixes, stop words, with filters, sorts and pages', async () => {
    await indexCurrent()
    await expectSameSearches(await searchUrls(400, 21))
  }, 60_000)

  test("a detail's miss reads its event and its related events in one statement", async () => {
    await indexCurrent()
    const [{ slug }] = await database.rows<{ slug: string }>(sql`
      select e.slug from events e where e.status = 'published' and exists (select 1 from event_tags et where et.event_id = e.id)
      order by e.slug limit 1`)
    const sent = async (app: typeof withIndex) => {
      statements = []
      try {
        // the cache keeps nothing here (maxBytes 0): every request is a miss
        const answer = await get(app, `/api/events/${slug}`)
        expect(answer.status).toBe(200)
        expect(answer.body.event.related.length).toBeGreaterThan(0)
        return statements.filter((text) => text.includes('"events"'))
      } finally {
        statements = undefined
      }
    }
    // the version read aside: one statement about events; without the index, the event and then
    // one per related branch
    expect(await sent(withIndex)).toHaveLength(1)
    expect((await sent(withoutIndex)).length).toBeGreaterThan(1)
  })

  test('misses asked together are read together (one statement for the details, one for the cards), each answer as if alone', async () => {
    await indexCurrent()
    const published = (
      await database.rows<{ slug: string }>(sql`select slug from events where status = 'published' order by slug limit 10`)
    ).map((r) => r.slug)
    const [hidden] = await database.rows<{ slug: string }>(sql`select slug from events where status <> 'published' limit 1`)
    const details = [...published, published[0], 'tidak-ada-event', ...(hidden ? [hidden.slug] : [])].map(
      (slug) => `/api/events/${slug}`,
    )
    const lists = await listUrls(12, 77)
    const alone = []
    for (const path of [...details, ...lists]) alone.push((await get(withoutIndex, path)).text)
    statements = []
    try {
      const together = await Promise.all([...details, ...lists].map((path) => get(withIndex, path)))
      expect(together.map((answer) => answer.text)).toEqual(alone)
      // every published slug's event and related cards in one statement; the pages' cards in one
      expect(statements.filter((text) => text.includes('wanted.slug'))).toHaveLength(1)
      const cards = statements.filter((text) => text.includes('with ordinality as w(id, page, at)'))
      expect(cards).toHaveLength(1)
    } finally {
      statements = undefined
    }
  })

  test('a batch holding any slug text (a guess for a slug whose hash a real one shares) reads the others as asked', async () => {
    const rows = await database.rows<{ slug: string; id: string }>(
      sql`select slug, id from events where status = 'published' order by slug limit 3`,
    )
    const guess = { id: rows[0].id, related: [rows[1].id, rows[2].id] }
    const hostile = ['a,b', 'a"b', 'a\\b', '{a}', 'NULL', ' ', 'ä漢字🎉', "a'b", 'x'.repeat(200)]
    const found = await Promise.all([
      ...rows.map((r) => findPublishedEvent(database, r.slug, guess)),
      ...hostile.map((slug) => findPublishedEvent(database, slug, guess)),
    ])
    expect(found.slice(0, 3).map((f) => f?.slug)).toEqual(rows.map((r) => r.slug))
    // the guessed event gets its related cards in the same statement; the others compute their own
    expect(found[0]!.relatedJson).toStartWith('[{')
    expect(found[1]!.relatedJson).toBeUndefined()
    expect(found.slice(3)).toEqual(hostile.map(() => null))
  })

  test('a list asked for before the index listens loads it once, not again when the listener is up', async () => {
    // what a busy start does: the first request comes before the LISTEN connection is ready
    const early = createListIndex(database)
    try {
      expect(await early.at(0)).toBeUndefined()
      const [{ version }] = await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
      const deadline = Date.now() + 15_000
      while (!(await early.at(Number(version)))) {
        if (Date.now() > deadline) throw new Error('the list index never loaded')
        await Bun.sleep(25)
      }
      // a second load would come after the first, once its listener is up; give it the time
      await Bun.sleep(300)
      expect(await early.at(Number(version))).toBeDefined()
      expect(early.stats()).toEqual({ events: index.size, loads: 1 })
    } finally {
      early.close()
    }
  }, 30_000)

  test('a first LISTEN that fails (the database not up yet) is tried again by the next list', async () => {
    let refused = 0
    const late = createListIndex({
      ...database,
      listen: (...args) => (refused++ < 2 ? Promise.reject(new Error('connect ECONNREFUSED')) : database.listen(...args)),
    })
    try {
      const [{ version }] = await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
      const deadline = Date.now() + 15_000
      while (!(await late.at(Number(version)))) {
        if (Date.now() > deadline) throw new Error('the list index never loaded')
        await Bun.sleep(25)
      }
      expect(refused).toBe(3)
      expect(late.stats()).toEqual({ events: index.size, loads: 1 })
    } finally {
      late.close()
    }
  }, 30_000)

  test('follows writes: unpublished, retitled, re-tagged, moved and new events', async () => {
    await indexCurrent()
    const loads = index.stats().loads
    const [a, b, c] = await database.rows<{ id: string }>(sql`select id from events where status = 'published' order by id limit 3`)
    const [other] = await database.rows<{ id: string }>(sql`select id from cities order by slug desc limit 1`)
    const [tag] = await database.rows<{ id: string }>(sql`select id from tags order by slug limit 1`)
    await database.rows(sql`update events set status = 'draft' where id = ${a.id}`)
    await database.rows(sql`update events set title = 'AAA paling awal', is_free = not is_free where id = ${b.id}`)
    await database.rows(sql`update events set city_id = ${other.id}, event_type = 'hybrid', start_date = start_date + 3 where id = ${c.id}`)
    await database.rows(sql`insert into event_tags (event_id, tag_id) values (${c.id}, ${tag.id}) on conflict do nothing`)
    await database.rows(sql`
      insert into events (id, title, slug, start_date, end_date, category_id, city_id, organizer_name, status, is_free, event_type, published_at)
      select ${Bun.randomUUIDv7()}, 'Zzz acara baru', 'zzz-acara-baru-indeks', current_date + 10, current_date + 11, category_id, city_id,
        'Penyelenggara', 'published', true, 'online', now() from events where id = ${b.id}`)
    await indexCurrent()
    const page = await get(withIndex, '/api/events?sort=title_asc&limit=1').then((r) => r.body)
    expect(page.data[0].id).toBe(b.id)
    // its new title's words find it, from the index
    const usedBefore = used
    const found = await get(withIndex, '/api/events?q=paling+awal').then((r) => r.body)
    expect(found.data.map((e: { id: string }) => e.id)).toContain(b.id)
    expect(used).toBe(usedBefore + 1)
    expect((await get(withIndex, '/api/events?q=zzz&limit=100').then((r) => r.body)).data.map((e: { slug: string }) => e.slug)).toContain(
      'zzz-acara-baru-indeks',
    )
    await expectSameSearches(await searchUrls(150, 23))
    // applied one by one, never reloaded
    expect(index.stats().loads).toBe(loads)
    await expectSameAnswers(await listUrls(200, 9))
    await expectSameDetails()
  }, 60_000)

  test('a list read right after a write is acknowledged shows it, from the index (waiting for it if need be)', async () => {
    await indexCurrent()
    const [event] = await database.rows<{ id: string; category: string }>(sql`
      select e.id, c.slug as category from events e join categories c on c.id = e.category_id
      where e.status = 'published' order by e.id desc limit 1`)
    const url = `/api/events?kategori=${event.category}&sort=title_asc&limit=100`
    const before = (await get(withIndex, url)).body.pagination.total
    await database.rows(sql`update events set status = 'draft' where id = ${event.id}`)
    // what a writer does before it answers (awaitReplicas): this replica has applied the version
    const [{ version }] = await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
    const deadline = Date.now() + 5000
    while (Number((await database.rows<{ acked: string }>(sql`select max(acked_version)::text as acked from cache_replicas where service = 'test'`))[0].acked) < Number(version)) {
      if (Date.now() > deadline) throw new Error('never acknowledged')
      await Bun.sleep(5)
    }
    const usedBefore = used
    const after = await get(withIndex, url)
    expect(after.body.pagination.total).toBe(before - 1)
    expect(after.body.data.map((e: { id: string }) => e.id)).not.toContain(event.id)
    expect(used).toBe(usedBefore + 1)
    expect(after.text).toBe((await get(withoutIndex, url)).text)
  }, 30_000)

  test('a change without keys (a city renamed) reloads it', async () => {
    await indexCurrent()
    const [city] = await database.rows<{ id: string; slug: string }>(sql`
      select ci.id, ci.slug from cities ci join events e on e.city_id = ci.id and e.status = 'published' limit 1`)
    // read before the write: its notification may start the reload at once
    const loadsBefore = index.stats().loads
    await database.rows(sql`update cities set slug = ${`${city.slug}-baru`} where id = ${city.id}`)
    await indexCurrent()
    expect(index.stats().loads).toBe(loadsBefore + 1)
    const renamed = await get(withIndex, `/api/events?kota=${city.slug}-baru`).then((r) => r.body)
    expect(renamed.pagination.total).toBeGreaterThan(0)
    expect((await get(withIndex, `/api/events?kota=${city.slug}`).then((r) => r.body)).pagination.total).toBe(0)
    await expectSameAnswers(await listUrls(100, 13))
    await expectSameSearches(await searchUrls(100, 29))
    await expectSameDetails()
  }, 60_000)

  test('a search of more matches than its count stops at keeps the same total, lower bound and pages', async () => {
    await database.rows(sql`
      insert into events (id, title, slug, start_date, end_date, category_id, city_id, organizer_name, status, is_free, event_type, published_at)
      select gen_random_uuid()::text, 'Kuis Serentak ' || g, 'kuis-serentak-' || g, current_date + (g % 20), current_date + (g % 20),
        (select id from categories order by slug limit 1), (select id from cities order by slug limit 1), 'Penyelenggara', 'published',
        g % 3 = 0, 'online', now() from generate_series(1, 1010) g`)
    await indexCurrent()
    const usedBefore = used
    const urls = ['q=kuis', 'q=kuis+serentak&page=3', 'q=kuis&limit=100&page=10', 'q=kuis&limit=100&page=11', 'q=kuis&gratis=1', 'q=serentak&sort=title_asc&page=84']
    for (const url of urls) {
      const [a, b] = await Promise.all([get(withIndex, `/api/events?${url}`), get(withoutIndex, `/api/events?${url}`)])
      expect({ url, body: a.text }).toEqual({ url, body: b.text })
    }
    expect(used - usedBefore).toBe(urls.length)
    // past the cap the total is its lower bound, as PostgreSQL answers it
    const first = (await get(withIndex, '/api/events?q=kuis')).body.pagination
    expect([first.total, first.total_exact]).toEqual([1001, false])
    const last = (await get(withIndex, '/api/events?q=kuis&limit=100&page=11')).body.pagination
    expect([last.total, last.total_exact]).toEqual([1010, undefined])
  }, 60_000)
})
