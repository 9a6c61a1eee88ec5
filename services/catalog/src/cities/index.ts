import { Elysia, status } from 'elysia'
import { errorResponse, pageRequest, pagination } from '@app/kit'
import type { CatalogDeps } from '../deps'
import { slugParams } from '../events/model'
import { cityDetailResponse, cityListQuery, cityListResponse } from './model'
import { findCity, listCities } from './service'

export const cityRoutes = ({ database }: CatalogDeps) =>
  new Elysia({ name: 'catalog.cities' })
    .get(
      '/api/cities',
      async ({ query }) => {
        const page = pageRequest(query, 20, 100)
        const { items, total } = await listCities(database, query, page)
        return { success: true as const, data: items, pagination: pagination(page, total) }
      },
      {
        query: cityListQuery,
        response: { 200: cityListResponse },
        detail: { tags: ['Kota'], summary: 'Daftar kota (urut nama)' },
      },
    )
    .get(
      '/api/cities/:slug',
      async ({ params }) => {
        const city = await findCity(database, params.slug)
        if (!city) return status(404, { success: false as const, error: 'Kota tidak ditemukan' })
        return { success: true as const, city }
      },
      {
        params: slugParams,
        response: { 200: cityDetailResponse, 404: errorResponse },
        detail: { tags: ['Kota'], summary: 'Detail kota' },
      },
    )
