import { Elysia } from 'elysia'
import { nextArticlePublication } from '@app/db'
import { cacheKey } from '@app/kit'
import type { CatalogContext } from '../deps'
import { settingsResponse, statsResponse } from './model'
import { platformStats, publicSettings } from './service'

export const platformRoutes = ({ database, cache }: CatalogContext) =>
  new Elysia({ name: 'catalog.platform' })
    .get(
      '/api/stats',
      ({ request }) =>
        cache.respond(request, cacheKey('stats'), async () => {
          // total_news counts articles whose time has come: valid until the next one's
          const [stats, expiresAt] = await Promise.all([platformStats(database), nextArticlePublication(database)])
          return { status: 200, body: { success: true, stats }, expiresAt, deps: ['stats', 'counts', 'news'] }
        }),
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
          // settings change only through writes that drop everything
          deps: ['settings'],
        })),
      {
        response: { 200: settingsResponse },
        detail: { tags: ['Platform'], summary: 'Pengaturan publik situs' },
      },
    )
