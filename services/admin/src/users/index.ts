import { Elysia, status } from 'elysia'
import { errorResponse } from '@app/kit'
import { adminGuard } from '../auth/guard'
import type { AdminDeps } from '../deps'
import { changeOwnPassword, createUser, listUsers, requireOwner, updateUser } from './manage'
import {
  messageResponse,
  passwordChangeBody,
  userCreateBody,
  userIdParams,
  userListResponse,
  userPatchBody,
  userResponse,
} from './model'

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse }

/** Admin users (owner only) and the own password. */
export const userRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin.users' })
    .use(adminGuard(deps))
    .get(
      '/api/admin/users',
      async ({ admin }) => {
        requireOwner(admin)
        return { success: true as const, users: await listUsers(deps.database) }
      },
      {
        adminSession: true,
        response: { 200: userListResponse, 401: errorResponse, 403: errorResponse },
        detail: { tags: ['Admin'], summary: 'Daftar pengguna admin (owner saja)' },
      },
    )
    .post(
      '/api/admin/users',
      async ({ admin, body }) => status(201, { success: true as const, user: await createUser(deps.database, admin, body) }),
      {
        adminSession: true,
        body: userCreateBody,
        response: { 201: userResponse, ...errors },
        detail: {
          tags: ['Admin'],
          summary: 'Buat pengguna (owner saja); role bawaan editor',
          description: 'Password minimal 12 karakter. 409 bila username dipakai.',
        },
      },
    )
    .patch(
      '/api/admin/users/:id',
      async ({ admin, params, body }) => ({
        success: true as const,
        user: await updateUser(deps.database, admin, params.id, body),
      }),
      {
        adminSession: true,
        params: userIdParams,
        body: userPatchBody,
        response: { 200: userResponse, ...errors },
        detail: {
          tags: ['Admin'],
          summary: 'Ubah pengguna (owner saja): nama, role, nonaktifkan, reset password',
          description:
            'disabled: true atau password baru mengakhiri semua sesi pengguna itu seketika. Owner tidak dapat menonaktifkan atau menurunkan dirinya sendiri (409).',
        },
      },
    )
    .post(
      '/api/admin/me/password',
      async ({ admin, session, body }) => {
        await changeOwnPassword(deps.database, admin, session.sessionId, body)
        return { success: true as const, message: 'Password diganti; sesi Anda di perangkat lain diakhiri' }
      },
      {
        adminSession: true,
        body: passwordChangeBody,
        response: { 200: messageResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse },
        detail: { tags: ['Admin'], summary: 'Ganti password sendiri (password lama wajib)' },
      },
    )
