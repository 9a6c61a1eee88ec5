import { Elysia } from 'elysia'
import { cacheKey, COUNT_DEPS, errorResponse, pageRequest, pagination } from '@app/kit'
import type { CatalogContext } from '../deps'
import { slugParams } from '../events/model'
import { categoryDetailResponse, categoryListQuery, categoryListResponse } from './model'
import { findCategory, listCategories } from './service'

export const categoryRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.categories' })
    .get(
      '/api/categories',
      ({ query, request }) =>
        cache.respond(request, cacheKey('categories', query), async () => {
          const page = pageRequest(query, 20, 100)
          const { items, total } = await listCategories(database, query, page)
          return { status: 200, body: { success: true, data: items, pagination: pagination(page, total) }, deps: COUNT_DEPS }
        }),
      {
        query: categoryListQuery,
        response: { 200: categoryListResponse },
        detail: {
          tags: ['Kategori'],
          summary: 'Daftar kategori',
          description: 'Urut sort_order lalu nama. active_only=0 menyertakan kategori nonaktif.',
        },
      },
    )
    .get(
      '/api/categories/:slug',
      ({ params, request }) =>
        cache.respond(request, cacheKey('category', params), async () => {
          const category = await findCategory(database, params.slug)
          if (!category) return { status: 404, body: { success: false, error: 'Kategori tidak ditemukan' }, deps: COUNT_DEPS }
          return { status: 200, body: { success: true, category }, deps: COUNT_DEPS }
        }),
      {
        params: slugParams,
        response: { 200: categoryDetailResponse, 404: errorResponse },
        detail: { tags: ['Kategori'], summary: 'Detail kategori' },
      },
    )
