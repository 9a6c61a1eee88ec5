// bun run bench:discovery [-- --rounds 3]
//
// Query cost of the discovery features (issue 14) on the bench catalogue at DATABASE_URL (load
// it first: bun run bench:data -- --events 100000). Each scenario runs over many distinct
// parameter sets (every big city, every waktu, points across the country, many events), straight
// through the catalog's own service functions with no response cache, one request at a time:
// what a cache miss costs. Prints p50/p95/max ms per scenario.
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { createDb, type Database } from '@app/db'
import { pageRequest } from '@app/kit'
import { eventFacets } from '../services/catalog/src/events/facets'
import type { EventListQuery } from '../services/catalog/src/events/model'
import { relatedEvents } from '../services/catalog/src/events/related'
import { findPublishedEvent } from '../services/catalog/src/events/service'
import { listEvents } from '../services/catalog/src/events/service'
import { WAKTU } from '../services/catalog/src/events/windows'

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: { rounds: { type: 'string', default: '3' } },
})
const ROUNDS = Math.max(1, Number(args.rounds))
const url = process.env.DATABASE_URL
if (!url) {
  console.error('bench:discovery: DATABASE_URL is not set (a database loaded by bench:data)')
  process.exit(2)
}

const database = await createDb(url, { max: 4 })
const cities = (await database.rows<{ slug: string }>(sql`select slug from cities order by created_at, slug limit 10`)).map((r) => r.slug)
const categories = (await database.rows<{ slug: string }>(sql`select slug from categories order by sort_order limit 10`)).map(
  (r) => r.slug,
)
const sample = await database.rows<{ id: string }>(
  sql`select id from events where status = 'published' order by hashtext(id) limit 50`,
)
const relatedTo = async (id: string) => (await findPublishedEvent(database, id))!.relatedTo
const POINTS = [
  { lat: -6.2, lng: 106.82 },
  { lat: -6.91, lng: 107.61 },
  { lat: -7.26, lng: 112.75 },
  { lat: -7.8, lng: 110.37 },
  { lat: -8.67, lng: 115.21 },
  { lat: 3.59, lng: 98.67 },
  { lat: -5.15, lng: 119.43 },
  { lat: -2.53, lng: 140.72 },
]
const now = Date.now()
const page = pageRequest({}, 12, 100)
const list = (query: EventListQuery) => () => listEvents(database, query, page, { now })

// scenarios as data: a name and its distinct requests
const SCENARIOS: [string, (() => Promise<unknown>)[]][] = [
  ['waktu (each window)', WAKTU.map((waktu) => list({ waktu }))],
  ['waktu=akhir-pekan + kota', cities.map((kota) => list({ waktu: 'akhir-pekan', kota }))],
  ['waktu=mendatang + start_date_asc', categories.map((kategori) => list({ waktu: 'mendatang', kategori, sort: 'start_date_asc' }))],
  ['mulai..sampai (a week)', [0, 7, 30, 90, 180].map((d) => list({ mulai: day(d), sampai: day(d + 6) }))],
  ['near me 25 km, sort=distance', POINTS.map((p) => list({ ...p, sort: 'distance' }))],
  ['near me 100 km + waktu=bulan-ini', POINTS.map((p) => list({ ...p, radius_km: 100, waktu: 'bulan-ini' }))],
  ['facets=1 (no filter)', [() => eventFacets(database, {}, now)]],
  ['facets=1 + kota', cities.map((kota) => () => eventFacets(database, { kota }, now))],
  ['facets=1 + kota + waktu=akhir-pekan', cities.map((kota) => () => eventFacets(database, { kota, waktu: 'akhir-pekan' }, now))],
  ['facets=1 + kategori + gratis', categories.map((kategori) => () => eventFacets(database, { kategori, gratis: '1' }, now))],
  ['related (detail)', sample.map(({ id }) => async () => relatedEvents(database, await relatedTo(id), now))],
]

function day(offset: number) {
  return new Date(now + offset * 86_400_000).toISOString().slice(0, 10)
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]
console.log(`bench:discovery: ${ROUNDS} round(s) over each scenario's distinct requests, no response cache`)
try {
  for (const [name, requests] of SCENARIOS) {
    for (const request of requests) await request() // warm the buffer cache and the plans
    const times: number[] = []
    for (let round = 0; round < ROUNDS; round++)
      for (const request of requests) {
        const start = performance.now()
        await request()
        times.push(performance.now() - start)
      }
    times.sort((a, b) => a - b)
    console.log(
      `  ${name.padEnd(38)} n=${String(times.length).padStart(4)}  p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  ` +
        `p95 ${pct(times, 95).toFixed(1).padStart(6)} ms  max ${times.at(-1)!.toFixed(1).padStart(6)} ms`,
    )
  }
} finally {
  await (database as Database).close()
}
