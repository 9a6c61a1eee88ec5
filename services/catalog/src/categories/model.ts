import { t } from 'elysia'
import { oneOf, pageQuery, paginationSchema } from '@app/kit'

export const categoryListQuery = t.Object({
  ...pageQuery,
  q: t.Optional(t.String({ maxLength: 200, error: 'q maksimal 200 karakter', description: 'Cari di nama atau slug' })),
  active_only: t.Optional(oneOf(['0', '1'], { error: 'active_only harus 0 atau 1', default: '1' })),
})

export const categoryListItem = t.Object({
  id: t.String(),
  name: t.String(),
  slug: t.String(),
  description: t.String(),
  icon: t.String({ description: 'Nama ikon' }),
  image_url: t.String(),
  is_active: t.Union([t.Literal(0), t.Literal(1)]),
  sort_order: t.Integer(),
  event_count: t.Integer({ description: 'Jumlah event terbit' }),
})

export const categoryListResponse = t.Object({
  success: t.Literal(true),
  data: t.Array(categoryListItem),
  pagination: paginationSchema,
})

export const categoryDetailResponse = t.Object({
  success: t.Literal(true),
  category: t.Object({
    id: t.String(),
    name: t.String(),
    slug: t.String(),
    description: t.String(),
    icon: t.String(),
    is_active: t.Union([t.Literal(0), t.Literal(1)]),
  }),
})
