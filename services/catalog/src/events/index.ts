import { Elysia, status } from 'elysia'
import { errorResponse, pagination, pageRequest } from '@app/kit'
import type { CatalogDeps } from '../deps'
import { eventDetailResponse, eventListQuery, eventListResponse, slugParams } from './model'
import { findPublishedEvent, listEvents } from './service'

export const eventRoutes = ({ database }: CatalogDeps) =>
  new Elysia({ name: 'catalog.events' })
    .get(
      '/api/events',
      async ({ query }) => {
        const page = pageRequest(query, 12, 100)
        const { items, total } = await listEvents(database, query, page)
        return { success: true as const, data: items, pagination: pagination(page, total, true) }
      },
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
      async ({ params }) => {
        const event = await findPublishedEvent(database, params.slug)
        if (!event) return status(404, { success: false as const, error: 'Event tidak ditemukan' })
        return { success: true as const, event }
      },
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
