import { Elysia } from 'elysia'
import { awaitReplicas, errorResponse, pageRequest } from '@app/kit'
import { adminGuard } from '../auth/guard'
import type { AdminDeps } from '../deps'
import {
  ADMIN_LIST_DEFAULT_LIMIT,
  ADMIN_LIST_MAX_LIMIT,
  adminEventListQuery,
  adminEventListResponse,
  eventIdParams,
  moderationResponse,
  rejectBody,
} from './model'
import { listAdminEvents, moderateEvent } from './service'

const moderationErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse }

/** The moderation queue: every event of every status, approve and reject. */
export const moderationRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin.events' })
    .use(adminGuard(deps))
    .get(
      '/api/admin/events',
      async ({ query }) => {
        const page = pageRequest(query, ADMIN_LIST_DEFAULT_LIMIT, ADMIN_LIST_MAX_LIMIT)
        const { items, total } = await listAdminEvents(deps.database, query, page)
        return { success: true as const, events: items, total, page: page.page, limit: page.limit }
      },
      {
        adminSession: true,
        query: adminEventListQuery,
        response: { 200: adminEventListResponse, 400: errorResponse, 401: errorResponse },
        detail: {
          tags: ['Admin'],
          summary: 'Daftar event semua status (butuh sesi admin)',
          description: `Terbaru dulu (created_at menurun, lalu id). limit default ${ADMIN_LIST_DEFAULT_LIMIT}, maksimum ${ADMIN_LIST_MAX_LIMIT} (nilai di atasnya dipotong; \`limit\` di respons menunjukkan nilai yang dipakai).`,
        },
      },
    )
    .post(
      '/api/admin/events/:id/approve',
      async ({ params, admin }) => {
        const event = await moderateEvent(deps.database, { eventId: params.id, adminId: admin.id, action: 'approve' })
        // public at once on every catalog replica when this answer arrives
        await awaitReplicas(deps.database)
        return { success: true as const, message: 'Event berhasil disetujui dan sudah tampil untuk publik', event }
      },
      {
        adminSession: true,
        params: eventIdParams,
        response: { 200: moderationResponse, ...moderationErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Setujui event (pending, draft, atau rejected -> published)',
          description: 'Tanpa body. 404 bila id tidak ada, 409 bila event sudah terbit.',
        },
      },
    )
    .post(
      '/api/admin/events/:id/reject',
      async ({ params, body, admin }) => {
        const reason = body?.reason?.trim() || null
        const event = await moderateEvent(deps.database, { eventId: params.id, adminId: admin.id, action: 'reject', reason })
        await awaitReplicas(deps.database)
        return { success: true as const, message: 'Event ditolak', event }
      },
      {
        adminSession: true,
        params: eventIdParams,
        body: rejectBody,
        response: { 200: moderationResponse, ...moderationErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Tolak event (pending -> rejected)',
          description:
            'Body opsional `{reason}` (maksimal 1000 karakter), disimpan di log moderasi. 409 bila event tidak berstatus pending.',
        },
      },
    )
