// The demo catalogue must be believable: venues in their real cities with coordinates there,
// dates from last month to next year with weekends and multi-day festivals, realistic prices.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { demoCities } from './seed-data'
import { createTestDatabase, type TestDatabase } from './testing'

type Row = {
  slug: string
  status: string
  event_type: string
  start_date: string
  end_date: string
  dow: number
  city: string | null
  venue_name: string
  latitude: number | null
  longitude: number | null
  price_min: number
  price_max: number
  is_free: boolean
}

let database: TestDatabase
let rows: Row[]
beforeAll(async () => {
  database = await createTestDatabase()
  rows = await database.rows<Row>(sql`
    select e.slug, e.status::text, e.event_type::text, e.start_date::text, e.end_date::text,
           extract(isodow from e.start_date)::int as dow, c.slug as city, e.venue_name,
           e.latitude, e.longitude, e.ticket_price_min::float8 as price_min, e.ticket_price_max::float8 as price_max, e.is_free
    from events e left join cities c on c.id = e.city_id`)
})
afterAll(async () => {
  await database.close()
})

const km = (a: [number, number], b: [number, number]) => {
  const rad = (d: number) => (d * Math.PI) / 180
  const h = Math.sin(rad(b[0] - a[0]) / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(h))
}
const centre = new Map(demoCities.map((c) => [c.slug, [c.latitude, c.longitude] as [number, number]]))
const todayWib = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10)
const addDays = (iso: string, n: number) => new Date(Date.parse(iso) + n * 86_400_000).toISOString().slice(0, 10)

describe('demo data a person believes', () => {
  test('every venue lies in its city: most events have coordinates within 35 km of the city centre', async () => {
    const placed = rows.filter((r) => r.event_type !== 'online')
    for (const r of placed) expect(r.city).not.toBeNull()
    const withCoordinates = placed.filter((r) => r.latitude !== null)
    expect(withCoordinates.length / placed.length).toBeGreaterThan(0.8)
    for (const r of withCoordinates) {
      const distance = km(centre.get(r.city!)!, [r.latitude!, r.longitude!])
      // the Bromo amphitheatre and Borobudur lie outside their towns, within their regencies
      expect({ slug: r.slug, near: distance < 35 }).toEqual({ slug: r.slug, near: true })
    }
    // a generic venue carries its own city's name, never another's
    for (const r of placed) {
      const other = demoCities.find((c) => c.slug !== r.city && r.venue_name.endsWith(` ${c.name}`))
      expect({ slug: r.slug, other: other?.name }).toEqual({ slug: r.slug, other: undefined })
    }
    for (const r of rows.filter((r) => r.event_type === 'online')) expect(r.latitude).toBeNull()
  })

  test('dates: from last month to next year, most ahead, something on today and this weekend', async () => {
    const today = todayWib()
    for (const r of rows) {
      expect(r.start_date >= addDays(today, -35)).toBe(true)
      expect(r.start_date <= addDays(today, 372)).toBe(true)
      expect(r.end_date >= r.start_date).toBe(true)
    }
    const published = rows.filter((r) => r.status === 'published')
    const ahead = published.filter((r) => r.end_date >= today)
    expect(ahead.length / published.length).toBeGreaterThan(0.7)
    expect(published.filter((r) => r.end_date < today).length).toBeGreaterThan(3)
    expect(published.some((r) => r.start_date <= today && r.end_date >= today)).toBe(true)
    expect(ahead.filter((r) => r.start_date > addDays(today, 180)).length).toBeGreaterThan(5)
  })

  test('weekends and multi-day festivals', async () => {
    const weekend = rows.filter((r) => r.dow >= 5).length
    expect(weekend / rows.length).toBeGreaterThan(0.5)
    const multiDay = rows.filter((r) => r.end_date > r.start_date)
    expect(multiDay.length).toBeGreaterThan(10)
  })

  test('realistic prices: free is 0, paid tickets from Rp10.000 in thousands, min <= max', async () => {
    for (const r of rows) {
      expect(r.is_free).toBe(r.price_min === 0)
      expect(r.price_max).toBeGreaterThanOrEqual(r.price_min)
      if (!r.is_free) {
        expect(r.price_min).toBeGreaterThanOrEqual(10_000)
        expect(r.price_min % 1000).toBe(0)
        expect(r.price_max).toBeLessThanOrEqual(5_000_000)
      }
    }
  })
})
