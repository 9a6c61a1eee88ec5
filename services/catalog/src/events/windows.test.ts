// Time windows at fixed clock instants around midnight in each zone (the app's clock is
// injected; the database is real).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { envelopeMessage, get } from '@app/kit/testing'
import { createTestCatalog } from '../testing'
import { FIXTURE_CATEGORY, insertFixture } from './discovery-fixture'
import { and, eq, like } from 'drizzle-orm'
import { events } from '@app/db'
import { localDate, nextDateChange, upcomingParams, upcomingPrepared, waktuCondition, windowOf, ZONES } from './windows'

let clock = 0
let ctx: Awaited<ReturnType<typeof createTestCatalog>>
beforeAll(async () => {
  ctx = await createTestCatalog({ now: () => clock })
  // 2026-03-10 is a Tuesday
  await insertFixture(ctx.database, [
    { key: 'a-jakarta', city: 'jakarta-pusat', start: '2026-03-10' },
    { key: 'b-denpasar', city: 'denpasar', start: '2026-03-10' },
    { key: 'c-jayapura', city: 'jayapura', start: '2026-03-11' },
    { key: 'd-online', city: null, start: '2026-03-11' },
    { key: 'e-makassar-festival', city: 'makassar', start: '2026-03-08', end: '2026-03-12' },
    { key: 'f-jayapura', city: 'jayapura', start: '2026-03-10' },
    { key: 'g-bandung-sabtu', city: 'bandung', start: '2026-03-14' },
    { key: 'h-bandung-senin', city: 'bandung', start: '2026-03-16' },
    { key: 'i-draft', city: 'bandung', start: '2026-03-10', status: 'pending' },
  ])
})
afterAll(async () => {
  await ctx.database.close()
})

const at = (iso: string) => Date.parse(iso)

async function keys(query: string): Promise<string[]> {
  const res = await get(ctx.app, `/api/events?kategori=${FIXTURE_CATEGORY}&limit=100&${query}`)
  expect(res.status).toBe(200)
  expect(res.body.pagination.total).toBe(res.body.data.length)
  return res.body.data.map((e: any) => e.slug.replace(/^uji-/, '').split('-')[0]).sort()
}

describe('window arithmetic', () => {
  test('the local date differs per zone around midnight', () => {
    const t = at('2026-03-10T16:30:00Z') // 23:30 WIB, 00:30 WITA, 01:30 WIT
    expect(ZONES.map((z) => localDate(t, z))).toEqual(['2026-03-10', '2026-03-11', '2026-03-11'])
  })
  test('every waktu on a weekday, on Friday, on Sunday and at the end of a month', () => {
    expect(windowOf('hari-ini', '2026-03-10')).toEqual({ from: '2026-03-10', to: '2026-03-10' })
    expect(windowOf('besok', '2026-03-31')).toEqual({ from: '2026-04-01', to: '2026-04-01' })
    expect(windowOf('akhir-pekan', '2026-03-10')).toEqual({ from: '2026-03-13', to: '2026-03-15' })
    expect(windowOf('akhir-pekan', '2026-03-13')).toEqual({ from: '2026-03-13', to: '2026-03-15' })
    expect(windowOf('akhir-pekan', '2026-03-14')).toEqual({ from: '2026-03-14', to: '2026-03-15' })
    expect(windowOf('akhir-pekan', '2026-03-15')).toEqual({ from: '2026-03-15', to: '2026-03-15' })
    expect(windowOf('minggu-ini', '2026-03-10')).toEqual({ from: '2026-03-10', to: '2026-03-15' })
    expect(windowOf('minggu-ini', '2026-03-15')).toEqual({ from: '2026-03-15', to: '2026-03-15' })
    expect(windowOf('bulan-ini', '2026-02-10')).toEqual({ from: '2026-02-10', to: '2026-02-28' })
    expect(windowOf('bulan-ini', '2028-02-10')).toEqual({ from: '2028-02-10', to: '2028-02-29' })
    expect(windowOf('mendatang', '2026-03-10')).toEqual({ from: '2026-03-10', to: null })
    expect(windowOf('berlalu', '2026-03-10')).toEqual({ endedBefore: '2026-03-10' })
  })
  test('the next date change is the next local midnight of the earliest zone still to reach it', () => {
    expect(nextDateChange(at('2026-03-10T14:59:00Z'))).toBe(at('2026-03-10T15:00:00Z')) // WIT midnight
    expect(nextDateChange(at('2026-03-10T15:00:00Z'))).toBe(at('2026-03-10T16:00:00Z')) // WITA
    expect(nextDateChange(at('2026-03-10T16:30:00Z'))).toBe(at('2026-03-10T17:00:00Z')) // WIB
    expect(nextDateChange(at('2026-03-10T17:00:00Z'))).toBe(at('2026-03-11T15:00:00Z'))
  })
})

