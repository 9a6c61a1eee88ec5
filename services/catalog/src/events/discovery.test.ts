// Near me, facets, related events and iCalendar on a real database, over fixture events of
// their own category (see discovery-fixture.ts) and the demo data.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { sql } from 'drizzle-orm'
import { envelopeMessage, get } from '@app/kit/testing'
import { createTestCatalog } from '../testing'
import { FIXTURE_CATEGORY, insertFixture } from './discovery-fixture'
import { foldLine } from './ics'

// Monas, Jakarta
const MONAS = { lat: -6.1754, lng: 106.8272 }
const clockAt = Date.parse('2026-03-10T05:00:00Z') // Tuesday, noon WIB

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
let ids: Map<string, string>
beforeAll(async () => {
  ctx = await createTestCatalog({ now: () => clockAt })
  ids = await insertFixture(ctx.database, [
    // ~2 km, ~10 km, ~30 km, ~120 km from Monas; one without coordinates
    { key: 'dekat', city: 'jakarta-pusat', start: '2026-03-12', lat: -6.1934, lng: 106.8272, free: false, tags: ['jazz'] },
    { key: 'sedang', city: 'jakarta-selatan', start: '2026-03-14', lat: -6.2654, lng: 106.8272, tags: ['jazz'] },
    { key: 'jauh', city: 'bekasi', start: '2026-03-20', lat: -6.1754, lng: 107.0972 },
    { key: 'bandung', city: 'bandung', start: '2026-03-11', lat: -6.9175, lng: 107.6191, endTime: '22:00' },
    { key: 'tanpa-koordinat', city: 'jakarta-pusat', start: '2026-03-13' },
    { key: 'online', city: null, start: '2026-03-15', startTime: null },
    { key: 'lalu', city: 'jakarta-pusat', start: '2026-03-01', lat: -6.18, lng: 106.83 },
    { key: 'jayapura', city: 'jayapura', start: '2026-03-11', end: '2026-03-13', startTime: '09:30', endTime: '17:00' },
  ])
})
afterAll(async () => {
  await ctx.database.close()
})

function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = (d: number) => (d * Math.PI) / 180
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h))
}

const list = async (query: string) => {
  const res = await get(ctx.app, `/api/events?kategori=${FIXTURE_CATEGORY}&limit=100&${query}`)
  expect(res.status).toBe(200)
  return res.body
}
const slugs = (body: any) => body.data.map((e: any) => e.slug.replace(/^uji-/, ''))

