import { Elysia } from 'elysia'
import { cacheKey, COUNT_DEPS, pageRequest, pagination } from '@app/kit'
import type { CatalogContext } from '../deps'
import { tagListQuery, tagListResponse } from './model'
import { listTags } from './service'

export const tagRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.tags' }).get(
    '/api/tags',
    ({ query, request }) =>
      cache.respond(request, cacheKey('tags', query), async () => {
        const page = pageRequest(query, 30, 100)
        const { items, total } = await listTags(database, query, page)
        return { status: 200, body: { success: true, data: items, pagination: pagination(page, total) }, deps: COUNT_DEPS }
      }),
    {
      query: tagListQuery,
      response: { 200: tagListResponse },
      detail: {
        tags: ['Tag'],
        summary: 'Daftar tag yang dipakai event terbit',
        description: 'Urut event_count menurun, lalu nama.',
      },
    },
  )
