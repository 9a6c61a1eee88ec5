import { Elysia } from 'elysia'
import { errorResponse, HttpError, pageRequest } from '@app/kit'
import { adminGuard } from '../auth/guard'
import type { AdminDeps } from '../deps'
import { auditListResponse, auditQuery } from './model'
import { listAudit } from './service'

export const auditRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin.audit' }).use(adminGuard(deps)).get(
    '/api/admin/audit',
    async ({ query }) => {
      for (const field of ['from', 'to'] as const)
        if (query[field] && Number.isNaN(new Date(query[field]!).getTime()))
          throw new HttpError(400, `${field} bukan tanggal yang valid`, [{ field, message: `${field} bukan tanggal yang valid` }])
      const page = pageRequest(query, 50, 100)
      const { items, total } = await listAudit(deps.database, query, page)
      return { success: true as const, entries: items, total, page: page.page, limit: page.limit }
    },
    {
      adminSession: true,
      query: auditQuery,
      response: { 200: auditListResponse, 400: errorResponse, 401: errorResponse },
      detail: {
        tags: ['Admin'],
        summary: 'Log audit: setiap perubahan lewat admin (siapa, apa, kapan, sebelum/sesudah)',
        description: 'Terbaru dulu. Filter: admin_id, entity (+ entity_id), from (inklusif) dan to (eksklusif), ISO 8601.',
      },
    },
  )
