import { t } from 'elysia'
import { eventType, MAX_QUERY_LENGTH } from '@app/db'
import { oneOf, pageQuery, paginationWithLinksSchema } from '@app/kit'

export const EVENT_SORTS = ['created_at_desc', 'start_date_asc', 'start_date_desc', 'price_asc', 'title_asc'] as const
export type EventSort = (typeof EVENT_SORTS)[number]
// the schema's enum: one list of event types for the filter, the responses and submissions
export const EVENT_TYPES = eventType.enumValues

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
    oneOf([...EVENT_SORTS], {
      error: `sort harus salah satu dari ${EVENT_SORTS.join(', ')}`,
      default: 'created_at_desc',
    }),
  ),
})
export type EventListQuery = typeof eventListQuery.static

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
})

export const eventListResponse = t.Object({
  success: t.Literal(true),
  data: t.Array(eventListItem),
  pagination: paginationWithLinksSchema,
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
})

export const eventDetailResponse = t.Object({ success: t.Literal(true), event: eventDetail })

export const slugParams = t.Object({ slug: t.String({ maxLength: 200, error: 'slug tidak valid' }) })
