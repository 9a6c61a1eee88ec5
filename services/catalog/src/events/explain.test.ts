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

async function plan(query: { getSQL(): any }, options: { ordered?: boolean } = {}): Promise<PlanNode[]> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`)
    // on the small demo table a bitmap scan + sort of every row is cheapest; priced out too, a
    // Sort left in the plan means no index delivers the order
    if (options.ordered) await tx.execute(sql`set local enable_bitmapscan = off`)
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
      expect(planNodes.map((n) => n['Node Type'])).not.toContain('Sort')
      expect(planNodes.map((n) => n['Node Type'])).not.toContain('Incremental Sort')
    })

  for (const [name, query] of cases)
    test(`${name}: page and count use indexes on events (or the search copy)`, async () => {
      const queries = listQueries(database, query, pageRequest({ page: 3 }, 12, 100))
      for (const q of [queries.page, queries.count]) {
        const planNodes = await plan(q)
        const onEvents = planNodes.filter((n) => n['Relation Name'] === 'events' || n['Relation Name'] === 'event_search')
        expect(onEvents.length).toBeGreaterThan(0)
        for (const n of onEvents) expect(n['Node Type']).not.toBe('Seq Scan')
      }
    })

  // the narrow copy (migration 0021) answers a search with at most a city or a category: its
  // count never reads an events row, its page reads only the page's events, by id
  for (const [name, query] of [
    ['q', { q: 'festival musik' }],
    ['q + kota', { q: 'festival', kota: 'bandung' }],
    ['q + kategori, page 2', { q: 'musik', kategori: 'musik', page: 2 }],
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

  test('q + another filter (tag, format, gratis, a time window) still reads events', async () => {
    for (const query of [
      { q: 'festival', tag: 'jazz' },
      { q: 'festival', format: 'online' },
      { q: 'festival', gratis: '1' },
      { q: 'festival', waktu: 'mendatang' },
    ] as EventListQuery[]) {
      const { count } = listQueries(database, query, pageRequest({}, 12, 100))
      expect((await plan(count)).some((n) => n['Relation Name'] === 'events')).toBe(true)
    }
  })
})
