import { Elysia } from 'elysia'
import { cacheKey } from '@app/kit'
import type { CatalogContext } from '../deps'
import { suggestQuery, suggestResponse } from './model'
import { suggest } from './service'

export const searchRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.search' }).get(
    '/api/search/suggest',
    ({ query, request }) =>
      cache.respond(request, cacheKey('suggest', { q: query.q }), async () => ({
        status: 200,
        body: { success: true, data: await suggest(database, query.q) },
        // titles of published events and names: any public change of events or names
        deps: ['list:all', 'counts'],
      })),
    {
      query: suggestQuery,
      response: { 200: suggestResponse },
      detail: {
        tags: ['Event'],
        summary: 'Saran pencarian saat mengetik',
        description:
          'Paling banyak 10 saran: kategori, kota, dan tag yang namanya berawalan q (atau salah satu katanya), lalu judul event ' +
          'terbit (yang belum selesai dulu). Sejak huruf pertama.',
      },
    },
  )
