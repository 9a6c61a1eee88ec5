import { Elysia, status } from 'elysia'
import { awaitReplicas, errorResponse, HttpError, pageRequest } from '@app/kit'
import { adminGuard } from '../auth/guard'
import { etagOf, ifMatchRevision } from '../concurrency'
import type { AdminDeps } from '../deps'
import {
  articleListResponse,
  articleMessageResponse,
  articleResponse,
  deletedResponse,
  newsCreateBody,
  newsIdParams,
  newsListQuery,
  newsPatchBody,
  publishBody,
} from './model'
import {
  createArticle,
  deleteArticle,
  findAdminArticle,
  listAdminArticles,
  NOT_FOUND,
  publishArticle,
  unpublishArticle,
  updateArticle,
} from './service'

const jakartaTime = (iso: string) =>
  new Intl.DateTimeFormat('id-ID', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Jakarta' }).format(new Date(iso))

const writeErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  412: errorResponse,
  428: errorResponse,
}
const IF_MATCH = 'If-Match berisi ETag dari GET /api/admin/news/{id}: 412 bila artikel sudah diubah orang lain.'

/** News articles of every status: write, schedule, publish, unpublish, feature, delete. */
export const newsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin.news' })
    .use(adminGuard(deps))
    .get(
      '/api/admin/news',
      async ({ query }) => {
        const page = pageRequest(query, 50, 100)
        const { items, total } = await listAdminArticles(deps.database, query, page)
        return { success: true as const, articles: items, total, page: page.page, limit: page.limit }
      },
      {
        adminSession: true,
        query: newsListQuery,
        response: { 200: articleListResponse, 400: errorResponse, 401: errorResponse },
        detail: {
          tags: ['Admin'],
          summary: 'Daftar artikel semua status (draft, scheduled, published)',
          description: 'Terakhir diubah dulu.',
        },
      },
    )
    .post(
      '/api/admin/news',
      async ({ body, admin }) => {
        const article = await createArticle(deps.database, { adminId: admin.id, adminName: admin.name, body })
        return status(201, { success: true as const, message: 'Artikel dibuat sebagai draft', article })
      },
      {
        adminSession: true,
        body: newsCreateBody,
        response: { 201: articleMessageResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse },
        detail: {
          tags: ['Admin'],
          summary: 'Buat artikel (draft); slug dari judul bila kosong',
          description: 'Isi HTML disanitasi.',
        },
      },
    )
    .get(
      '/api/admin/news/:id',
      async ({ params, set }) => {
        const article = await findAdminArticle(deps.database, params.id)
        if (!article) throw new HttpError(404, NOT_FOUND)
        set.headers.etag = etagOf(article.revision)
        return { success: true as const, article }
      },
      {
        adminSession: true,
        params: newsIdParams,
        response: { 200: articleResponse, 401: errorResponse, 404: errorResponse },
        detail: { tags: ['Admin'], summary: 'Detail artikel (semua status) dengan ETag' },
      },
    )
    .patch(
      '/api/admin/news/:id',
      async ({ params, body, admin, request, set }) => {
        const { article, changed } = await updateArticle(deps.database, {
          id: params.id,
          adminId: admin.id,
          ifMatch: ifMatchRevision(request.headers, true),
          body,
        })
        if (changed) await awaitReplicas(deps.database)
        set.headers.etag = etagOf(article.revision)
        return { success: true as const, article }
      },
      {
        adminSession: true,
        params: newsIdParams,
        body: newsPatchBody,
        response: { 200: articleResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Ubah artikel (field yang dikirim saja), termasuk is_featured',
          description: `${IF_MATCH} If-Match wajib (428).`,
        },
      },
    )
    .delete(
      '/api/admin/news/:id',
      async ({ params, admin, request }) => {
        await deleteArticle(deps.database, { id: params.id, adminId: admin.id, ifMatch: ifMatchRevision(request.headers) })
        await awaitReplicas(deps.database)
        return { success: true as const, message: 'Artikel dihapus' }
      },
      {
        adminSession: true,
        params: newsIdParams,
        response: { 200: deletedResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Hapus artikel (permanen)', description: IF_MATCH },
      },
    )
    .post(
      '/api/admin/news/:id/publish',
      async ({ params, body, admin, request, set }) => {
        const at = body?.published_at ? new Date(body.published_at) : null
        if (at && Number.isNaN(at.getTime())) throw new HttpError(400, 'published_at bukan tanggal-waktu yang valid')
        const { article, changed } = await publishArticle(deps.database, {
          id: params.id,
          adminId: admin.id,
          ifMatch: ifMatchRevision(request.headers),
          at,
        })
        if (changed) await awaitReplicas(deps.database)
        set.headers.etag = etagOf(article.revision)
        const message =
          article.status === 'scheduled' ? `Artikel dijadwalkan terbit ${jakartaTime(article.published_at)} WIB` : 'Artikel diterbitkan'
        return { success: true as const, message, article }
      },
      {
        adminSession: true,
        params: newsIdParams,
        body: publishBody,
        response: { 200: articleMessageResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Terbitkan artikel sekarang, atau jadwalkan (published_at di masa depan)',
          description: `Body opsional {published_at}. Artikel terjadwal tampil untuk publik sendiri pada waktunya. ${IF_MATCH}`,
        },
      },
    )
    .post(
      '/api/admin/news/:id/unpublish',
      async ({ params, admin, request, set }) => {
        const { article } = await unpublishArticle(deps.database, {
          id: params.id,
          adminId: admin.id,
          ifMatch: ifMatchRevision(request.headers),
        })
        await awaitReplicas(deps.database)
        set.headers.etag = etagOf(article.revision)
        return { success: true as const, message: 'Artikel ditarik kembali menjadi draft', article }
      },
      {
        adminSession: true,
        params: newsIdParams,
        response: { 200: articleMessageResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Tarik artikel (kembali menjadi draft)', description: IF_MATCH },
      },
    )
