import { Elysia } from 'elysia'
import { envelope } from '@app/kit'
import type { MediaDeps } from '../deps'
import { mediaBasePath } from '../media-url'
import { contentTypeOfKey, IMMUTABLE_CACHE_CONTROL, isValidKey } from '../storage'
import { variantQuery } from '../variants/model'
import { createVariantLimiter, ensureVariant, variantSpec, type VariantDeps } from '../variants/service'

export const FILE_NOT_FOUND = 'Berkas tidak ditemukan'

/**
 * The stored files at the path of PUBLIC_MEDIA_URL (`/media/uploads/...` by default), whatever
 * the driver: from disk, or streamed from the bucket. Only keys of the exact upload shape are
 * looked up, taken from the raw request path, so no dot segment or escape reaches the store.
 * With a query (w, h, fit, format, q, preset) the answer is a resized variant, made once and
 * then served from the store like the original.
 */
export const fileRoutes = (deps: MediaDeps) => {
  const base = mediaBasePath(deps.publicMediaUrl)
  const variants: VariantDeps = { storage: deps.storage, limiter: createVariantLimiter(), inFlight: new Map() }
  return new Elysia({ name: 'media.files' }).get(
    `${base}uploads/*`,
    async ({ request, query }) => {
      const url = new URL(request.url)
      const path = url.pathname
      const original = path.slice(base.length)
      if (!path.startsWith(base) || !isValidKey(original)) return envelope(404, FILE_NOT_FOUND)
      let key = original
      const headers: Record<string, string> = {
        'cache-control': IMMUTABLE_CACHE_CONTROL,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cross-origin-resource-policy': 'cross-origin',
      }
      if (url.search.length > 1) {
        const spec = variantSpec(query, url.searchParams, request.headers.get('accept'), original)
        const made = await ensureVariant(variants, original, spec)
        if (!made) return envelope(404, FILE_NOT_FOUND)
        key = made
        if (spec.negotiated) headers.vary = 'Accept'
      }
      const object = await deps.storage.get(key)
      if (!object) return envelope(404, FILE_NOT_FOUND)
      // from the key, which the upload (or the variant) chose; never from what a client sent
      headers['content-type'] = contentTypeOfKey(key)
      if (Number.isFinite(object.size)) headers['content-length'] = String(object.size)
      return new Response(object.body, { headers })
    },
    {
      query: variantQuery,
      detail: {
        tags: ['Media'],
        summary: 'Berkas hasil unggahan, asli atau dalam ukuran lain',
        description:
          'Tanpa query: berkas asli. Dengan w/h/fit/format/q/preset: varian yang diubah ukurannya (dibuat sekali, lalu disimpan dan dilayani dari penyimpanan). ' +
          'Ukuran hanya dari daftar yang diizinkan (lainnya 400); tanpa format, format dipilih dari header Accept (Vary: Accept). ' +
          'Content-Type sesuai jenis gambar, X-Content-Type-Options: nosniff, cache panjang (immutable). Gambar rusak atau terlalu besar: 422.',
        responses: {
          200: { description: 'Gambar', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
          404: { description: 'Berkas tidak ditemukan' },
          422: { description: 'Gambar rusak, atau kanvasnya melebihi 50 megapiksel' },
          503: { description: 'Penyimpanan tidak tersedia, atau terlalu banyak varian sedang dibuat' },
        },
      } as any,
    },
  )
}
