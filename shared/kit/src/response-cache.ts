import { sql } from 'drizzle-orm'
import type { Database } from '@app/db'
import { compress, COMPRESSION_MIN_BYTES, negotiateEncoding, type Encoding } from './compression'

/**
 * The current version of the public data (bumped by database triggers on every write).
 *
 * Exactness: a request must see a version read *after* it arrived (and so after any write
 * whose response its client already has). Concurrent requests share one query when that
 * query was sent after they arrived, so under load one tiny query serves many requests.
 */
export interface VersionSource {
  current(arrivedAt?: number): Promise<number>
  close?(): Promise<void>
}

export function createVersionSource(database: Database, scope = 'public'): VersionSource {
  let latest: { sentAt: number; promise: Promise<number> } | undefined
  const query = async () => {
    const [row] = await database.rows<{ version: string | number }>(sql`select version from data_versions where scope = ${scope}`)
    return Number(row?.version ?? 0)
  }
  return {
    current(arrivedAt = performance.now()) {
      if (latest && latest.sentAt >= arrivedAt) return latest.promise
      const entry = { sentAt: performance.now(), promise: query() }
      latest = entry
      entry.promise.catch(() => {
        if (latest === entry) latest = undefined
      })
      return entry.promise
    },
  }
}

export interface CachedBody {
  status: number
  body: unknown
  /**
   * When the answer changes by itself, without a write (an article scheduled to appear at a
   * given time): the entry is not used from that moment (epoch ms).
   */
  expiresAt?: number | null
}

interface Entry {
  status: number
  json: string
  etag: string
  expiresAt: number
  /** Compressed forms, made on first request for each encoding (counted in the byte budget). */
  encoded?: Partial<Record<Encoding, Uint8Array>>
}

function entryBytes(entry: Entry): number {
  let n = entry.json.length
  for (const body of Object.values(entry.encoded ?? {})) n += body.byteLength
  return n
}

export interface ResponseCacheOptions {
  versions: VersionSource
  /** Bounds on what one process keeps (responses are small: a list page is a few KB). */
  maxEntries?: number
  maxBytes?: number
}

export interface ResponseCache {
  /**
   * Answers from the cache while the data version is unchanged; otherwise computes, stores
   * and answers. Adds an ETag and answers a matching If-None-Match with 304.
   */
  respond(request: Request, key: string, compute: () => Promise<CachedBody>, cacheControl?: string): Promise<Response>
  readonly size: number
  /** Stops the version source (its listener and replica registration, if any). */
  close(): Promise<void>
}

// Public data may change at any moment (a moderator approves an event): clients and shared
// caches may keep a copy but must revalidate it every time (cheap with the ETag).
export const PUBLIC_CACHE_CONTROL = 'public, no-cache'

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const maxEntries = options.maxEntries ?? 5000
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024
  let version = -1
  let bytes = 0
  const entries = new Map<string, Entry>()

  function store(key: string, entry: Entry) {
    entries.set(key, entry)
    bytes += entry.json.length
    for (const [oldKey, old] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break
      entries.delete(oldKey)
      bytes -= entryBytes(old)
    }
  }

  function toResponse(request: Request, key: string, entry: Entry, cacheControl: string): Response {
    const headers = { etag: entry.etag, 'cache-control': cacheControl, vary: 'Accept-Encoding' }
    const match = request.headers.get('if-none-match')
    if (match && entry.status === 200 && match.split(',').some((tag) => tag.trim() === entry.etag || tag.trim() === '*'))
      return new Response(null, { status: 304, headers })
    const type = { 'content-type': 'application/json; charset=utf-8' }
    const encoding =
      entry.json.length >= COMPRESSION_MIN_BYTES ? negotiateEncoding(request.headers.get('accept-encoding')) : undefined
    if (!encoding) return new Response(entry.json, { status: entry.status, headers: { ...headers, ...type } })
    let body = entry.encoded?.[encoding]
    if (!body) {
      body = compress(encoding, entry.json)
      ;(entry.encoded ??= {})[encoding] = body
      // only an entry still in the cache counts (a slow request's answer was never stored)
      if (entries.get(key) === entry) bytes += body.byteLength
    }
    return new Response(body, { status: entry.status, headers: { ...headers, ...type, 'content-encoding': encoding } })
  }

  return {
    get size() {
      return entries.size
    },
    close: async () => {
      await options.versions.close?.()
    },
    async respond(request, key, compute, cacheControl = PUBLIC_CACHE_CONTROL) {
      const current = await options.versions.current()
      if (current > version) {
        // any write may change any public answer (counts, lists, details): start over
        entries.clear()
        bytes = 0
        version = current
      }
      let entry = current === version ? entries.get(key) : undefined
      if (entry && entry.expiresAt <= Date.now()) entry = undefined
      if (entry) {
        // refresh its place: least recently used entries are evicted first
        entries.delete(key)
        entries.set(key, entry)
      } else {
        const { status, body, expiresAt } = await compute()
        const json = JSON.stringify(body)
        entry = {
          status,
          json,
          etag: `W/"${current.toString(36)}-${Bun.hash(json).toString(36)}"`,
          expiresAt: expiresAt ?? Number.POSITIVE_INFINITY,
        }
        // a slow request that read an older version answers without storing
        if (version === current) store(key, entry)
      }
      return toResponse(request, key, entry, cacheControl)
    },
  }
}

/** A cache key from a route name and its validated parameters, in a canonical order. */
export function cacheKey(route: string, params: Record<string, unknown> = {}): string {
  const keys = Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
  return `${route}?${keys.map((k) => `${k}=${encodeURIComponent(String(params[k]))}`).join('&')}`
}
