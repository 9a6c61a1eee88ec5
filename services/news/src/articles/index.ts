import { Elysia, status } from 'elysia'
import { errorResponse, pageRequest, pagination } from '@app/kit'
import type { NewsDeps } from '../deps'
import { articleDetailResponse, articleParams, newsListQuery, newsListResponse } from './model'
import { findPublicArticle, listArticles } from './service'

export const articleRoutes = ({ database }: NewsDeps) =>
  new Elysia({ name: 'news.articles' })
    .get(
      '/api/news',
      async ({ query }) => {
        const page = pageRequest(query, 9, 50)
        const { items, total } = await listArticles(database, query, page)
        return { success: true as const, data: items, pagination: pagination(page, total, true) }
      },
      {
        query: newsListQuery,
        response: { 200: newsListResponse },
        detail: {
          tags: ['Berita'],
          summary: 'Daftar artikel berita terbit',
          description:
            'Hanya artikel berstatus published dengan published_at yang sudah lewat, terbaru dulu. ' +
            'limit default 9, maksimum 50 (nilai di atasnya dipotong ke 50).',
        },
      },
    )
    .get(
      '/api/news/:slug',
      async ({ params }) => {
        const article = await findPublicArticle(database, params.slug)
        if (!article) return status(404, { success: false as const, error: 'Artikel tidak ditemukan' })
        return { success: true as const, article }
      },
      {
        params: articleParams,
        response: { 200: articleDetailResponse, 404: errorResponse },
        detail: {
          tags: ['Berita'],
          summary: 'Detail artikel (slug atau id)',
          description: 'Artikel draft atau yang dijadwalkan terbit nanti dijawab 404, sama seperti slug yang tidak ada.',
        },
      },
    )
