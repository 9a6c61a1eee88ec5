import { Elysia } from 'elysia'
import { pageRequest, pagination } from '@app/kit'
import type { CatalogDeps } from '../deps'
import { tagListQuery, tagListResponse } from './model'
import { listTags } from './service'

export const tagRoutes = ({ database }: CatalogDeps) =>
  new Elysia({ name: 'catalog.tags' }).get(
    '/api/tags',
    async ({ query }) => {
      const page = pageRequest(query, 30, 100)
      const { items, total } = await listTags(database, query, page)
      return { success: true as const, data: items, pagination: pagination(page, total) }
    },
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
