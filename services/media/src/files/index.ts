import { Elysia } from 'elysia'
import { envelope } from '@app/kit'
import type { MediaDeps } from '../deps'
import { mediaBasePath } from '../media-url'
import { contentTypeOfKey, IMMUTABLE_CACHE_CONTROL, isValidKey } from '../storage'

export const FILE_NOT_FOUND = 'Berkas tidak ditemukan'

/**
 * The stored files at the path of PUBLIC_MEDIA_URL (`/media/uploads/...` by default), whatever
 * the driver: from disk, or streamed from the bucket. Only keys of the exact upload shape are
 * looked up, taken from the raw request path, so no dot segment or escape reaches the store.
 */
export const fileRoutes = (deps: MediaDeps) => {
  const base = mediaBasePath(deps.publicMediaUrl)
  return new Elysia({ name: 'media.files' }).get(
    `${base}uploads/*`,
    async ({ request }) => {
      const path = new URL(request.url).pathname
      const key = path.slice(base.length)
      if (!path.startsWith(base) || !isValidKey(key)) return envelope(404, FILE_NOT_FOUND)
      const object = await deps.storage.get(key)
      if (!object) return envelope(404, FILE_NOT_FOUND)
      const headers: Record<string, string> = {
        // from the key, which the upload chose from the magic bytes; never from what a client sent
        'content-type': contentTypeOfKey(key),
        'cache-control': IMMUTABLE_CACHE_CONTROL,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cross-origin-resource-policy': 'cross-origin',
      }
      if (Number.isFinite(object.size)) headers['content-length'] = String(object.size)
      return new Response(object.body, { headers })
    },
    {
      detail: {
        tags: ['Media'],
        summary: 'Berkas hasil unggahan',
        description:
          'Melayani berkas di path PUBLIC_MEDIA_URL dengan Content-Type sesuai jenis gambar, X-Content-Type-Options: nosniff, dan cache panjang (immutable).',
      },
    },
  )
}