describe('GET /api/events?waktu= at fixed instants (today in the event city zone)', () => {
  const cases: [instant: string, expected: string[]][] = [
    // 21:59 WIB, 22:59 WITA, 23:59 WIT on the 10th
    ['2026-03-10T14:59:59Z', ['a', 'b', 'e', 'f']],
    // midnight in Jayapura: the 11th there
    ['2026-03-10T15:00:00Z', ['a', 'b', 'c', 'e']],
    // midnight in Makassar/Denpasar
    ['2026-03-10T16:00:00Z', ['a', 'c', 'e']],
    // 23:30 WIB: still the 10th in Jakarta, already the 11th in Jayapura
    ['2026-03-10T16:30:00Z', ['a', 'c', 'e']],
    // midnight in Jakarta: the online event (WIB) starts, the Jakarta one is over
    ['2026-03-10T17:00:00Z', ['c', 'd', 'e']],
  ]
  for (const [instant, expected] of cases)
    test(`hari-ini at ${instant}`, async () => {
      clock = at(instant)
      expect(await keys('waktu=hari-ini')).toEqual(expected)
    })

  test('besok, berlalu, mendatang, akhir-pekan, minggu-ini, bulan-ini at 23:30 WIB', async () => {
    clock = at('2026-03-10T16:30:00Z')
    expect(await keys('waktu=besok')).toEqual(['d', 'e'])
    expect(await keys('waktu=berlalu')).toEqual(['b', 'f'])
    expect(await keys('waktu=mendatang')).toEqual(['a', 'c', 'd', 'e', 'g', 'h'])
    expect(await keys('waktu=akhir-pekan')).toEqual(['g'])
    expect(await keys('waktu=minggu-ini')).toEqual(['a', 'c', 'd', 'e', 'g'])
    expect(await keys('waktu=bulan-ini')).toEqual(['a', 'c', 'd', 'e', 'g', 'h'])
  })

  test('on Saturday the weekend starts today; a festival counts on each of its days', async () => {
    clock = at('2026-03-14T03:00:00Z')
    expect(await keys('waktu=akhir-pekan')).toEqual(['g'])
    clock = at('2026-03-09T03:00:00Z') // Monday morning: the festival (8-12 March) is on today
    expect(await keys('waktu=hari-ini')).toEqual(['e'])
  })

  test('mulai/sampai: inclusive overlap, either bound alone, combined with waktu', async () => {
    clock = at('2026-03-10T16:30:00Z')
    expect(await keys('mulai=2026-03-12&sampai=2026-03-14')).toEqual(['e', 'g'])
    expect(await keys('mulai=2026-03-14')).toEqual(['g', 'h'])
    expect(await keys('sampai=2026-03-09')).toEqual(['e'])
    expect(await keys('mulai=2026-03-10&sampai=2026-03-10')).toEqual(['a', 'b', 'e', 'f'])
    expect(await keys('mulai=2026-03-10&waktu=berlalu')).toEqual(['b', 'f'])
  })

  test('the same URL answers differently once the date changes (the cache is keyed by it)', async () => {
    clock = at('2026-03-10T14:59:59Z')
    expect(await keys('waktu=hari-ini')).toEqual(['a', 'b', 'e', 'f'])
    clock = at('2026-03-10T17:00:00Z')
    expect(await keys('waktu=hari-ini')).toEqual(['c', 'd', 'e'])
  })
})

describe('the prepared form of waktu=mendatang (related events) selects what the list selects', () => {
  // the instants of the hari-ini cases: each zone's date changes between them
  for (const [instant, upcoming] of [
    ['2026-03-10T14:59:59Z', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
    ['2026-03-10T15:00:00Z', ['a', 'b', 'c', 'd', 'e', 'g', 'h']],
    ['2026-03-10T16:30:00Z', ['a', 'c', 'd', 'e', 'g', 'h']],
    ['2026-03-10T17:00:00Z', ['c', 'd', 'e', 'g', 'h']],
  ] as const)
    test(instant, async () => {
      const { db } = ctx.database
      const fixture = and(eq(events.status, 'published'), like(events.slug, 'uji-%'))
      const keysOf = (rows: { slug: string }[]) => rows.map((r) => r.slug.replace(/^uji-/, '').split('-')[0]).sort()
      const direct = await db
        .select({ slug: events.slug })
        .from(events)
        .where(and(fixture, waktuCondition('mendatang', at(instant))))
      const prepared = await db
        .select({ slug: events.slug })
        .from(events)
        .where(and(fixture, upcomingPrepared()))
        .prepare(`upcoming_at_${at(instant)}`)
        .execute(upcomingParams(at(instant)))
      expect(keysOf(prepared)).toEqual([...upcoming])
      expect(keysOf(prepared)).toEqual(keysOf(direct))
    })
})

describe('invalid time filters: 400 envelope in Indonesian, before any query', () => {
  for (const [query, message] of [
    ['waktu=kemarin', /waktu harus salah satu dari/],
    ['mulai=2026-02-30', /mulai harus tanggal yang valid/],
    ['sampai=2026-13-01', /sampai harus tanggal yang valid/],
    ['mulai=2026-3-1', /mulai harus tanggal yang valid/],
    ['mulai=besok', /mulai harus tanggal yang valid/],
    ['mulai=2026-03-10&sampai=2026-03-09', /sampai tidak boleh sebelum mulai/],
  ] as const)
    test(query, async () => {
      const res = await get(ctx.app, `/api/events?${query}`)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toMatch(message)
    })
})
