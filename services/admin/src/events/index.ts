import { Elysia } from 'elysia'
import { awaitReplicas, errorResponse, HttpError, pageRequest } from '@app/kit'
import { adminGuard } from '../auth/guard'
import type { AdminDeps } from '../deps'
import {
  ADMIN_LIST_DEFAULT_LIMIT,
  ADMIN_LIST_MAX_LIMIT,
  adminEventListQuery,
  adminEventListResponse,
  actionBody,
  adminEventResponse,
  eventActionResponse,
  eventIdParams,
  eventPatchBody,
  moderationResponse,
  rejectBody,
} from './model'
import { findAdminEvent, listAdminEvents, moderateEvent } from './service'
import { ACTION_MESSAGES, eventAction, NOT_FOUND, updateEvent, type EventAction } from './edit'
import { etagOf, ifMatchRevision } from '../concurrency'

const writeErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  412: errorResponse,
  428: errorResponse,
}

const IF_MATCH_NOTE =
  'Kirim If-Match berisi ETag dari GET /api/admin/events/{id}: 412 bila event sudah diubah orang lain sejak itu.'

const moderationErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse }

/** The moderation queue: every event of every status, approve and reject. */
export const moderationRoutes = (deps: AdminDeps) => {
  const act = async (action: EventAction, id: string, adminId: string, request: Request, reason: string | null) => {
    const event = await eventAction(deps.database, { id, adminId, action, reason, ifMatch: ifMatchRevision(request.headers) })
    await awaitReplicas(deps.database)
    return { success: true as const, message: ACTION_MESSAGES[action], event }
  }
  return new Elysia({ name: 'admin.events' })
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
    .get(
      '/api/admin/events/:id',
      async ({ params, set }) => {
        const event = await findAdminEvent(deps.database, params.id)
        if (!event) throw new HttpError(404, NOT_FOUND)
        set.headers.etag = etagOf(event.revision)
        return { success: true as const, event }
      },
      {
        adminSession: true,
        params: eventIdParams,
        response: { 200: adminEventResponse, 401: errorResponse, 404: errorResponse },
        detail: { tags: ['Admin'], summary: 'Detail event (semua field, semua status) dengan header ETag' },
      },
    )
    .patch(
      '/api/admin/events/:id',
      async ({ params, body, admin, request, set }) => {
        const result = await updateEvent(deps.database, {
          id: params.id,
          adminId: admin.id,
          ifMatch: ifMatchRevision(request.headers, true),
          patch: body,
        })
        if (result.changed) await awaitReplicas(deps.database)
        const event = (await findAdminEvent(deps.database, params.id))!
        set.headers.etag = etagOf(event.revision)
        return { success: true as const, event }
      },
      {
        adminSession: true,
        params: eventIdParams,
        body: eventPatchBody,
        response: { 200: adminEventResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Ubah event (field yang dikirim saja; aturan sama dengan pengajuan)',
          description: `${IF_MATCH_NOTE} If-Match wajib (428 bila tidak ada). Deskripsi disanitasi; tags (teks dipisah koma) menggantikan seluruh tag. 400 dengan details per field.`,
        },
      },
    )
    .delete('/api/admin/events/:id', async ({ params, admin, request }) => act('delete', params.id, admin.id, request, null), {
      adminSession: true,
      params: eventIdParams,
      response: { 200: eventActionResponse, ...writeErrors },
      detail: {
        tags: ['Admin'],
        summary: 'Hapus event (soft delete: ke tempat sampah, dapat dipulihkan)',
        description: IF_MATCH_NOTE,
      },
    })
    .post(
      '/api/admin/events/:id/feature',
      async ({ params, admin, request }) => act('feature', params.id, admin.id, request, null),
      {
        adminSession: true,
        params: eventIdParams,
        response: { 200: eventActionResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Jadikan event unggulan', description: IF_MATCH_NOTE },
      },
    )
    .post(
      '/api/admin/events/:id/unfeature',
      async ({ params, admin, request }) => act('unfeature', params.id, admin.id, request, null),
      {
        adminSession: true,
        params: eventIdParams,
        response: { 200: eventActionResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Hapus status unggulan event', description: IF_MATCH_NOTE },
      },
    )
    .post(
      '/api/admin/events/:id/cancel',
      async ({ params, admin, request, body }) => act('cancel', params.id, admin.id, request, body?.reason?.trim() || null),
      {
        adminSession: true,
        params: eventIdParams,
        body: actionBody,
        response: { 200: eventActionResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Batalkan event (tetap tampil untuk publik, ditandai dibatalkan)',
          description: `Body opsional {reason}. ${IF_MATCH_NOTE}`,
        },
      },
    )
    .post(
      '/api/admin/events/:id/restore',
      async ({ params, admin, request }) => act('restore', params.id, admin.id, request, null),
      {
        adminSession: true,
        params: eventIdParams,
        response: { 200: eventActionResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Pulihkan event dari tempat sampah (ke status sebelumnya), atau batalkan pembatalannya',
          description: IF_MATCH_NOTE,
        },
      },
    )
}
