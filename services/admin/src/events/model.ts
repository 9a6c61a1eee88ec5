import { t } from 'elysia'
import { MAX_QUERY_LENGTH } from '@app/db'
import { eventInputBody, oneOf, pageQuery } from '@app/kit'

export const ADMIN_LIST_DEFAULT_LIMIT = 50
export const ADMIN_LIST_MAX_LIMIT = 100
export const STATUS_FILTERS = ['all', 'published', 'pending', 'draft', 'rejected', 'deleted'] as const
const EVENT_TYPES = ['offline', 'online', 'hybrid'] as const
export const EVENT_STATUSES = ['published', 'pending', 'draft', 'rejected', 'deleted'] as const

export const adminEventListQuery = t.Object({
  ...pageQuery,
  status: t.Optional(
    oneOf([...STATUS_FILTERS], {
      error: `status harus salah satu dari ${STATUS_FILTERS.join(', ')}`,
      description: 'Kosong atau all = semua status',
    }),
  ),
  sort: t.Optional(
    oneOf(['newest', 'oldest'], {
      error: 'sort harus newest atau oldest',
      description: 'newest (bawaan) atau oldest: antrean moderasi, yang paling lama menunggu dulu',
    }),
  ),
  q: t.Optional(
    t.String({
      maxLength: MAX_QUERY_LENGTH,
      error: `q maksimal ${MAX_QUERY_LENGTH} karakter`,
      description: 'Cari di judul, deskripsi, dan penyelenggara; id atau slug yang persis juga cocok',
    }),
  ),
})
export type AdminEventListQuery = typeof adminEventListQuery.static

const nullableString = t.Union([t.String(), t.Null()])

/** The public event detail plus what only moderators see. */
export const adminEventItem = t.Object({
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
  city_time_zone: nullableString,
  category_name: t.String(),
  category_slug: t.String(),
  organizer_name: t.String(),
  contact_phone: t.String(),
  ticket_url: t.String(),
  is_free: t.Union([t.Literal(0), t.Literal(1)]),
  ticket_price_min: t.Number(),
  ticket_price_max: t.Number(),
  tags: t.Array(t.Object({ id: t.String(), name: t.String(), slug: t.String() })),
  status: oneOf([...EVENT_STATUSES]),
  contact_name: t.String(),
  contact_email: t.String(),
  created_at: t.String({ description: 'ISO 8601 UTC' }),
  updated_at: t.String({ description: 'ISO 8601 UTC' }),
  published_at: t.Union([t.String(), t.Null()], { description: 'ISO 8601 UTC; null bila belum pernah terbit' }),
  category_id: t.String(),
  city_id: nullableString,
  is_featured: t.Boolean(),
  is_cancelled: t.Boolean({ description: 'Dibatalkan: tetap tampil untuk publik dengan is_cancelled = 1' }),
  cancelled_at: nullableString,
  deleted_at: t.Union([t.String(), t.Null()], { description: 'Diisi bila event ada di tempat sampah (status deleted)' }),
  revision: t.Integer({ description: 'Naik setiap perubahan; ETag = "<revision>"' }),
})

export const adminEventListResponse = t.Object({
  success: t.Literal(true),
  events: t.Array(adminEventItem),
  total: t.Integer(),
  page: t.Integer(),
  limit: t.Integer(),
})

export const eventIdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100, error: 'id tidak valid' }) })

export const rejectBody = t.Optional(
  t.Object({
    reason: t.Optional(
      t.Union([t.String({ maxLength: 1000 }), t.Null()], { error: 'reason harus berupa teks, maksimal 1000 karakter' }),
    ),
  }),
)

export const moderationResponse = t.Object({
  success: t.Literal(true),
  message: t.String(),
  event: t.Object({ id: t.String(), slug: t.String(), status: oneOf([...EVENT_STATUSES]) }),
})

export const adminEventResponse = t.Object({ success: t.Literal(true), event: adminEventItem })

export const eventPatchBody = t.Object(
  {
    ...eventInputBody.properties,
    slug: t.Optional(
      t.Union([t.String({ maxLength: 200 }), t.Null()], {
        error: 'Slug harus berupa teks, maksimal 200 karakter',
        description: 'Opsional: slug baru (huruf kecil, angka, minus). Slug lama tetap dijawab 301 ke yang baru.',
      }),
    ),
  },
  {
    error: 'Data event harus berupa objek JSON',
    description: 'Hanya field yang dikirim yang berubah; aturan sama dengan pengajuan event.',
  },
)

export const actionBody = t.Optional(
  t.Object({
    reason: t.Optional(
      t.Union([t.String({ maxLength: 1000 }), t.Null()], { error: 'reason harus berupa teks, maksimal 1000 karakter' }),
    ),
  }),
)

export const eventActionResponse = t.Object({
  success: t.Literal(true),
  message: t.String(),
  event: t.Object({ id: t.String(), slug: t.String(), status: oneOf([...EVENT_STATUSES]), revision: t.Integer() }),
})
