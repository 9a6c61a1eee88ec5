import { t } from 'elysia'
import { MAX_QUERY_LENGTH } from '@app/db'
import { oneOf, pageQuery } from '@app/kit'

export const NEWS_STATES = ['draft', 'scheduled', 'published'] as const

export const newsListQuery = t.Object({
  ...pageQuery,
  status: t.Optional(
    oneOf(['all', ...NEWS_STATES], {
      error: 'status harus salah satu dari all, draft, scheduled, published',
      description: 'scheduled = terbit dengan published_at di masa depan',
    }),
  ),
  q: t.Optional(t.String({ maxLength: MAX_QUERY_LENGTH, error: `q maksimal ${MAX_QUERY_LENGTH} karakter` })),
})

const str = (error: string, description: string, maxLength: number) =>
  t.Optional(t.Union([t.String({ maxLength }), t.Null()], { error, description }))

const fields = {
  title: str('Judul harus berupa teks, maksimal 200 karakter', 'Wajib saat membuat, 3 sampai 200 karakter', 200),
  slug: str(
    'Slug harus berupa teks, maksimal 200 karakter',
    'Opsional: dari judul bila kosong; unik. Slug lama dijawab 301.',
    200,
  ),
  excerpt: str('Ringkasan (excerpt) harus berupa teks, maksimal 500 karakter', 'Teks biasa, maksimal 500 karakter', 500),
  content: str('Isi (content) harus berupa teks, maksimal 100000 karakter', 'HTML, disanitasi seperti deskripsi event', 100_000),
  cover_url: str('URL sampul (cover_url) harus berupa teks', 'URL http(s), mis. dari POST /api/upload', 2000),
  category: str('Kategori berita harus berupa teks, maksimal 60 karakter', 'Wajib saat membuat, mis. Tips, Liputan', 60),
  author_name: str('Nama penulis harus berupa teks, maksimal 100 karakter', 'Bawaan: nama admin yang membuat', 100),
  is_featured: t.Optional(t.Boolean({ error: 'is_featured harus true atau false' })),
}

export const newsCreateBody = t.Object(fields, { error: 'Data artikel harus berupa objek JSON' })
export const newsPatchBody = t.Object(fields, { error: 'Data artikel harus berupa objek JSON' })
export type NewsFields = typeof newsCreateBody.static

export const publishBody = t.Optional(
  t.Object({
    published_at: t.Optional(
      t.Union([t.String({ format: 'date-time' }), t.Null()], {
        error: 'published_at harus tanggal-waktu ISO 8601 dengan zona, mis. 2026-12-01T09:00:00+07:00',
        description: 'Kosong = terbit sekarang; di masa depan = dijadwalkan',
      }),
    ),
  }),
)

export const newsIdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100, error: 'id tidak valid' }) })

export const adminArticle = t.Object({
  id: t.String(),
  title: t.String(),
  slug: t.String(),
  excerpt: t.String(),
  content: t.String({ description: 'HTML yang sudah disanitasi' }),
  cover_url: t.String(),
  category: t.String(),
  author_name: t.String(),
  is_featured: t.Boolean(),
  status: oneOf([...NEWS_STATES]),
  published_at: t.String(),
  created_at: t.String(),
  updated_at: t.String(),
  revision: t.Integer(),
})

export const articleResponse = t.Object({ success: t.Literal(true), article: adminArticle })
export const articleMessageResponse = t.Object({ success: t.Literal(true), message: t.String(), article: adminArticle })
export const articleListResponse = t.Object({
  success: t.Literal(true),
  articles: t.Array(adminArticle),
  total: t.Integer(),
  page: t.Integer(),
  limit: t.Integer(),
})
export const deletedResponse = t.Object({ success: t.Literal(true), message: t.String() })
