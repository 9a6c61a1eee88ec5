import { t } from 'elysia'
import { MAX_QUERY_LENGTH } from '@app/db'
import { oneOf, pageQuery, paginationWithLinksSchema } from '@app/kit'

export const newsListQuery = t.Object({
  ...pageQuery,
  q: t.Optional(
    t.String({
      maxLength: MAX_QUERY_LENGTH,
      error: `q maksimal ${MAX_QUERY_LENGTH} karakter`,
      description: 'Cari di judul dan isi artikel',
    }),
  ),
  kategori: t.Optional(
    t.String({
      maxLength: 100,
      error: 'kategori maksimal 100 karakter',
      description: 'Label kategori artikel (Tips, Liputan, Review, ...), tanpa membedakan huruf besar/kecil',
    }),
  ),
  featured: t.Optional(
    oneOf(['0', '1'], { error: 'featured harus 0 atau 1', description: '1 = pilihan redaksi saja, 0 = selain pilihan redaksi' }),
  ),
})
export type NewsListQuery = typeof newsListQuery.static

const publishedAt = t.String({ format: 'date-time', description: 'ISO 8601 UTC', examples: ['2026-11-20T08:00:00.000Z'] })

export const articleListItem = t.Object({
  id: t.String(),
  title: t.String(),
  slug: t.String(),
  excerpt: t.String(),
  cover_url: t.String(),
  category: t.String({ description: 'Label kategori artikel' }),
  author_name: t.String(),
  published_at: publishedAt,
})

export const newsListResponse = t.Object({
  success: t.Literal(true),
  data: t.Array(articleListItem),
  pagination: paginationWithLinksSchema,
})

export const articleDetailResponse = t.Object({
  success: t.Literal(true),
  article: t.Object({
    id: t.String(),
    title: t.String(),
    slug: t.String(),
    excerpt: t.String(),
    content: t.String({ description: 'HTML' }),
    cover_url: t.String(),
    category: t.String(),
    author_name: t.String(),
    published_at: publishedAt,
  }),
})

export const articleParams = t.Object({ slug: t.String({ maxLength: 200, error: 'slug tidak valid' }) })
