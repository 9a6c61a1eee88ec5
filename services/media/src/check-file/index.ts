import { Elysia } from 'elysia'
import { clientAddress, errorResponse } from '@app/kit'
import type { MediaDeps } from '../deps'
import { checkFileQuery, checkFileResponse } from './model'
import { checkFile } from './service'

export const checkFileRoutes = (deps: MediaDeps) =>
  new Elysia({ name: 'media.check-file' }).get(
    '/api/check-file',
    async ({ query, request, server }) => {
      await deps.rateLimiter.hit(
        'check-file',
        clientAddress(request, server, deps.trustedProxies),
        deps.checkFileLimitPerMinute,
        60,
      )
      return checkFile(query.url, deps)
    },
    {
      query: checkFileQuery,
      response: { 200: checkFileResponse, 400: errorResponse, 429: errorResponse, 503: errorResponse },
      detail: {
        tags: ['Media'],
        summary: 'Cek ketersediaan berkas',
        description:
          'Tidak pernah mengambil URL yang diberikan: URL di bawah PUBLIC_MEDIA_URL diubah kembali menjadi kunci penyimpanan lalu dicek. URL lain (host lain, userinfo, `..`, skema selain http/https) dijawab 400. Dibatasi per alamat klien per menit.',
      },
    },
  )
