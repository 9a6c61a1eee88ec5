// Time windows (`waktu`, `mulai`, `sampai`) on the event list.
//
// Event dates are local to the event's city. "Today" is therefore a different date in WIB, WITA
// and WIT around midnight, so a window is computed once per zone and the SQL picks the zone of
// each row. Indonesia has three zones, none with daylight saving time; a city whose zone is not
// WITA or WIT (and an online event without a city) counts as WIB.
//
// Sargable: every window is also a date range that covers all three zones (they differ by at
// most a day), tested against the GiST index on daterange(start_date, greatest(start_date,
// end_date)), or for the open windows (mendatang, berlalu) against (status, end_date) (migration
// 0015); the exact per-zone test then only filters the index's rows.
import { sql, type SQL } from 'drizzle-orm'
import { HttpError } from '@app/kit'

export const WAKTU = ['hari-ini', 'besok', 'akhir-pekan', 'minggu-ini', 'bulan-ini', 'mendatang', 'berlalu'] as const
export type Waktu = (typeof WAKTU)[number]

export interface Zone {
  /** Short Indonesian name. */
  abbreviation: 'WIB' | 'WITA' | 'WIT'
  /** Minutes east of UTC. */
  offsetMinutes: number
  /** IANA names of cities in this zone. */
  names: string[]
}

export const ZONES: Zone[] = [
  { abbreviation: 'WIB', offsetMinutes: 420, names: ['Asia/Jakarta', 'Asia/Pontianak'] },
  { abbreviation: 'WITA', offsetMinutes: 480, names: ['Asia/Makassar', 'Asia/Ujung_Pandang'] },
  { abbreviation: 'WIT', offsetMinutes: 540, names: ['Asia/Jayapura'] },
]
const WIB = ZONES[0]

/** The zone of an IANA name (WIB for unknown names and for online events without a city). */
export function zoneOf(timeZone: string | null | undefined): Zone {
  return ZONES.find((z) => timeZone && z.names.includes(timeZone)) ?? WIB
}

const DAY_MS = 86_400_000

/** The calendar date (YYYY-MM-DD) at `nowMs` in a zone. */
export function localDate(nowMs: number, zone: Zone): string {
  return new Date(nowMs + zone.offsetMinutes * 60_000).toISOString().slice(0, 10)
}

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/** Inclusive local-date bounds; null is open. `endedBefore` means end_date < that date. */
export type DayWindow = { from: string | null; to: string | null } | { endedBefore: string }

/** The window of `waktu` when today (in the event's zone) is `today`. */
export function windowOf(waktu: Waktu, today: string): DayWindow {
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay() // 0 = Sunday
  const toSunday = weekday === 0 ? 0 : 7 - weekday
  switch (waktu) {
    case 'hari-ini':
      return { from: today, to: today }
    case 'besok':
      return { from: addDays(today, 1), to: addDays(today, 1) }
    case 'akhir-pekan':
      // Friday through Sunday; on Friday, Saturday or Sunday: from today
      return { from: weekday === 0 || weekday >= 5 ? today : addDays(today, 5 - weekday), to: addDays(today, toSunday) }
    case 'minggu-ini':
      return { from: today, to: addDays(today, toSunday) }
    case 'bulan-ini': {
      const [y, m] = today.split('-').map(Number)
      return { from: today, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) }
    }
    case 'mendatang':
      return { from: today, to: null }
    case 'berlalu':
      return { endedBefore: today }
  }
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date in YYYY-MM-DD, or null. */
export function parseIsoDate(value: string): string | null {
  const m = ISO_DATE.exec(value)
  if (!m) return null
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.toISOString().slice(0, 10) === value ? value : null
}

export interface TimeFilter {
  waktu?: Waktu
  mulai?: string
  sampai?: string
}

/** Checks what the schema cannot (real dates, order); throws a 400 with an Indonesian message. */
export function validateTimeFilter(query: TimeFilter): void {
  if (query.mulai !== undefined && !parseIsoDate(query.mulai))
    throw new HttpError(400, 'mulai harus tanggal yang valid dengan format YYYY-MM-DD', [
      { field: 'mulai', message: 'mulai harus tanggal yang valid dengan format YYYY-MM-DD' },
    ])
  if (query.sampai !== undefined && !parseIsoDate(query.sampai))
    throw new HttpError(400, 'sampai harus tanggal yang valid dengan format YYYY-MM-DD', [
      { field: 'sampai', message: 'sampai harus tanggal yang valid dengan format YYYY-MM-DD' },
    ])
  if (query.mulai && query.sampai && query.sampai < query.mulai)
    throw new HttpError(400, 'sampai tidak boleh sebelum mulai', [
      { field: 'sampai', message: 'sampai tidak boleh sebelum mulai' },
    ])
}

// must be the expression of the index in migration 0015, character for character in meaning
const dateRange = sql`daterange("events"."start_date", greatest("events"."start_date", "events"."end_date"), '[]')`

