// The list queries must be able to use an index for every filter and sort: with sequential
// scans priced out, a plan that still scans `events` sequentially means an index is missing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { pageRequest } from '@app/kit'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import type { EventListQuery } from './model'
import { listQueries } from './service'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

type PlanNode = {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  Plans?: PlanNode[]
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)]

async function plan(query: { getSQL(): any }, options: { ordered?: boolean; noSort?: boolean } = {}): Promise<PlanNode[]> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`)
    // on the small demo table a bitmap scan + sort of every row is cheapest; priced out too, a
    // Sort left in the plan means no index delivers the order
    if (options.ordered) await tx.execute(sql`set local enable_bitmapscan = off`)
    // with too few rows for statistics a sort is free: priced out, one left means no index has the order
    if (options.noSort) await tx.execute(sql`set local enable_sort = off`)
    const result: any = await tx.execute(sql`explain (format json) ${query}`)
    const rows = Array.isArray(result) ? result : result.rows
    const json = rows[0]['QUERY PLAN']
    const parsed = typeof json === 'string' ? JSON.parse(json) : json
    return nodes(parsed[0].Plan)
  })
}

const cases: [string, EventListQuery][] = [
  ['default (created_at_desc)', {}],
  ['start_date_asc', { sort: 'start_date_asc' }],
  ['start_date_desc', { sort: 'start_date_desc' }],
  ['price_asc', { sort: 'price_asc' }],
  ['title_asc', { sort: 'title_asc' }],
  ['kategori', { kategori: 'musik' }],
  ['kota', { kota: 'bandung', sort: 'start_date_asc' }],
  ['tag', { tag: 'jazz' }],
  ['format', { format: 'online' }],
  ['gratis', { gratis: '1' }],
  ['q', { q: 'festival musik' }],
]

// sorts an index must deliver in order, so a page is read without sorting every match
const ORDERED_BY_INDEX: [string, EventListQuery][] = [
  ['default (created_at_desc)', {}],
  ['start_date_asc', { sort: 'start_date_asc' }],
  ['start_date_desc', { sort: 'start_date_desc' }],
  ['price_asc', { sort: 'price_asc' }],
  ['title_asc', { sort: 'title_asc' }],
  ['kota + kategori, start_date_asc', { kota: 'bandung', kategori: 'musik', sort: 'start_date_asc' }],
]

describe('EXPLAIN of the event list queries', () => {
  for (const [name, query] of ORDERED_BY_INDEX)
    test(`${name}: the page comes in index order, with no sort of all matches`, async () => {
      const { page } = listQueries(database, query, pageRequest({ page: 3 }, 12, 100))
      const planNodes = await plan(page, { ordered: true })
      // a page read from the copy (a city or a category) sorts only its own events, read by id
      // after an ordered index read of the copy: no sort may have the copy, or an events read
      // that is not by id, below it
      for (const sort of planNodes.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort')) {
        const below = nodes(sort).slice(1)
        expect(below.filter((n) => n['Relation Name'] === 'event_search')).toEqual([])
        const eventReads = below.filter((n) => n['Relation Name'] === 'events')
        expect(eventReads.length).toBeGreaterThan(0)
        for (const read of eventReads) expect(read['Index Cond'] ?? '').toMatch(/\bid = ANY\b/)
      }
    })

  // lists by city, category or tag in every order: their ids from one ordered index of a copy
  // (event_search per city and category, event_tag_order per tag)
  for (const sort of ['created_at_desc', 'start_date_asc', 'start_date_desc', 'price_asc', 'title_asc'] as const)
    for (const [name, query, copy, index] of [
      ['kota', { kota: 'bandung', sort }, 'event_search', /^event_search_city_/],
      ['kategori', { kategori: 'musik', sort }, 'event_search', /^event_search_category_/],
      ['tag', { tag: 'jazz', sort }, 'event_tag_order', /^event_tag_order_(created|start|price|title)_idx$/],
    ] as [string, EventListQuery, string, RegExp][])
      test(`${name}, ${sort}: page ids from an ordered index of the copy`, async () => {
        const { page, fromCopy } = listQueries(database, query, pageRequest({ page: 2 }, 12, 100))
        expect(fromCopy).toBe(true)
        const planNodes = await plan(page, { ordered: true, noSort: true })
        const onCopy = planNodes.filter((n) => n['Relation Name'] === copy)
        expect(onCopy.length).toBe(1)
        expect(onCopy[0]['Index Name']).toMatch(index)
        const sortsOfCopy = planNodes.filter(
          (n) => n['Node Type'] === 'Sort' && nodes(n).some((m) => m['Relation Name'] === copy),
        )
        expect(sortsOfCopy).toEqual([])
      })

  // filters the kept counts cover (migration 0022): the total sums them and reads no events row
  const COUNTED = new Set([
    'default (created_at_desc)',
    'start_date_asc',
    'start_date_desc',
    'price_asc',
    'title_asc',
    'kategori',
    'kota',
    'format',
    'gratis',
  ])
  for (const [name, query] of cases)
    test(`${name}: page and count use indexes on events (or a copy, or the kept counts)`, async () => {
      const queries = listQueries(database, query, pageRequest({ page: 3 }, 12, 100))
      for (const [which, q] of [
        ['page', queries.page],
        ['count', queries.count],
      ] as const) {
        const planNodes = await plan(q)
        if (which === 'count' && COUNTED.has(name)) {
          expect(planNodes.filter((n) => n['Relation Name'] === 'events')).toEqual([])
          expect(planNodes.some((n) => n['Relation Name'] === 'event_counts')).toBe(true)
          continue
        }
        const onEvents = planNodes.filter((n) => ['events', 'event_search', 'event_tag_order'].includes(n['Relation Name'] ?? ''))
        expect(onEvents.length).toBeGreaterThan(0)
        for (const n of onEvents) expect(n['Node Type']).not.toBe('Seq Scan')
      }
    })

  // the narrow copy (migrations 0021, 0023) answers a search whose other filters it holds: its
  // count never reads an events row, its page reads only the page's events, by id
  for (const [name, query] of [
    ['q', { q: 'festival musik' }],
    ['q + kota', { q: 'festival', kota: 'bandung' }],
    ['q + kategori, page 2', { q: 'musik', kategori: 'musik', page: 2 }],
    ['q + format + gratis', { q: 'festival', format: 'offline', gratis: '0' }],
  ] as [string, EventListQuery][])
    test(`${name}: count on event_search alone, page ids from it`, async () => {
      const queries = listQueries(database, query, pageRequest(query, 12, 100))
      const count = await plan(queries.count)
      expect(count.filter((n) => n['Relation Name'] === 'events')).toEqual([])
      expect(count.some((n) => n['Relation Name'] === 'event_search')).toBe(true)
      const page = await plan(queries.page)
      // one read of events, through one of its indexes by the page's ids (an index scan, or a
      // bitmap of the primary key)
      const onEvents = page.filter((n) => n['Relation Name'] === 'events')
      expect(onEvents.length).toBe(1)
      expect(onEvents[0]['Node Type']).not.toBe('Seq Scan')
      const byId = page.filter((n) => n['Index Name']?.startsWith('events_') && /\bid = ANY\b/.test(n['Index Cond'] ?? ''))
      expect(byId.length).toBe(1)
    })

  test('q + a filter the copy lacks (tag, a time window) still reads events', async () => {
    for (const query of [
      { q: 'festival', tag: 'jazz' },
      { q: 'festival', waktu: 'mendatang' },
    ] as EventListQuery[]) {
      const { count } = listQueries(database, query, pageRequest({}, 12, 100))
      expect((await plan(count)).some((n) => n['Relation Name'] === 'events')).toBe(true)
    }
  })
})
