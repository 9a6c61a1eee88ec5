import { Elysia, status } from 'elysia'
import { errorResponse, pageRequest, pagination } from '@app/kit'
import type { CatalogDeps } from '../deps'
import { slugParams } from '../events/model'
import { categoryDetailResponse, categoryListQuery, categoryListResponse } from './model'
import { findCategory, listCategories } from './service'

export const categoryRoutes = ({ database }: CatalogDeps) =>
  new Elysia({ name: 'catalog.categories' })
    .get(
      '/api/categories',
      async ({ query }) => {
        const page = pageRequest(query, 20, 100)
        const { items, total } = await listCategories(database, query, page)
        return { success: true as const, data: items, pagination: pagination(page, total) }
      },
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
      async ({ params }) => {
        const category = await findCategory(database, params.slug)
        if (!category) return status(404, { success: false as const, error: 'Kategori tidak ditemukan' })
        return { success: true as const, category }
      },
      {
        params: slugParams,
        response: { 200: categoryDetailResponse, 404: errorResponse },
        detail: { tags: ['Kategori'], summary: 'Detail kategori' },
      },
    )
