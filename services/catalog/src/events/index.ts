import { Elysia } from 'elysia'
import { cacheKey, errorResponse, pagination, pageRequest } from '@app/kit'
import type { CatalogContext } from '../deps'
import { eventDetailResponse, eventListQuery, eventListResponse, slugParams } from './model'
import { findPublishedEvent, listEvents } from './service'

export const eventRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.events' })
    .get(
      '/api/events',
      ({ query, request }) =>
        cache.respond(request, cacheKey('events', query), async () => {
          const page = pageRequest(query, 12, 100)
          const { items, total } = await listEvents(database, query, page)
          return { status: 200, body: { success: true, data: items, pagination: pagination(page, total, true) } }
        }),
      {
        query: eventListQuery,
        response: { 200: eventListResponse },
        detail: {
          tags: ['Event'],
          summary: 'Daftar event terbit',
          description: 'Hanya event berstatus published. limit default 12, maksimum 100 (nilai di atasnya dipotong ke 100).',
        },
      },
    )
    .get(
      '/api/events/:slug',
      ({ params, request }) =>
        cache.respond(request, cacheKey('event', params), async () => {
          const event = await findPublishedEvent(database, params.slug)
          if (!event) return { status: 404, body: { success: false, error: 'Event tidak ditemukan' } }
          return { status: 200, body: { success: true, event } }
        }),
      {
        params: slugParams,
        response: { 200: eventDetailResponse, 404: errorResponse },
        detail: {
          tags: ['Event'],
          summary: 'Detail event (slug atau id)',
          description: 'Event yang belum terbit dijawab 404, sama seperti slug yang tidak ada.',
        },
      },
    )
