import { Elysia } from 'elysia'
import type { CatalogDeps } from '../deps'
import { settingsResponse, statsResponse } from './model'
import { platformStats, publicSettings } from './service'

export const platformRoutes = ({ database }: CatalogDeps) =>
  new Elysia({ name: 'catalog.platform' })
    .get('/api/stats', async () => ({ success: true as const, stats: await platformStats(database) }), {
      response: { 200: statsResponse },
      detail: { tags: ['Platform'], summary: 'Statistik platform' },
    })
    .get('/api/settings', async () => ({ success: true as const, settings: await publicSettings(database) }), {
      response: { 200: settingsResponse },
      detail: { tags: ['Platform'], summary: 'Pengaturan publik situs' },
    })
