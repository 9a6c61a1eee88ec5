import { Elysia } from 'elysia'
import { awaitReplicas, errorResponse, HttpError } from '@app/kit'
import { adminGuard } from '../auth/guard'
import type { AdminDeps } from '../deps'
import { SETTING_KEYS, settingsPatchBody, settingsResponse } from './model'
import { readSettings, updateSettings } from './service'

const unknownKeys = new WeakMap<Request, string[]>()

export const settingsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin.settings' })
    .use(adminGuard(deps))
    .get('/api/admin/settings', async () => ({ success: true as const, settings: await readSettings(deps.database) }), {
      adminSession: true,
      response: { 200: settingsResponse, 401: errorResponse },
      detail: { tags: ['Admin'], summary: 'Pengaturan situs', description: `Kunci: ${SETTING_KEYS.join(', ')}.` },
    })
    .patch(
      '/api/admin/settings',
      async ({ body, admin, request }) => {
        const unknown = unknownKeys.get(request)
        if (unknown) {
          const message = `Kunci pengaturan tidak dikenal: ${unknown.join(', ')} (yang dikenal: ${SETTING_KEYS.join(', ')})`
          throw new HttpError(
            400,
            message,
            unknown.map((field) => ({ field, message })),
          )
        }
        const result = await updateSettings(deps.database, admin.id, body)
        if (result.changed) await awaitReplicas(deps.database)
        return { success: true as const, settings: result.settings }
      },
      {
        adminSession: true,
        // Elysia drops unknown keys while validating: note them first (refused in the handler,
        // after the session check), a typo must not pass silently
        transform({ body, request }) {
          if (body && typeof body === 'object' && !Array.isArray(body)) {
            const unknown = Object.keys(body).filter((k) => !(SETTING_KEYS as readonly string[]).includes(k))
            if (unknown.length) unknownKeys.set(request, unknown)
          }
        },
        body: settingsPatchBody,
        response: { 200: settingsResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse },
        detail: {
          tags: ['Admin'],
          summary: 'Ubah pengaturan situs (kunci yang dikirim saja)',
          description:
            'Kunci tak dikenal: 400. URL harus http(s), email dan nomor telepon divalidasi. Publik melihatnya di GET /api/settings.',
        },
      },
    )
