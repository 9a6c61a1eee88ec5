import { Elysia } from 'elysia'
import { clientAddress, errorResponse } from '@app/kit'
import type { MediaDeps } from '../deps'
import { uploadRequestBody, uploadResponse } from './model'
import { storeUpload } from './service'

/**
 * What the route's parse hook hands on instead of a parsed body: the body stays unread until
 * the handler has applied the rate limit, then it is read with a 24 MB cap (Elysia's own
 * multipart parser would buffer whatever arrives before anything could refuse it).
 */
const UNREAD = Object.freeze({ unread: true })

export const uploadRoutes = (deps: MediaDeps) =>
  new Elysia({ name: 'media.upload' }).post(
    '/api/upload',
    async ({ request, server, body }) => {
      await deps.rateLimiter.hit('upload', clientAddress(request, server, deps.trustedProxies), deps.uploadLimitPerMinute, 60)
      // a JSON body was already taken by the shared JSON parser: there is no file in it
      const url = await storeUpload(body === UNREAD ? request : new Request(request.url), deps)
      return { success: true as const, url, data: { url } }
    },
    {
      parse: () => UNREAD,
      response: { 200: uploadResponse, 400: errorResponse, 413: errorResponse, 429: errorResponse, 503: errorResponse },
      detail: {
        tags: ['Media'],
        summary: 'Unggah gambar',
        description:
          'multipart/form-data dengan satu bagian `file`: PNG, JPG/JPEG, atau WEBP (dikenali dari magic bytes, bukan nama atau tipe yang dikirim), maksimal 24 MB (413 di atasnya). Jawaban: URL publik berkas. Dibatasi per alamat klien per menit (429 dengan Retry-After).',
        requestBody: uploadRequestBody as any,
      },
    },
  )
