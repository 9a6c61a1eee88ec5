// facets=1: counts per value of kategori, kota, format, gratis and waktu under the current
// filters, each facet ignoring its own selected value (as shops do: choosing "Bandung" still
// shows how many events the other cities have). Five grouped counts, run concurrently.
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { categories, cities, events, type Database } from '@app/db'
import type { EventListQuery } from './model'
import { listFilter } from './service'
import { WAKTU, waktuCondition, waktuExact } from './windows'

export type FacetValue = { value: string; label: string; count: number }
export type Facets = Record<'kategori' | 'kota' | 'format' | 'gratis' | 'waktu', FacetValue[]>

const FORMAT_LABELS: Record<string, string> = { offline: 'Offline', online: 'Online', hybrid: 'Hybrid' }
const GRATIS_LABELS: Record<string, string> = { '1': 'Gratis', '0': 'Berbayar' }
const WAKTU_LABELS: Record<string, string> = {
  'hari-ini': 'Hari ini',
  besok: 'Besok',
  'akhir-pekan': 'Akhir pekan',
  'minggu-ini': 'Minggu ini',
  'bulan-ini': 'Bulan ini',
  mendatang: 'Mendatang',
  berlalu: 'Sudah berlalu',
}

const byCountThenLabel = (a: FacetValue, b: FacetValue) => b.count - a.count || a.label.localeCompare(b.label)

// Each count groups by the events column alone (an index-only scan on events_count_idx,
// events_city_created_idx, events_type_idx or events_free_idx when no other filter needs the row), names
// are joined to the few groups afterwards.
export async function eventFacets({ db }: Database, query: EventListQuery, nowMs: number): Promise<Facets> {
  const without = (key: keyof EventListQuery) => listFilter({ ...query, [key]: undefined }, nowMs)
  const byCategory = db
    .select({ id: events.categoryId, count: sql<number>`count(*)::int`.as('count') })
    .from(events)
    .where(without('kategori'))
    .groupBy(events.categoryId)
    .as('by_category')
  const byCity = db
    .select({ id: events.cityId, count: sql<number>`count(*)::int`.as('count') })
    .from(events)
    .where(and(without('kota'), isNotNull(events.cityId)))
    .groupBy(events.cityId)
    .as('by_city')
  // the windows up to bulan-ini lie within "not ended yet": counted over those rows only
  // (events_status_end_idx covers them), berlalu over the ended ones
  const forward = WAKTU.filter((w) => w !== 'berlalu')
  const [kategori, kota, format, gratis, waktuForward, waktuPast] = await Promise.all([
    db
      .select({ value: categories.slug, label: categories.name, count: byCategory.count })
      .from(byCategory)
      .innerJoin(categories, eq(categories.id, byCategory.id)),
    db
      .select({ value: cities.slug, label: cities.name, count: byCity.count })
      .from(byCity)
      .innerJoin(cities, eq(cities.id, byCity.id)),
    db
      .select({ value: sql<string>`${events.eventType}::text`, count: sql<number>`count(*)::int` })
      .from(events)
      .where(without('format'))
      .groupBy(events.eventType),
    db
      .select({ value: sql<string>`case when ${events.isFree} then '1' else '0' end`, count: sql<number>`count(*)::int` })
      .from(events)
      .where(without('gratis'))
      .groupBy(events.isFree),
    db
      .select(
        Object.fromEntries(
          forward.map((w) => [w, sql<number>`(count(*) filter (where ${waktuExact(w, nowMs)}))::int`.as(`w_${w}`)]),
        ),
      )
      .from(events)
      .where(and(without('waktu'), waktuCondition('mendatang', nowMs))),
    db
      .select({ berlalu: sql<number>`count(*)::int` })
      .from(events)
      .where(and(without('waktu'), waktuCondition('berlalu', nowMs))),
  ])
  const waktuRow = { ...waktuForward[0], ...waktuPast[0] } as Record<string, number>
  return {
    kategori: kategori.map((r) => ({ ...r, count: Number(r.count) })).sort(byCountThenLabel),
    kota: kota.map((r) => ({ ...r, count: Number(r.count) })).sort(byCountThenLabel),
    format: format
      .map((r) => ({ value: r.value, label: FORMAT_LABELS[r.value] ?? r.value, count: Number(r.count) }))
      .sort(byCountThenLabel),
    gratis: gratis.map((r) => ({ value: r.value, label: GRATIS_LABELS[r.value], count: Number(r.count) })).sort(byCountThenLabel),
    // fixed order (a time scale), zeros included
    waktu: WAKTU.map((w) => ({ value: w, label: WAKTU_LABELS[w], count: Number(waktuRow[w] ?? 0) })),
  }
}
