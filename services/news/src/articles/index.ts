import { Elysia } from 'elysia'
import { findSlugRedirect, nextArticlePublication } from '@app/db'
import { cacheKey, errorResponse, movedPermanently, NEWS_DEPS, pageRequest, pagination, slugMovedResponse } from '@app/kit'
import type { NewsContext } from '../deps'
import { articleDetailResponse, articleParams, newsListQuery, newsListResponse } from './model'
import { findPublicArticle, listArticles } from './service'

// answers are valid until a scheduled article becomes visible by itself
export const articleRoutes = ({ database, cache }: NewsContext) =>
  new Elysia({ name: 'news.articles' })
    .get(
      '/api/news',
      ({ query, request }) =>
        cache.respond(request, cacheKey('news', query), async () => {
          const page = pageRequest(query, 9, 50)
          const [{ items, total }, expiresAt] = await Promise.all([
            listArticles(database, query, page),
            nextArticlePublication(database),
          ])
          return { status: 200, body: { success: true, data: items, pagination: pagination(page, total, true) }, expiresAt, deps: NEWS_DEPS }
        }),
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
      async ({ params, request }) => {
        const response = await cache.respond(request, cacheKey('article', params), async () => {
          const [article, expiresAt] = await Promise.all([
            findPublicArticle(database, params.slug),
            nextArticlePublication(database),
          ])
          if (!article) return { status: 404, body: { success: false, error: 'Artikel tidak ditemukan' }, expiresAt, deps: NEWS_DEPS }
          return { status: 200, body: { success: true, article }, expiresAt, deps: NEWS_DEPS }
        })
        // an old slug of a renamed article: 301 to the current one
        if (response.status !== 404) return response
        const slug = await findSlugRedirect(database, 'news', params.slug)
        return slug ? movedPermanently(request, `/api/news/${slug}`, slug) : response
      },
      {
        params: articleParams,
        response: { 200: articleDetailResponse, 301: slugMovedResponse, 404: errorResponse },
        detail: {
          tags: ['Berita'],
          summary: 'Detail artikel (slug atau id); slug lama dijawab 301 ke slug baru',
          description: 'Artikel draft atau yang dijadwalkan terbit nanti dijawab 404, sama seperti slug yang tidak ada.',
        },
      },
    )