describe('near me: lat, lng, radius_km, sort=distance', () => {
  test('default radius 25 km, nearest first with distance_km', async () => {
    const body = await list(`lat=${MONAS.lat}&lng=${MONAS.lng}&sort=distance`)
    expect(slugs(body)).toEqual(['lalu', 'dekat', 'sedang'])
    const distances = body.data.map((e: any) => e.distance_km)
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b))
    const coords: Record<string, { lat: number; lng: number }> = {
      dekat: { lat: -6.1934, lng: 106.8272 },
      sedang: { lat: -6.2654, lng: 106.8272 },
    }
    for (const e of body.data.slice(1)) {
      const key = e.slug.replace(/^uji-/, '')
      expect(Math.abs(e.distance_km - haversineKm(MONAS, coords[key]))).toBeLessThan(0.01)
    }
    expect(body.data[1].distance_km).toBeCloseTo(2.0, 0)
    expect(body.data[2].distance_km).toBeCloseTo(10.0, 0)
  })
  test('a wider radius reaches further; combines with the other filters and sorts', async () => {
    expect(slugs(await list(`lat=${MONAS.lat}&lng=${MONAS.lng}&radius_km=50&sort=distance`))).toEqual([
      'lalu',
      'dekat',
      'sedang',
      'jauh',
    ])
    expect(slugs(await list(`lat=${MONAS.lat}&lng=${MONAS.lng}&radius_km=500&sort=distance`)).at(-1)).toBe('bandung')
    const upcoming = await list(`lat=${MONAS.lat}&lng=${MONAS.lng}&radius_km=50&waktu=mendatang&sort=start_date_asc`)
    expect(slugs(upcoming)).toEqual(['dekat', 'sedang', 'jauh'])
    // every item carries distance_km whenever a point is given
    for (const e of upcoming.data) expect(typeof e.distance_km).toBe('number')
    const plain = await list('')
    for (const e of plain.data) expect(e.distance_km).toBeUndefined()
  })
  for (const [query, message] of [
    ['sort=distance', /sort=distance membutuhkan lat dan lng/],
    [`lat=${MONAS.lat}`, /lat dan lng harus diisi bersama/],
    [`lng=${MONAS.lng}`, /lat dan lng harus diisi bersama/],
    ['radius_km=10', /radius_km membutuhkan lat dan lng/],
    [`lat=${MONAS.lat}&lng=${MONAS.lng}&radius_km=501`, /radius_km harus angka/],
    [`lat=${MONAS.lat}&lng=${MONAS.lng}&radius_km=0`, /radius_km harus angka/],
    [`lat=91&lng=${MONAS.lng}`, /lat harus angka antara -90 dan 90/],
    [`lat=${MONAS.lat}&lng=abc`, /lng harus angka/],
  ] as const)
    test(`400: ${query}`, async () => {
      const res = await get(ctx.app, `/api/events?${query}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toMatch(message)
    })
})

describe('facets=1', () => {
  test('counts per value under the other filters; each facet ignores its own selection', async () => {
    const body = await list('facets=1&kota=jakarta-pusat&waktu=mendatang')
    expect(slugs(body).sort()).toEqual(['dekat', 'tanpa-koordinat'])
    const { facets } = body
    expect(Object.keys(facets).sort()).toEqual(['format', 'gratis', 'kategori', 'kota', 'waktu'])
    // kota ignores kota=jakarta-pusat: upcoming fixture events in every city
    const kota = Object.fromEntries(facets.kota.map((f: any) => [f.value, f.count]))
    expect(kota).toEqual({ 'jakarta-pusat': 2, 'jakarta-selatan': 1, bekasi: 1, bandung: 1, jayapura: 1 })
    // waktu ignores waktu=mendatang: counts within Jakarta Pusat
    const waktu = Object.fromEntries(facets.waktu.map((f: any) => [f.value, f.count]))
    expect(waktu).toEqual({
      'hari-ini': 0,
      besok: 0,
      'akhir-pekan': 1,
      'minggu-ini': 2,
      'bulan-ini': 2,
      mendatang: 2,
      berlalu: 1,
    })
    const gratis = Object.fromEntries(facets.gratis.map((f: any) => [f.value, f.count]))
    expect(gratis).toEqual({ '0': 1, '1': 1 })
    expect(facets.format).toEqual([{ value: 'offline', label: 'Offline', count: 2 }])
    // kategori ignores kategori: the demo's upcoming events in Jakarta Pusat count too
    const kategori = Object.fromEntries(facets.kategori.map((f: any) => [f.value, f.count]))
    expect(kategori[FIXTURE_CATEGORY]).toBe(2)
  })
  test('every facet count equals the total of the list with that value selected', async () => {
    const base = 'kota=jakarta-pusat&gratis=1'
    const { facets } = await list(`facets=1&${base}`)
    for (const [param, values] of Object.entries(facets) as [string, any[]][])
      for (const f of values) {
        const other = base
          .split('&')
          .filter((p) => !p.startsWith(`${param}=`))
          .join('&')
        const res = await get(ctx.app, `/api/events?kategori=${FIXTURE_CATEGORY}&${other}&${param}=${f.value}`)
        const expected = param === 'kategori' ? undefined : res.body.pagination.total
        if (expected !== undefined)
          expect({ param, value: f.value, count: f.count }).toEqual({ param, value: f.value, count: expected })
      }
  })
  test('facets=2 is a 400; without facets there is no facets key', async () => {
    const res = await get(ctx.app, '/api/events?facets=2')
    expect(res.status).toBe(400)
    expect(envelopeMessage(res)).toMatch(/facets harus 0 atau 1/)
    expect((await list('')).facets).toBeUndefined()
  })
})

describe('related on the event detail', () => {
  test('up to 4 published upcoming events sharing category, city or tags, never itself', async () => {
    const res = await get(ctx.app, '/api/events/uji-dekat')
    expect(res.status).toBe(200)
    const related = res.body.event.related
    expect(related.length).toBeGreaterThan(0)
    expect(related.length).toBeLessThanOrEqual(4)
    const relatedSlugs = related.map((e: any) => e.slug)
    expect(relatedSlugs).not.toContain('uji-dekat')
    expect(relatedSlugs).not.toContain('uji-lalu') // ended
    // same category + same tag ranks first
    expect(relatedSlugs[0]).toBe('uji-sedang')
    const [{ category_id: categoryId, city_id: cityId }] = await ctx.database.rows<any>(
      sql`select category_id, city_id from events where slug = 'uji-dekat'`,
    )
    for (const e of related) {
      const [row] = await ctx.database.rows<any>(sql`select e.status, e.end_date::text as end_date, e.category_id, e.city_id,
          exists (select 1 from event_tags a join event_tags b on a.tag_id = b.tag_id
                  where a.event_id = e.id and b.event_id = ${ids.get('dekat')!}) as shares_tag
        from events e where e.slug = ${e.slug}`)
      expect(row.status).toBe('published')
      expect(row.end_date >= '2026-03-10').toBe(true)
      expect(row.category_id === categoryId || row.city_id === cityId || row.shares_tag).toBe(true)
    }
  })
  test('related items have the list item shape', async () => {
    const res = await get(ctx.app, '/api/events/uji-jauh')
    for (const e of res.body.event.related) expect(Object.keys(e)).toContain('category_slug')
  })
})

describe('iCalendar', () => {
  test('GET /api/events/{slug}.ics: valid VCALENDAR with the city zone, stable UID, escaped text', async () => {
    const res = await get(ctx.app, '/api/events/uji-jayapura.ics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/calendar')
    for (const line of res.text.split('\r\n').slice(0, -1)) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75)
    expect(res.text.endsWith('\r\n')).toBe(true)
    const vcalendar = new ICAL.Component(ICAL.parse(res.text))
    const vtimezone = vcalendar.getFirstSubcomponent('vtimezone')!
    expect(vtimezone.getFirstPropertyValue('tzid')).toBe('Asia/Jayapura')
    ICAL.TimezoneService.register(vtimezone)
    const vevent = vcalendar.getFirstSubcomponent('vevent')!
    const event = new ICAL.Event(vevent)
    expect(event.uid).toBe(`${ids.get('jayapura')}@event-catalog.id`)
    expect(event.summary).toBe('Uji jayapura; acara, "khusus" \\ tes')
    expect(vevent.getFirstPropertyValue('dtstamp')).toBeTruthy()
    // 09:30 WIT on 11 March = 00:30 UTC
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-11T00:30:00.000Z')
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-03-13T08:00:00.000Z')
    // the same UID and body on the next request (stable for calendar apps and ETags)
    const again = await get(ctx.app, '/api/events/uji-jayapura.ics')
    expect(again.text).toBe(res.text)
    const cached = await get(ctx.app, '/api/events/uji-jayapura.ics', { headers: { 'if-none-match': res.headers.get('etag')! } })
    expect(cached.status).toBe(304)
  })
  test('an event without a start time is an all-day event', async () => {
    const res = await get(ctx.app, '/api/events/uji-online.ics')
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(res.text)).getFirstSubcomponent('vevent')!)
    expect(event.startDate.isDate).toBe(true)
    expect(event.startDate.toString()).toBe('2026-03-15')
    expect(event.endDate.toString()).toBe('2026-03-16')
  })
  test('GET /api/events.ics takes the list filters; unknown slug 404; the JSON detail still answers slugs', async () => {
    const res = await get(ctx.app, `/api/events.ics?kategori=${FIXTURE_CATEGORY}&kota=jakarta-pusat&waktu=mendatang`)
    expect(res.status).toBe(200)
    const vcalendar = new ICAL.Component(ICAL.parse(res.text))
    const uids = vcalendar.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'))
    expect(uids.sort()).toEqual([`${ids.get('dekat')}@event-catalog.id`, `${ids.get('tanpa-koordinat')}@event-catalog.id`].sort())
    expect(vcalendar.getAllSubcomponents('vtimezone').map((v) => v.getFirstPropertyValue('tzid'))).toEqual(['Asia/Jakarta'])
    expect((await get(ctx.app, '/api/events/tidak-ada.ics')).status).toBe(404)
    expect((await get(ctx.app, '/api/events.ics?waktu=kemarin')).status).toBe(400)
    const detail = await get(ctx.app, '/api/events/uji-dekat')
    expect(detail.body.event.slug).toBe('uji-dekat')
  })
  test('the whole demo catalogue parses; long lines are folded without splitting characters', async () => {
    const res = await get(ctx.app, '/api/events.ics?limit=500')
    const vevents = new ICAL.Component(ICAL.parse(res.text)).getAllSubcomponents('vevent')
    const [{ n }] = await ctx.database.rows<{ n: number }>(sql`select count(*)::int as n from events where status = 'published'`)
    expect(vevents.length).toBe(n)
    const long = 'DESCRIPTION:' + 'Festival é ü 🎉 '.repeat(20)
    const folded = foldLine(long)
    for (const line of folded.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75)
    expect(folded.replace(/\r\n /g, '')).toBe(long)
  })
})

describe('OpenAPI', () => {
  test('documents every discovery parameter, the distance sort, facets, related and the calendar feed', async () => {
    const doc = (await get(ctx.app, '/api/openapi.json')).body
    const parameters = doc.paths['/api/events'].get.parameters
    const byName = Object.fromEntries(parameters.map((p: any) => [p.name, p]))
    for (const name of ['waktu', 'mulai', 'sampai', 'lat', 'lng', 'radius_km', 'facets'])
      expect({ name, description: Boolean(byName[name]?.description ?? byName[name]?.schema?.description) }).toEqual({
        name,
        description: true,
      })
    // every contract parameter is still there
    for (const name of ['page', 'limit', 'q', 'kategori', 'kota', 'tag', 'format', 'gratis', 'sort'])
      expect(byName[name]).toBeDefined()
    expect(JSON.stringify(byName.sort.schema)).toContain('distance')
    expect(JSON.stringify(doc.paths['/api/events'].get.responses['200'])).toContain('facets')
    expect(JSON.stringify(doc.paths['/api/events/{slug}'].get.responses['200'])).toContain('related')
    expect(doc.paths['/api/events.ics']?.get).toBeDefined()
  })
})
