// The discovery filters must stay index scans on a large catalogue: 30,000 events spread over
// two years and all cities, statistics gathered, the planner free to choose (sequential scans
// allowed). A selective window, a near-me box or a related lookup that plans a Seq Scan on
// events means the index (migration 0015) is missing or the condition is no longer sargable.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { pageRequest } from '@app/kit'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import type { EventListQuery } from './model'
import { listQueries } from './service'

const EVENTS = 30_000
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase({ statementTimeoutMs: 120_000 })
  // triggers off for the bulk load (search documents, change notifications): plans only
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`)
    await tx.execute(sql`
    insert into events (id, title, slug, start_date, end_date, start_time, event_type, city_id, category_id,
                        organizer_name, status, latitude, longitude, created_at)
    select 'bulk-' || i, 'Acara ' || i, 'bulk-' || i,
           current_date - 365 + (i * 7919) % 730,
           current_date - 365 + (i * 7919) % 730 + case when i % 10 = 0 then 2 else 0 end,
           time '19:00', case when i % 5 = 0 then 'online' else 'offline' end::event_type,
           case when i % 5 = 0 then null else (select array_agg(id order by slug) from cities)[1 + i % 26] end,
           (select array_agg(id order by slug) from categories)[1 + i % 12],
           'Penyelenggara ' || (i % 100), case when i % 10 = 0 then 'pending' else 'published' end::event_status,
           case when i % 5 <> 0 then -10 + (i * 37 % 1500) / 100.0 end,
           case when i % 5 <> 0 then 95 + (i * 53 % 4600) / 100.0 end,
           now() - make_interval(mins => i)
    from generate_series(1, ${EVENTS}) as i`)
  })
  await database.rows(sql`analyze events`)
}, 120_000)
afterAll(async () => {
  await database.close()
})

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)]

async function plan(query: { getSQL(): any }, options: { seqscan: boolean }): Promise<PlanNode[]> {
  return database.db.transaction(async (tx) => {
    if (!options.seqscan) await tx.execute(sql`set local enable_seqscan = off`)
    const result: any = await tx.execute(sql`explain (format json) ${query}`)
    const rows = Array.isArray(result) ? result : result.rows
    const json = rows[0]['QUERY PLAN']
    const parsed = typeof json === 'string' ? JSON.parse(json) : json
    return nodes(parsed[0].Plan)
  })
}

function expectIndexOnly(planNodes: PlanNode[]) {
  const onEvents = planNodes.filter((n) => n['Relation Name'] === 'events')
  expect(onEvents.length).toBeGreaterThan(0)
  for (const n of onEvents) expect(n['Node Type']).not.toBe('Seq Scan')
}

const today = new Date().toISOString().slice(0, 10)
const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)

// selective: the planner itself must prefer an index
const SELECTIVE: [string, EventListQuery][] = [
  ['waktu=hari-ini', { waktu: 'hari-ini' }],
  ['waktu=besok, start_date_asc', { waktu: 'besok', sort: 'start_date_asc' }],
  ['waktu=akhir-pekan + kota', { waktu: 'akhir-pekan', kota: 'bandung' }],
  ['waktu=minggu-ini + kategori', { waktu: 'minggu-ini', kategori: 'musik' }],
  ['mulai..sampai (a week)', { mulai: today, sampai: inAWeek }],
  ['near me 25 km, sort=distance', { lat: -6.2, lng: 106.8, sort: 'distance' }],
  ['near me 100 km + waktu=bulan-ini', { lat: -7.8, lng: 110.4, radius_km: 100, waktu: 'bulan-ini' }],
]
// half the catalogue: a scan may be cheaper, but an index must be usable
const BROAD: [string, EventListQuery][] = [
  ['waktu=mendatang, start_date_asc', { waktu: 'mendatang', sort: 'start_date_asc' }],
  ['waktu=berlalu', { waktu: 'berlalu' }],
  ['waktu=bulan-ini', { waktu: 'bulan-ini' }],
]

describe(`EXPLAIN of the discovery filters on ${EVENTS} events`, () => {
  for (const [name, query] of SELECTIVE)
    test(`${name}: page and count are index scans (sequential scans allowed)`, async () => {
      const queries = listQueries(database, query, pageRequest({}, 12, 100))
      for (const q of [queries.page, queries.count]) expectIndexOnly(await plan(q, { seqscan: true }))
    })
  for (const [name, query] of BROAD)
    test(`${name}: page and count can use an index`, async () => {
      const queries = listQueries(database, query, pageRequest({}, 12, 100))
      for (const q of [queries.page, queries.count]) expectIndexOnly(await plan(q, { seqscan: false }))
    })
  test('the window condition reaches the GiST date-range index', async () => {
    const { count } = listQueries(database, { waktu: 'hari-ini' }, pageRequest({}, 12, 100))
    const names = (await plan(count, { seqscan: true })).map((n) => n['Index Name'])
    expect(names).toContain('events_date_range_idx')
  })
  test('the near-me condition reaches the lat/lng index', async () => {
    const { count } = listQueries(database, { lat: -6.2, lng: 106.8 }, pageRequest({}, 12, 100))
    const names = (await plan(count, { seqscan: true })).map((n) => n['Index Name'])
    expect(names).toContain('events_lat_lng_idx')
  })
})
