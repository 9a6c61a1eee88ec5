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
  /**
   * Called (synchronously, in version order) for each version a write produced, with the keys it
   * changed (see migration 0008), or null when anything may have changed. Only sources that
   * receive the writes' notifications offer it.
   */
  onChange?(listener: (version: number, keys: string[] | null) => void): void
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
  /**
   * The change keys this answer depends on (migration 0008: `event:<slug or id>`,
   * `list:city:<slug>`, `list:all`, `counts`, `stats`, `news`, ...): a write that changes none of
   * them leaves it cached. Absent: any write drops it.
   */
  deps?: string[]
}

interface Entry {
  status: number
  body: Uint8Array
  etag: string
  expiresAt: number
  deps: string[] | null
  /** what it costs the byte budget: the body, its compressed forms, key and bookkeeping */
  bytes: number
  /** Compressed forms, made on first request for each encoding (counted in `bytes`). */
  encoded?: Partial<Record<Encoding, Uint8Array>>
}

export interface ResponseCacheOptions {
  versions: VersionSource
  /** What one process keeps, counted as the bytes of the bodies, keys and bookkeeping. */
  maxBytes?: number
}

export interface CacheStats {
  hits: number
  misses: number
  entries: number
  bytes: number
  /** Entries dropped by writes (exact keys), and whole clears (no keys known). */
  invalidated: number
  clears: number
}

export interface ResponseCache {
  /**
   * Answers from the cache while no write changed what the answer depends on; otherwise
   * computes, stores and answers. Adds an ETag and answers a matching If-None-Match with 304.
   */
  respond(request: Request, key: string, compute: () => Promise<CachedBody>, cacheControl?: string): Promise<Response>
  readonly size: number
  stats(): CacheStats
  /** Stops the version source (its listener and replica registration, if any). */
  close(): Promise<void>
}

// Public data may change at any moment (a moderator approves an event): clients and shared
// caches may keep a copy but must revalidate it every time (cheap with the ETag).
export const PUBLIC_CACHE_CONTROL = 'public, no-cache'

/** Map/Set/object overhead of one entry, measured roughly with Bun's heap stats. */
const ENTRY_OVERHEAD_BYTES = 400
const encoder = new TextEncoder()

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  let version = -1
  let bytes = 0
  const entries = new Map<string, Entry>()
  /** dependency key -> cache keys of the entries that depend on it */
  const dependents = new Map<string, Set<string>>()
  /** entries that depend on everything (no deps declared) */
  const undeclared = new Set<string>()
  const counters = { hits: 0, misses: 0, invalidated: 0, clears: 0 }

  function remove(key: string) {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    bytes -= entry.bytes
    if (!entry.deps) undeclared.delete(key)
    else
      for (const dep of entry.deps) {
        const set = dependents.get(dep)
        set?.delete(key)
        if (set?.size === 0) dependents.delete(dep)
      }
  }

  function clear() {
    entries.clear()
    dependents.clear()
    undeclared.clear()
    bytes = 0
    counters.clears++
  }

  function invalidate(keys: string[]) {
    const doomed = new Set(undeclared)
    for (const dep of keys) for (const key of dependents.get(dep) ?? []) doomed.add(key)
    for (const key of doomed) remove(key)
    counters.invalidated += doomed.size
  }

  // A write's keys arrive before the version that carries them is visible to current(), so an
  // entry stored at version v is dropped exactly when a later write touches what it depends on.
  options.versions.onChange?.((next, keys) => {
    if (next <= version) return
    if (keys && next === version + 1) invalidate(keys)
    else clear()
    version = next
  })

  function store(key: string, entry: Entry) {
    remove(key)
    entries.set(key, entry)
    bytes += entry.bytes
    if (!entry.deps) undeclared.add(key)
    else
      for (const dep of entry.deps) {
        let set = dependents.get(dep)
        if (!set) dependents.set(dep, (set = new Set()))
        set.add(key)
      }
    // least recently used first (a hit moves its entry to the end)
    for (const oldKey of entries.keys()) {
      if (bytes <= maxBytes) break
      remove(oldKey)
    }
  }

  function toResponse(request: Request, key: string, entry: Entry, cacheControl: string, hit: boolean): Response {
    // x-cache: whether this process answered from memory (benchmarks count hit rates with it)
    const headers = { etag: entry.etag, 'cache-control': cacheControl, vary: 'Accept-Encoding', 'x-cache': hit ? 'hit' : 'miss' }
    const match = request.headers.get('if-none-match')
    if (match && entry.status === 200 && match.split(',').some((tag) => tag.trim() === entry.etag || tag.trim() === '*'))
      return new Response(null, { status: 304, headers })
    const type = { 'content-type': 'application/json; charset=utf-8' }
    const encoding =
      entry.body.byteLength >= COMPRESSION_MIN_BYTES ? negotiateEncoding(request.headers.get('accept-encoding')) : undefined
    if (!encoding) return new Response(entry.body, { status: entry.status, headers: { ...headers, ...type } })
    let body = entry.encoded?.[encoding]
    if (!body) {
      body = compress(encoding, entry.body)
      ;(entry.encoded ??= {})[encoding] = body
      entry.bytes += body.byteLength
      // only an entry still in the cache counts (a slow request's answer was never stored)
      if (entries.get(key) === entry) bytes += body.byteLength
    }
    return new Response(body, { status: entry.status, headers: { ...headers, ...type, 'content-encoding': encoding } })
  }

  return {
    get size() {
      return entries.size
    },
    stats: () => ({ ...counters, entries: entries.size, bytes }),
    close: async () => {
      await options.versions.close?.()
    },
    async respond(request, key, compute, cacheControl = PUBLIC_CACHE_CONTROL) {
      const current = await options.versions.current()
      if (current > version) {
        // a version whose changes this process was not told: anything may have changed
        clear()
        version = current
      }
      let entry = current === version ? entries.get(key) : undefined
      if (entry && entry.expiresAt <= Date.now()) entry = undefined
      const hit = entry !== undefined
      if (entry) {
        counters.hits++
        // refresh its place: least recently used entries are evicted first
        entries.delete(key)
        entries.set(key, entry)
      } else {
        counters.misses++
        const { status, body, expiresAt, deps } = await compute()
        const json = encoder.encode(JSON.stringify(body))
        entry = {
          status,
          body: json,
          etag: `W/"${Bun.hash(json).toString(36)}"`,
          expiresAt: expiresAt ?? Number.POSITIVE_INFINITY,
          deps: deps ?? null,
          bytes:
            json.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES + (deps?.reduce((n, d) => n + d.length * 2 + 64, 0) ?? 0),
        }
        // a request that computed from data older than a write that arrived meanwhile answers
        // without storing
        if (version === current) store(key, entry)
      }
      return toResponse(request, key, entry, cacheControl, hit)
    },
  }
}

/** What category, city and tag answers (their event counts) depend on; their own writes drop everything. */
export const COUNT_DEPS = ['counts']
/** What news answers depend on. */
export const NEWS_DEPS = ['news']

/** A cache key from a route name and its validated parameters, in a canonical order. */
export function cacheKey(route: string, params: Record<string, unknown> = {}): string {
  const keys = Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
  return `${route}?${keys.map((k) => `${k}=${encodeURIComponent(String(params[k]))}`).join('&')}`
}