function exact(window: DayWindow): SQL {
  if ('endedBefore' in window) return sql`"events"."end_date" < ${window.endedBefore}::date`
  const parts: SQL[] = []
  if (window.to) parts.push(sql`"events"."start_date" <= ${window.to}::date`)
  if (window.from) parts.push(sql`"events"."end_date" >= ${window.from}::date`)
  return parts.length ? sql.join(parts, sql` and `) : sql`true`
}

/**
 * The index condition covering the windows of all zones: a range on end_date (btree
 * events_status_end_idx) for the open windows (mendatang, berlalu), an overlap on the GiST
 * date-range index for the bounded ones.
 */
function covering(windows: DayWindow[]): SQL {
  const sorted = (values: string[]) => [...values].sort()
  if ('endedBefore' in windows[0]) {
    const latest = sorted(windows.map((w) => (w as { endedBefore: string }).endedBefore)).at(-1)!
    return sql`"events"."end_date" < ${latest}::date`
  }
  const ranges = windows as { from: string | null; to: string | null }[]
  const from = ranges.some((w) => !w.from) ? null : sorted(ranges.map((w) => w.from!))[0]
  const to = ranges.some((w) => !w.to) ? null : sorted(ranges.map((w) => w.to!)).at(-1)!
  if (to === null && from !== null) return sql`"events"."end_date" >= ${from}::date`
  return sql`${dateRange} && daterange(${from}::date, ${to}::date, '[]')`
}

/** `city is in this zone` as a hashed subplan over the small cities table. */
const inZone = (zone: Zone) =>
  sql`"events"."city_id" in (select id from cities where time_zone in (${sql.join(
    zone.names.map((n) => sql`${n}`),
    sql`, `,
  )}))`

/** The condition of `waktu` at instant `nowMs`: today is taken in each event's zone. */
export function waktuCondition(waktu: Waktu, nowMs: number): SQL {
  const windows = ZONES.map((zone) => windowOf(waktu, localDate(nowMs, zone)))
  return sql`(${covering(windows)} and ${perZone(windows)})`
}

/**
 * `waktu=mendatang` with its dates as placeholders (`upcomingFrom`, `upcomingWib`, `upcomingWita`,
 * `upcomingWit`; values from upcomingParams), for prepared statements: the same test as
 * waktuCondition('mendatang'), in its per-zone form at every hour.
 */
export function upcomingPrepared(): SQL {
  const at = (name: string) => sql`${sql.placeholder(name)}::date`
  return sql`("events"."end_date" >= ${at('upcomingFrom')} and (case when ${inZone(ZONES[2])} then "events"."end_date" >= ${at(
    'upcomingWit',
  )} when ${inZone(ZONES[1])} then "events"."end_date" >= ${at('upcomingWita')} else "events"."end_date" >= ${at('upcomingWib')} end))`
}

/** The placeholder values of upcomingPrepared at instant `nowMs`. */
export function upcomingParams(nowMs: number) {
  const [wib, wita, wit] = ZONES.map((zone) => localDate(nowMs, zone))
  return { upcomingFrom: [wib, wita, wit].sort()[0], upcomingWib: wib, upcomingWita: wita, upcomingWit: wit }
}

/**
 * Only the exact test of `waktu` (no index condition): for counting within rows an index has
 * already selected (the waktu facet), where building a date range per row would only cost.
 */
export function waktuExact(waktu: Waktu, nowMs: number): SQL {
  return perZone(ZONES.map((zone) => windowOf(waktu, localDate(nowMs, zone))))
}

function perZone(windows: DayWindow[]): SQL {
  const [wib, wita, wit] = windows
  // from 00:00 to 15:00 UTC every zone has the same date: no per-zone test needed
  if (windows.every((w) => JSON.stringify(w) === JSON.stringify(wib))) return sql`(${exact(wib)})`
  return sql`(case when ${inZone(ZONES[2])} then ${exact(wit)} when ${inZone(ZONES[1])} then ${exact(wita)} else ${exact(wib)} end)`
}

/** Events whose dates overlap the inclusive range [mulai, sampai] (either may be absent). */
export function rangeCondition(mulai: string | undefined, sampai: string | undefined): SQL | undefined {
  if (!mulai && !sampai) return undefined
  return sql`${dateRange} && daterange(${mulai ?? null}::date, ${sampai ?? null}::date, '[]')`
}

/** All time conditions of a list query (none when it has no time filter). */
export function timeConditions(query: TimeFilter, nowMs: number): SQL[] {
  const out: SQL[] = []
  if (query.waktu) out.push(waktuCondition(query.waktu, nowMs))
  const range = rangeCondition(query.mulai, query.sampai)
  if (range) out.push(range)
  return out
}

/**
 * The next instant at which any zone's date changes (its local midnight): an answer that
 * depends on "today" is valid until then.
 */
export function nextDateChange(nowMs: number): number {
  return Math.min(
    ...ZONES.map((zone) => {
      const local = nowMs + zone.offsetMinutes * 60_000
      return Math.floor(local / DAY_MS) * DAY_MS + DAY_MS - zone.offsetMinutes * 60_000
    }),
  )
}
