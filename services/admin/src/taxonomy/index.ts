import { Elysia, status } from 'elysia'
import { awaitReplicas, errorResponse } from '@app/kit'
import { adminGuard } from '../auth/guard'
import type { AdminDeps } from '../deps'
import {
  categoryBody,
  categoryList,
  categoryResponse,
  cityBody,
  cityList,
  cityResponse,
  idParams,
  mergeBody,
  messageResponse,
  tagBody,
  tagList,
  tagResponse,
} from './model'
import { createTerm, deleteTerm, listCategories, listCities, listTags, mergeTags, updateTerm } from './service'

const writeErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse }
const IN_USE = '409 bila masih dipakai event (status apa pun).'

/** Categories, cities and tags. */
export const taxonomyRoutes = (deps: AdminDeps) => {
  const db = deps.database
  const done = async <T>(value: T) => {
    await awaitReplicas(db)
    return value
  }
  return new Elysia({ name: 'admin.taxonomy' })
    .use(adminGuard(deps))
    .get('/api/admin/categories', async () => ({ success: true as const, categories: await listCategories(db) }), {
      adminSession: true,
      response: { 200: categoryList, 401: errorResponse },
      detail: { tags: ['Admin'], summary: 'Semua kategori (aktif dan nonaktif) dengan jumlah event' },
    })
    .post(
      '/api/admin/categories',
      async ({ body, admin }) =>
        status(201, await done({ success: true as const, category: (await createTerm(db, 'category', admin.id, body)) as any })),
      {
        adminSession: true,
        body: categoryBody,
        response: { 201: categoryResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Buat kategori',
          description: 'name wajib; slug dari nama bila kosong (unik, 409 bila dipakai).',
        },
      },
    )
    .patch(
      '/api/admin/categories/:id',
      async ({ params, body, admin }) =>
        done({ success: true as const, category: (await updateTerm(db, 'category', admin.id, params.id, body)).result as any }),
      {
        adminSession: true,
        params: idParams,
        body: categoryBody,
        response: { 200: categoryResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Ubah kategori (termasuk is_active dan sort_order)' },
      },
    )
    .delete(
      '/api/admin/categories/:id',
      async ({ params, admin }) => {
        await deleteTerm(db, 'category', admin.id, params.id)
        return done({ success: true as const, message: 'Kategori dihapus' })
      },
      {
        adminSession: true,
        params: idParams,
        response: { 200: messageResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Hapus kategori', description: IN_USE },
      },
    )
    .get('/api/admin/cities', async () => ({ success: true as const, cities: await listCities(db) }), {
      adminSession: true,
      response: { 200: cityList, 401: errorResponse },
      detail: { tags: ['Admin'], summary: 'Semua kota dengan jumlah event' },
    })
    .post(
      '/api/admin/cities',
      async ({ body, admin }) =>
        status(201, await done({ success: true as const, city: (await createTerm(db, 'city', admin.id, body)) as any })),
      {
        adminSession: true,
        body: cityBody,
        response: { 201: cityResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Buat kota',
          description: 'name dan province wajib; time_zone zona waktu IANA (bawaan Asia/Jakarta), divalidasi.',
        },
      },
    )
    .patch(
      '/api/admin/cities/:id',
      async ({ params, body, admin }) =>
        done({ success: true as const, city: (await updateTerm(db, 'city', admin.id, params.id, body)).result as any }),
      {
        adminSession: true,
        params: idParams,
        body: cityBody,
        response: { 200: cityResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Ubah kota' },
      },
    )
    .delete(
      '/api/admin/cities/:id',
      async ({ params, admin }) => {
        await deleteTerm(db, 'city', admin.id, params.id)
        return done({ success: true as const, message: 'Kota dihapus' })
      },
      {
        adminSession: true,
        params: idParams,
        response: { 200: messageResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Hapus kota', description: IN_USE },
      },
    )
    .get('/api/admin/tags', async () => ({ success: true as const, tags: await listTags(db) }), {
      adminSession: true,
      response: { 200: tagList, 401: errorResponse },
      detail: { tags: ['Admin'], summary: 'Semua tag dengan jumlah event' },
    })
    .post(
      '/api/admin/tags',
      async ({ body, admin }) =>
        status(201, await done({ success: true as const, tag: (await createTerm(db, 'tag', admin.id, body)) as any })),
      {
        adminSession: true,
        body: tagBody,
        response: { 201: tagResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Buat tag', description: 'Nama unik tanpa membedakan huruf besar/kecil (409).' },
      },
    )
    .patch(
      '/api/admin/tags/:id',
      async ({ params, body, admin }) =>
        done({ success: true as const, tag: (await updateTerm(db, 'tag', admin.id, params.id, body)).result as any }),
      {
        adminSession: true,
        params: idParams,
        body: tagBody,
        response: { 200: tagResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Ubah (ganti nama) tag' },
      },
    )
    .delete(
      '/api/admin/tags/:id',
      async ({ params, admin }) => {
        await deleteTerm(db, 'tag', admin.id, params.id)
        return done({ success: true as const, message: 'Tag dihapus' })
      },
      {
        adminSession: true,
        params: idParams,
        response: { 200: messageResponse, ...writeErrors },
        detail: { tags: ['Admin'], summary: 'Hapus tag', description: `${IN_USE} Gabungkan dulu ke tag lain bila perlu.` },
      },
    )
    .post(
      '/api/admin/tags/:id/merge',
      async ({ params, body, admin }) =>
        done({ success: true as const, tag: await mergeTags(db, admin.id, params.id, body.into_id) }),
      {
        adminSession: true,
        params: idParams,
        body: mergeBody,
        response: { 200: tagResponse, ...writeErrors },
        detail: {
          tags: ['Admin'],
          summary: 'Gabungkan tag {id} ke tag into_id',
          description:
            'Setiap event bertag {id} mendapat tag into_id (tanpa duplikat), lalu tag {id} dihapus. Menjawab tag tujuan.',
        },
      },
    )
}
