import { Elysia, status } from 'elysia'
import { awaitReplicas, clientAddress, errorResponse, HttpError } from '@app/kit'
import type { CatalogDeps } from '../deps'
import { submissionBody, submissionResponse } from './model'
import { SUBMITTED_MESSAGE, submitEvent } from './service'

const RATE_WINDOW_SECONDS = 3600

export const submissionRoutes = (deps: CatalogDeps) =>
  new Elysia({ name: 'catalog.submissions' }).post(
    '/api/events/submit',
    async ({ body }) => {
      const result = await submitEvent(deps.database, body)
      if (!result.ok) return status(400, { success: false as const, error: result.errors[0].message, details: result.errors })
      // every catalog replica counts it (stats) when this answer arrives
      await awaitReplicas(deps.database, undefined, result.version)
      return status(201, { success: true as const, message: SUBMITTED_MESSAGE, event: result.event })
    },
    {
      // JSON (at most 64 KB) is parsed by the base app; any other body is refused here
      parse: () => {
        throw new HttpError(415, 'Data harus dikirim sebagai JSON dengan header Content-Type: application/json')
      },
      // before the schema check, so that every attempt counts, invalid ones included
      transform: async ({ body, request, server }) => {
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw new HttpError(400, 'Data pengajuan harus berupa objek JSON', [
            { field: 'body', message: 'Data pengajuan harus berupa objek JSON' },
          ])
        await deps.rateLimiter.hit(
          'submit',
          clientAddress(request, server, deps.trustedProxies),
          deps.submitLimitPerHour,
          RATE_WINDOW_SECONDS,
        )
      },
      body: submissionBody,
      response: { 201: submissionResponse, 400: errorResponse, 413: errorResponse, 415: errorResponse, 429: errorResponse },
      detail: {
        tags: ['Event'],
        summary: 'Ajukan event baru (masuk antrean moderasi)',
        description:
          'Event disimpan berstatus pending dan baru tampil setelah disetujui admin. Setiap kesalahan validasi dijawab 400 ' +
          'dengan pesan berbahasa Indonesia dan daftar `details` per field. Body JSON maksimal 64 KB (413), ' +
          'jumlah pengajuan per alamat klien per jam dibatasi (429 dengan Retry-After).',
      },
    },
  )
