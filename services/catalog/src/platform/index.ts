import { Elysia } from 'elysia'
import { cacheKey } from '@app/kit'
import type { CatalogContext } from '../deps'
import { settingsResponse, statsResponse } from './model'
import { platformStats, publicSettings } from './service'

export const platformRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.platform' })
    .get(
      '/api/stats',
      ({ request }) =>
        cache.respond(request, cacheKey('stats'), async () => ({
          status: 200,
          body: { success: true, stats: await platformStats(database) },
        })),
      {
        response: { 200: statsResponse },
        detail: { tags: ['Platform'], summary: 'Statistik platform' },
      },
    )
    .get(
      '/api/settings',
      ({ request }) =>
        cache.respond(request, cacheKey('settings'), async () => ({
          status: 200,
          body: { success: true, settings: await publicSettings(database) },
        })),
      {
        response: { 200: settingsResponse },
        detail: { tags: ['Platform'], summary: 'Pengaturan publik situs' },
      },
    )
