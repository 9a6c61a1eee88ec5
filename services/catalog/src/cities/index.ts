import { Elysia } from 'elysia'
import { cacheKey, COUNT_DEPS, errorResponse, pageRequest, pagination } from '@app/kit'
import type { CatalogContext } from '../deps'
import { slugParams } from '../events/model'
import { cityDetailResponse, cityListQuery, cityListResponse } from './model'
import { findCity, listCities } from './service'

export const cityRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.cities' })
    .get(
      '/api/cities',
      ({ query, request }) =>
        cache.respond(request, cacheKey('cities', query), async () => {
          const page = pageRequest(query, 20, 100)
          const { items, total } = await listCities(database, query, page)
          return { status: 200, body: { success: true, data: items, pagination: pagination(page, total) }, deps: COUNT_DEPS }
        }),
      {
        query: cityListQuery,
        response: { 200: cityListResponse },
        detail: { tags: ['Kota'], summary: 'Daftar kota (urut nama)' },
      },
    )
    .get(
      '/api/cities/:slug',
      ({ params, request }) =>
        cache.respond(request, cacheKey('city', params), async () => {
          const city = await findCity(database, params.slug)
          if (!city) return { status: 404, body: { success: false, error: 'Kota tidak ditemukan' }, deps: COUNT_DEPS }
          return { status: 200, body: { success: true, city }, deps: COUNT_DEPS }
        }),
      {
        params: slugParams,
        response: { 200: cityDetailResponse, 404: errorResponse },
        detail: { tags: ['Kota'], summary: 'Detail kota' },
      },
    )
