import { t } from 'elysia'
import { pageQuery, paginationSchema } from '@app/kit'

export const tagListQuery = t.Object({
  ...pageQuery,
  q: t.Optional(t.String({ maxLength: 200, error: 'q maksimal 200 karakter', description: 'Cari di nama tag' })),
})

export const tagListResponse = t.Object({
  success: t.Literal(true),
  data: t.Array(
    t.Object({
      id: t.String(),
      name: t.String(),
      slug: t.String(),
      event_count: t.Integer({ description: 'Jumlah event terbit' }),
    }),
  ),
  pagination: paginationSchema,
})
