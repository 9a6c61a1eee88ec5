import { brotliCompressSync, constants } from 'node:zlib'
import { Elysia } from 'elysia'

/**
 * Response compression by Accept-Encoding (br, zstd, gzip), the same with or without the
 * gateway: Caddy 2.6 has no brotli encoder, so the services compress and Caddy passes an
 * already-encoded answer through (its `encode` only covers what a service left plain).
 */
export type Encoding = 'br' | 'zstd' | 'gzip'

/** Below this an answer is sent as is: the headers would outweigh the saving. */
export const COMPRESSION_MIN_BYTES = 1024
// Tie-break when the client likes several equally (browsers send `gzip, deflate, br, zstd`):
// gzip first, the form the response cache keeps for every entry, so a hit sends stored bytes
// and a miss compresses once. br saved 8% of a detail's bytes (1,508 against 1,639) for 3-30x
// gzip's CPU on the service's one thread and a second stored form per entry; with br first the
// bench's browser mix (mix-clients) ran at 667-694 rps against 2,286-2,480 for plain clients
// (bench/results/ab-2026-11-27-accept-encoding.md).
const PREFERENCE: Encoding[] = ['gzip', 'zstd', 'br']
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|problem\+json|vnd\.oai\.openapi)|image\/svg\+xml)/i

/** The encoding to use for `acceptEncoding` (q-values honoured; `identity` or nothing: none). */
export function negotiateEncoding(acceptEncoding: string | null): Encoding | undefined {
  if (!acceptEncoding) return undefined
  const q = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (!name) continue
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const value = qParam ? Number(qParam.slice(2)) : 1
    q.set(name.trim(), Number.isFinite(value) ? value : 0)
  }
  let best: Encoding | undefined
  let bestQ = 0
  for (const encoding of PREFERENCE) {
    const value = q.get(encoding) ?? q.get('*') ?? 0
    if (value > bestQ) {
      best = encoding
      bestQ = value
    }
  }
  return best
}

/**
 * brotli's window for an answer of `bytes`: no larger than the answer needs. Its default (4 MiB)
 * sizes the encoder's state, which an allocator returning freed pages at once (MIMALLOC_PURGE_DELAY=0,
 * the images' setting until the twenty-sixth round) gives back after every call and faults in
 * again: 2.8 ms for a 4.4 KB detail at quality 5, 80 us with 64 KiB.
 */
const brotliWindowBits = (bytes: number) => Math.min(22, Math.max(16, Math.ceil(Math.log2(bytes))))

/** Compresses with levels fit for answers made per request (fast, most of the ratio). */
export function compress(encoding: Encoding, data: Uint8Array | string): Uint8Array {
  const input = typeof data === 'string' ? Buffer.from(data) : data
  switch (encoding) {
    case 'br':
      return brotliCompressSync(input, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(input.byteLength),
          [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
        },
      })
    case 'zstd':
      // level 1: level 3 took 1.5-1.8 ms for a 31-67 KB list (its larger tables faulted in per
      // call, as brotli's window above) against 0.1 ms, for 2-4% fewer bytes
      return Bun.zstdCompressSync(input, { level: 1 })
    case 'gzip':
      // Bun's own binding: node:zlib's keeps a stream per call until the GC finalises it, native
      // memory the GC does not see (RSS grew by hundreds of MB under miss-heavy load). libdeflate
      // level 1, since every cache miss compresses once: per 4.6 KB detail answer with
      // MIMALLOC_PURGE_DELAY=0, zlib 6 55 us, libdeflate 6 117 us (its larger state is
      // returned to the system and faulted in again on every call), libdeflate 1 29 us; bytes +2%
      // on a detail (ratio 0.313 vs 0.306), +11% on a 100-card list (0.225 vs 0.203)
      return Bun.gzipSync(input as Uint8Array<ArrayBuffer>, { level: 1, library: 'libdeflate' })
  }
}

/** A gzip body back to its bytes (libdeflate: ~40% faster than zlib on API answers). */
export function gunzip(data: Uint8Array): Uint8Array {
  return Bun.gunzipSync(data as Uint8Array<ArrayBuffer>, { library: 'libdeflate' })
}

export function isCompressible(contentType: string | null): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType) && !/^image\/(?!svg)/i.test(contentType)
}

/** Adds `Accept-Encoding` to a Vary header value, keeping what is there. */
export function varyWith(current: string | null, name: string): string {
  if (!current) return name
  const names = current.split(',').map((s) => s.trim().toLowerCase())
  return names.includes(name.toLowerCase()) || names.includes('*') ? current : `${current}, ${name}`
}

/**
 * Compresses `response` for `request` when worth it: a compressible type, at least
 * COMPRESSION_MIN_BYTES, not already encoded, not a range or a 204/304. Streams and files are
 * read whole only when they declare a length below 8 MB (API answers are small).
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  if (request.method === 'HEAD' || response.status === 204 || response.status === 304 || response.status === 206) return response
  if (!response.body || response.headers.has('content-encoding')) return response
  // its producer already chose the encoding for this request (the response cache sends each
  // entry's stored form): wrapping it again would only cost a Headers copy and a new Response
  if (/accept-encoding/i.test(response.headers.get('vary') ?? '')) return response
  const type = response.headers.get('content-type')
  if (!isCompressible(type)) return response
  const declared = response.headers.get('content-length')
  if (declared !== null && (Number(declared) < COMPRESSION_MIN_BYTES || Number(declared) > 8 * 1024 * 1024)) return response
  const headers = new Headers(response.headers)
  headers.set('vary', varyWith(headers.get('vary'), 'Accept-Encoding'))
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'))
  if (!encoding) return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  const body = new Uint8Array(await response.arrayBuffer())
  if (body.byteLength < COMPRESSION_MIN_BYTES)
    return new Response(body, { status: response.status, statusText: response.statusText, headers })
  headers.set('content-encoding', encoding)
  headers.delete('content-length')
  // a weak validator stays valid across encodings; a strong one must differ per encoding
  const etag = headers.get('etag')
  if (etag && !etag.startsWith('W/')) headers.set('etag', `${etag.slice(0, -1)}-${encoding}"`)
  return new Response(compress(encoding, body), { status: response.status, statusText: response.statusText, headers })
}

/**
 * The kit plugin: every answer a route returns (a JSON value or a Response) is compressed on its
 * way out when worth it. Error envelopes are small and go out plain. Also merges a `Vary` set
 * by another plugin (CORS: `Origin`) with one the route's Response carries.
 */
export const compression = () =>
  new Elysia({ name: 'kit.compression' }).mapResponse({ as: 'global' }, async ({ responseValue, request, set }) => {
    let response: Response
    if (responseValue instanceof Response) response = responseValue
    else if (responseValue !== null && typeof responseValue === 'object' && !(responseValue instanceof Blob))
      response = new Response(JSON.stringify(responseValue), {
        status: typeof set.status === 'number' ? set.status : 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      })
    else return
    const compressed = await compressResponse(request, response)
    // Elysia keeps a Response's own Vary over the one in `set`: merge them here
    const vary = set.headers.vary
    if (typeof vary === 'string' && compressed.headers.has('vary')) {
      let merged = compressed.headers.get('vary')
      for (const name of vary.split(',')) merged = varyWith(merged, name.trim())
      compressed.headers.set('vary', merged!)
      set.headers.vary = merged!
    }
    return compressed
  })
