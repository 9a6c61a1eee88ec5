import { t } from 'elysia'
import { pageQuery, paginationSchema } from '@app/kit'

export const cityListQuery = t.Object({
  ...pageQuery,
  q: t.Optional(t.String({ maxLength: 200, error: 'q maksimal 200 karakter', description: 'Cari di nama kota atau provinsi' })),
})

export const cityListItem = t.Object({
  id: t.String(),
  name: t.String(),
  slug: t.String(),
  province: t.String(),
  image_url: t.String(),
  time_zone: t.String({ description: 'Zona waktu IANA, mis. Asia/Jakarta' }),
})

export const cityListResponse = t.Object({ success: t.Literal(true), data: t.Array(cityListItem), pagination: paginationSchema })

export const cityDetailResponse = t.Object({
  success: t.Literal(true),
  city: t.Object({
    id: t.String(),
    name: t.String(),
    slug: t.String(),
    province: t.String(),
    country: t.String(),
    time_zone: t.String(),
  }),
})
