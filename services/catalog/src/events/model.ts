import { t } from 'elysia'
import { eventType, MAX_QUERY_LENGTH } from '@app/db'
import { oneOf, pageQuery, paginationWithLinksSchema } from '@app/kit'
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM } from './geo'
import { WAKTU } from './windows'

export const EVENT_SORTS = ['created_at_desc', 'start_date_asc', 'start_date_desc', 'price_asc', 'title_asc'] as const
export type EventSort = (typeof EVENT_SORTS)[number]
// the contract's sorts plus `distance` (nearest first; only with lat and lng) and `relevance`
// (best match first; only with q)
export const LIST_SORTS = [...EVENT_SORTS, 'distance', 'relevance'] as const
// the schema's enum: one list of event types for the filter, the responses and submissions
export const EVENT_TYPES = eventType.enumValues

const dateParam = (name: string, description: string) =>
  t.Optional(
    t.String({
      maxLength: 10,
      error: `${name} harus tanggal yang valid dengan format YYYY-MM-DD`,
      description,
      examples: ['2026-12-31'],
    }),
  )

/**
 * A string from fixed values, documented with its description. (oneOf's union loses the
 * description in the OpenAPI generator, and TypeBox does not check `enum` on a string: the
 * value is checked by validateDiscovery, before any query.)
 */
const documentedChoice = (values: readonly string[], options: { error: string; description: string }) =>
  t.Optional(t.String({ enum: [...values], maxLength: 20, ...options }))

/** Discovery filters (issue 14): time windows, near me, facets. All optional, all additive. */
export const discoveryQuery = {
  waktu: documentedChoice(WAKTU, {
    error: `waktu harus salah satu dari ${WAKTU.join(', ')}`,
    description:
      'Jendela waktu, dengan "hari ini" menurut zona waktu kota event (WIB/WITA/WIT; event online: WIB). hari-ini, besok, ' +
      'akhir-pekan (Jumat-Minggu; pada akhir pekan mulai hari ini), minggu-ini (hari ini s.d. Minggu), bulan-ini (hari ini ' +
      's.d. akhir bulan), mendatang (belum selesai), berlalu (sudah selesai). Event beberapa hari cocok pada setiap harinya.',
  }),
  mulai: dateParam('mulai', 'Event yang tanggalnya beririsan dengan rentang mulai..sampai (inklusif), YYYY-MM-DD'),
  sampai: dateParam('sampai', 'Akhir rentang (inklusif), YYYY-MM-DD; tidak boleh sebelum mulai'),
  lat: t.Optional(
    t.Number({
      minimum: -90,
      maximum: 90,
      error: 'lat harus angka antara -90 dan 90',
      description: 'Lintang titik pusat (bersama lng)',
    }),
  ),
  lng: t.Optional(
    t.Number({
      minimum: -180,
      maximum: 180,
      error: 'lng harus angka antara -180 dan 180',
      description: 'Bujur titik pusat (bersama lat)',
    }),
  ),
  radius_km: t.Optional(
    t.Number({
      exclusiveMinimum: 0,
      maximum: MAX_RADIUS_KM,
      error: `radius_km harus angka lebih dari 0 dan maksimal ${MAX_RADIUS_KM}`,
      description: `Radius dari lat/lng dalam km, default ${DEFAULT_RADIUS_KM}, maksimum ${MAX_RADIUS_KM}. Hanya event dengan koordinat.`,
    }),
  ),
  facets: documentedChoice(['0', '1'], {
    error: 'facets harus 0 atau 1',
    description: '1 = sertakan facets (jumlah per nilai kategori, kota, format, gratis, waktu) di bawah filter yang sama',
  }),
}

export const eventListQuery = t.Object({
  ...pageQuery,
  q: t.Optional(
    t.String({
      maxLength: MAX_QUERY_LENGTH,
      error: `q maksimal ${MAX_QUERY_LENGTH} karakter`,
      description: 'Cari di judul, deskripsi, dan penyelenggara',
    }),
  ),
  kategori: t.Optional(t.String({ maxLength: 100, error: 'kategori tidak valid', description: 'Slug kategori' })),
  kota: t.Optional(t.String({ maxLength: 100, error: 'kota tidak valid', description: 'Slug kota' })),
  tag: t.Optional(t.String({ maxLength: 100, error: 'tag tidak valid', description: 'Slug tag' })),
  format: t.Optional(oneOf([...EVENT_TYPES], { error: 'format harus salah satu dari offline, online, hybrid' })),
  gratis: t.Optional(oneOf(['0', '1'], { error: 'gratis harus 0 atau 1', description: '1 = gratis saja, 0 = berbayar saja' })),
  sort: t.Optional(
    oneOf([...LIST_SORTS], {
      error: `sort harus salah satu dari ${LIST_SORTS.join(', ')}`,
      default: 'created_at_desc',
      description:
        'distance: terdekat dulu, hanya bersama lat dan lng. relevance: paling cocok dulu (judul di atas venue/kota/kategori/tag, di atas deskripsi; yang terbaru bila sama), hanya bersama q',
    }),
  ),
  ...discoveryQuery,
})
/** The query as the schema lets it through; validateDiscovery narrows it to EventListQuery. */
export type RawEventListQuery = typeof eventListQuery.static
export type EventListQuery = Omit<RawEventListQuery, 'waktu' | 'facets'> & {
  waktu?: (typeof WAKTU)[number]
  facets?: '0' | '1'
}

const nullableString = t.Union([t.String(), t.Null()])

export const eventListItem = t.Object({
  id: t.String(),
  title: t.String(),
  slug: t.String(),
  short_description: t.String(),
  poster_url: t.String(),
  start_date: t.String({ format: 'date', examples: ['2026-12-31'] }),
  end_date: t.String({ format: 'date' }),
  start_time: t.Union([t.String({ examples: ['19:30'] }), t.Null()], {
    description: 'HH:mm waktu setempat kota; null bila belum diketahui',
  }),
  event_type: oneOf([...EVENT_TYPES]),
  venue_name: t.String(),
  city_name: t.Union([t.String(), t.Null()], { description: 'null untuk event online tanpa kota' }),
  city_slug: nullableString,
  category_name: t.String(),
  category_slug: t.String(),
  ticket_price_min: t.Number({ description: 'Rupiah' }),
  ticket_price_max: t.Number({ description: 'Rupiah' }),
  is_free: t.Union([t.Literal(0), t.Literal(1)]),
  organizer_name: t.String(),
  distance_km: t.Optional(t.Number({ description: 'Jarak dari lat/lng dalam km; hanya bila lat dan lng diisi' })),
})

const facetValue = t.Object({
  value: t.String({ description: 'Nilai parameter filter (slug, format, 0/1, waktu)' }),
  label: t.String(),
  count: t.Integer(),
})
export const facetsSchema = t.Object(
  {
    kategori: t.Array(facetValue),
    kota: t.Array(facetValue),
    format: t.Array(facetValue),
    gratis: t.Array(facetValue),
    waktu: t.Array(facetValue),
  },
  {
    description: 'Hanya dengan facets=1: jumlah event per nilai, di bawah semua filter lain (filter facet itu sendiri diabaikan)',
  },
)

export const eventListResponse = t.Object({
  success: t.Literal(true),
  data: t.Array(eventListItem),
  pagination: t.Object({
    ...paginationWithLinksSchema.properties,
    total_exact: t.Optional(
      t.Literal(false, {
        description:
          'Hanya pada pencarian (q) dengan lebih dari 1000 hasil: total adalah batas bawah (penghitungan berhenti di sana).',
      }),
    ),
  }),
  facets: t.Optional(facetsSchema),
})

export const tagItem = t.Object({ id: t.String(), name: t.String(), slug: t.String() })

export const eventDetail = t.Object({
  id: t.String(),
  title: t.String(),
  slug: t.String(),
  short_description: t.String(),
  description: t.String({ description: 'HTML yang sudah disanitasi' }),
  poster_url: t.String(),
  gallery: t.Array(t.Object({ url: t.String(), caption: nullableString })),
  start_date: t.String({ format: 'date' }),
  end_date: t.String({ format: 'date' }),
  start_time: nullableString,
  end_time: nullableString,
  event_type: oneOf([...EVENT_TYPES]),
  venue_name: t.String(),
  venue_address: t.String(),
  latitude: t.Union([t.Number(), t.Null()]),
  longitude: t.Union([t.Number(), t.Null()]),
  city_name: nullableString,
  city_slug: nullableString,
  city_time_zone: t.Union([t.String(), t.Null()], { description: 'Zona waktu IANA kota event' }),
  category_name: t.String(),
  category_slug: t.String(),
  organizer_name: t.String(),
  contact_phone: t.String(),
  ticket_url: t.String(),
  is_free: t.Union([t.Literal(0), t.Literal(1)]),
  ticket_price_min: t.Number(),
  ticket_price_max: t.Number(),
  tags: t.Array(tagItem),
  is_cancelled: t.Union([t.Literal(0), t.Literal(1)], {
    description: '1 bila event dibatalkan: tetap tampil, tandai dibatalkan (tiket tidak lagi dijual)',
  }),
  related: t.Array(eventListItem, {
    description: 'Sampai 4 event terbit yang belum selesai dengan kategori, kota, atau tag yang sama',
  }),
})

export const eventDetailResponse = t.Object({ success: t.Literal(true), event: eventDetail })

export const slugParams = t.Object({ slug: t.String({ maxLength: 200, error: 'slug tidak valid' }) })
