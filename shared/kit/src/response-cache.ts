import { sql } from 'drizzle-orm'
import type { Database } from '@app/db'
import { compress, COMPRESSION_MIN_BYTES, gunzip, negotiateEncoding, type Encoding } from './compression'
import { FrequencySketch } from './frequency-sketch'
import { RecencyList, type Link } from './recency'

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
  /** The answer, serialised here; or `json`, already serialised (written by the database). */
  body?: unknown
  json?: string
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
  key: string
  /**
   * Its place in the order of use: of the window (new answers, kept plain) or of the main part
   * (answers admitted for the long term), and among the main entries holding a plain form.
   */
  inWindow?: Link<Entry>
  used?: Link<Entry>
  hotUsed?: Link<Entry>
  /** asked again since it entered the main part */
  reasked?: boolean
  status: number
  /** The JSON as sent without compression; dropped from cold entries (see `hotBytes`). */
  identity?: Uint8Array
  /** Large enough to be sent compressed (COMPRESSION_MIN_BYTES). */
  compressible: boolean
  /**
   * The gzip form, made when the entry cools in the main part (the copy that stays in memory)
   * or when a client asks for it first.
   */
  gzip?: Uint8Array
  /** A remembered value (`remember`): kept as is, never sent. */
  value?: unknown
  /** Other encodings (br, zstd), made on first request for each. */
  encoded?: Partial<Record<Encoding, Uint8Array>>
  etag: string
  expiresAt: number
  /** what it depends on, as the index's own nodes (see `Dependents`); null: on everything */
  deps: Dependents[] | null
  /** what it costs the byte budget: its forms, key and bookkeeping */
  bytes: number
}

export interface ResponseCacheOptions {
  versions: VersionSource
  /** What one process keeps, counted as the bytes of the bodies (every form), keys and bookkeeping. */
  maxBytes?: number
  /**
   * Of `maxBytes`, how much may hold uncompressed forms. The most recently used entries of the
   * main part keep their plain form, so a plain request for a popular answer costs no
   * decompression; an entry that cools keeps only its gzip form (JSON compresses 3-8x), so the
   * long tail still fits: several times the answers a cache of plain bodies would hold in the
   * same bytes. An entry that cools without having been asked again in the main part, while the
   * main part is full and its least recently used entry was asked more often lately, leaves
   * instead of being compressed: kept, it would push out an answer asked more. Replayed through
   * one cache as the bench runs them (detail, lists, then the mix; 150,000 requests each), this
   * made 9%, 49% and 45% fewer gzip forms than compressing every entry the main part takes, at
   * hit rates of 0.785, 0.510 and 0.597 against 0.782, 0.497 and 0.572. Default: a quarter.
   */
  hotBytes?: number
  /**
   * Of `maxBytes`, the window: new answers, kept plain (never compressed unless a client asks),
   * until they leave it; then the main part (least recently used first out) takes one only if it
   * has room or the answer was asked at least twice lately (counted by `FrequencySketch`): most
   * answers of a long tail are asked once, and compressing them on their miss was the largest
   * single cost of a miss. Default: 2%.
   */
  windowBytes?: number
}

export interface CacheStats {
  hits: number
  misses: number
  entries: number
  bytes: number
  /** Of `bytes`, the uncompressed forms. */
  hotBytes: number
  /** Entries dropped by writes (exact keys), and whole clears (no keys known). */
  invalidated: number
  clears: number
  /** Answers that left the window: kept in the main part, or dropped (asked once lately, the main part full). */
  admitted: number
  rejected: number
  /** gzip forms made (an entry cooling in the main part, or a client's first ask for one) */
  compressed: number
  /** entries that cooled without being asked again in the main part while it was full: dropped, not compressed */
  unasked: number
}

export interface ResponseCache {
  /**
   * Answers from the cache while no write changed what the answer depends on; otherwise
   * computes, stores and answers. Adds an ETag and answers a matching If-None-Match with 304.
   */
  respond(request: Request, key: string, compute: () => Promise<CachedBody>, cacheControl?: string): Promise<Response>
  /**
   * A part of answers kept on its own, under the same rules (a list's total, shared by its sorts
   * and pages): the remembered value while no write changed what it depends on. Only inside a
   * `respond` computation: it relies on the data version that `respond` has just read.
   */
  remember<T>(key: string, compute: () => Promise<{ value: T; deps?: string[]; expiresAt?: number }>): Promise<T>
  readonly size: number
  /**
   * The data version the entries hold: a computation inside `respond` reads data at least this
   * new (derived data, such as the catalog's list index, is used only once it has applied it).
   */
  readonly version: number
  stats(): CacheStats
  /** Stops the version source (its listener and replica registration, if any). */
  close(): Promise<void>
}

// Public data may change at any moment (a moderator approves an event): clients and shared
// caches may keep a copy but must revalidate it every time (cheap with the ETag).
export const PUBLIC_CACHE_CONTROL = 'public, no-cache'

/** Map/Set/object overhead of one entry, measured roughly with Bun's heap stats. */
const ENTRY_OVERHEAD_BYTES = 400
/** What an entry of the main part costs, about (a detail's gzip form and bookkeeping): sizes the frequency sketch. */
const TYPICAL_ENTRY_BYTES = 2048
/**
 * How many asks (lately, as the sketch counts them) an answer needs to be kept past the window.
 * Two: an answer asked once is never compressed nor kept long, and one asked again stays. Tried
 * against TinyLFU's rule (asked more often than the answer it would evict): under the bench's
 * scenarios one after the other, the counts of the last scenario's answers kept the next one's
 * out (lists hit rate 0.46 against 0.51 with this rule and 0.53 without a window).
 */
const ADMITTED_AFTER = 2
const encoder = new TextEncoder()
const depBytes = (deps: string[] | undefined) => deps?.reduce((n, d) => n + d.length * 2 + 64, 0) ?? 0

/**
 * About what a remembered value holds: its strings' lengths (database text is one byte a
 * character in the engine unless it holds non-Latin-1 text) and 16 bytes a slot of the objects
 * and arrays around them. Walked, not serialised: JSON.stringify of the related events' cards (a
 * JSON text each, escaped again) was 5% of the service's CPU under the detail scenario.
 */
function valueBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 16
  if (value === null || typeof value !== 'object') return 16
  let bytes = 32
  if (Array.isArray(value)) for (const item of value) bytes += valueBytes(item)
  else for (const key in value) bytes += 16 + valueBytes((value as Record<string, unknown>)[key])
  return bytes
}

/**
 * One change key and the cache keys of the entries that depend on it. Entries point at these
 * nodes, so each change key's text is held once, not once per entry. The keys are an array,
 * appended to when an entry is stored and compacted when most of it names entries dropped since
 * (a key is a dependent while its stored entry points at this node): a Set of keys (the form
 * before) cost the engine a hash table per change key (about 1 KB, measured with a heap
 * snapshot) and a hash insert and delete per entry and key, into sets of thousands for a
 * category's or a tag's key (6% of the catalog's thread under the detail scenario, its
 * JavaScript profile). Keys, not the entries: a dropped entry's bodies are not held on.
 */
interface Dependents {
  dep: string
  keys: string[]
  /** of `keys`, the entries stored that depend on it */
  live: number
}

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const maxBytes = options.maxBytes ?? 48 * 1024 * 1024
  const maxHotBytes = options.hotBytes ?? Math.floor(maxBytes / 4)
  const maxWindowBytes = options.windowBytes ?? Math.floor(maxBytes / 50)
  let version = -1
  let bytes = 0
  let hotBytes = 0
  let windowBytes = 0
  /** every entry by key, and the orders of use of the window and the main part (a hit moves its entry to the end) */
  const entries = new Map<string, Entry>()
  const window = new RecencyList<Entry>()
  const used = new RecencyList<Entry>()
  /** how often each key was asked lately: what the main part admits by */
  const sketch = new FrequencySketch(maxBytes / TYPICAL_ENTRY_BYTES)
  /** entries holding a plain form that could be dropped (they have gzip), least recently used first */
  const hot = new RecencyList<Entry>()
  /** dependency key -> the cache keys of the entries that depend on it */
  const dependents = new Map<string, Dependents>()
  /** entries that depend on everything (no deps declared) */
  const undeclared = new Set<string>()
  const counters = { hits: 0, misses: 0, invalidated: 0, clears: 0, admitted: 0, rejected: 0, compressed: 0, unasked: 0 }

  function remove(key: string) {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    if (entry.inWindow) {
      window.remove(entry.inWindow)
      entry.inWindow = undefined
      windowBytes -= entry.bytes
    } else {
      used.remove(entry.used!)
      entry.used = undefined
    }
    bytes -= entry.bytes
    if (entry.hotUsed) {
      hot.remove(entry.hotUsed)
      entry.hotUsed = undefined
      hotBytes -= entry.identity!.byteLength
    }
    if (!entry.deps) undeclared.delete(key)
    else for (const node of entry.deps) unlink(node)
  }

  /** Whether the entry stored under `key` depends on `node`. */
  function dependsOn(node: Dependents, key: string): boolean {
    return entries.get(key)?.deps?.includes(node) ?? false
  }

  /** Adds `entry` (stored under `key`) to the dependents of each of `deps` (a change key named twice, once). */
  function link(deps: string[], key: string, entry: Entry) {
    const nodes: Dependents[] = []
    for (const dep of deps) {
      let node = dependents.get(dep)
      if (!node) dependents.set(dep, (node = { dep, keys: [], live: 0 }))
      else if (nodes.includes(node)) continue
      node.keys.push(key)
      node.live++
      nodes.push(node)
    }
    entry.deps = nodes
  }

  function unlink(node: Dependents) {
    if (--node.live === 0) dependents.delete(node.dep)
    // keys of dropped entries are left in the list until they are most of it
    else if (node.keys.length > 2 * node.live + 8) {
      const seen = new Set<string>()
      node.keys = node.keys.filter((key) => !seen.has(key) && (seen.add(key), dependsOn(node, key)))
    }
  }

  function clear() {
    entries.clear()
    window.clear()
    used.clear()
    hot.clear()
    dependents.clear()
    undeclared.clear()
    bytes = 0
    hotBytes = 0
    windowBytes = 0
    counters.clears++
  }

  function invalidate(keys: string[]) {
    const doomed = new Set(undeclared)
    for (const dep of keys) {
      const node = dependents.get(dep)
      if (node) for (const key of node.keys) if (dependsOn(node, key)) doomed.add(key)
    }
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

  /** Adds `size` bytes of a form to a stored entry (or to one never stored, then only to itself). */
  function grow(key: string, entry: Entry, size: number) {
    entry.bytes += size
    if (entries.get(key) !== entry) return
    bytes += size
    if (!entry.inWindow) return
    windowBytes += size
    trimWindow()
  }

  /** Keeps the plain form of a main entry (most recently used), then trims both budgets. */
  function makeHot(key: string, entry: Entry) {
    if (!entry.compressible || !entry.used || entries.get(key) !== entry) return
    if (entry.hotUsed) hot.touch(entry.hotUsed)
    else {
      entry.hotUsed = hot.push(entry)
      hotBytes += entry.identity!.byteLength
    }
    trim()
  }

  function trim() {
    // the coldest plain forms go first: their gzip form stays (made now if it was not yet)
    for (let entry = hot.oldest(); entry && hotBytes > maxHotBytes; entry = hot.oldest()) {
      if (!entry.gzip) {
        if (!entry.reasked && bytes - windowBytes > maxBytes - maxWindowBytes && outranked(entry)) {
          counters.unasked++
          remove(entry.key)
          continue
        }
        gzipOf(entry)
      }
      hot.remove(entry.hotUsed!)
      entry.hotUsed = undefined
      hotBytes -= entry.identity!.byteLength
      bytes -= entry.identity!.byteLength
      entry.bytes -= entry.identity!.byteLength
      entry.identity = undefined
    }
    for (let entry = used.oldest(); entry && bytes - windowBytes > maxBytes - maxWindowBytes; entry = used.oldest())
      remove(entry.key)
  }

  /**
   * New answers enter the window (a remembered value, small and shared by many answers, the main
   * part at once); the oldest leave it for the main part, or for good (`trimWindow`).
   */
  function store(key: string, entry: Entry, deps: string[] | undefined) {
    remove(key)
    entries.set(key, entry)
    bytes += entry.bytes
    if (!deps) undeclared.add(key)
    else link(deps, key, entry)
    if ('value' in entry) {
      entry.used = used.push(entry)
      trim()
      return
    }
    entry.inWindow = window.push(entry)
    windowBytes += entry.bytes
    trimWindow()
  }

  function trimWindow() {
    for (let entry = window.oldest(); entry && windowBytes > maxWindowBytes; entry = window.oldest()) {
      if (!admits(entry)) {
        counters.rejected++
        remove(entry.key)
        continue
      }
      counters.admitted++
      window.remove(entry.inWindow!)
      entry.inWindow = undefined
      windowBytes -= entry.bytes
      entry.used = used.push(entry)
      makeHot(entry.key, entry)
      trim()
    }
  }

  /** Whether the least recently used entry of the main part was asked more often lately than `cooling`. */
  function outranked(cooling: Entry): boolean {
    const victim = used.oldest()
    return victim !== undefined && victim !== cooling && sketch.frequency(victim.key) > sketch.frequency(cooling.key)
  }

  /** Whether the main part takes `candidate`: while it has room, or when it was asked before, lately. */
  function admits(candidate: Entry): boolean {
    if (candidate.bytes > maxBytes - maxWindowBytes) return false
    if (bytes - windowBytes + candidate.bytes <= maxBytes - maxWindowBytes) return true
    return sketch.frequency(candidate.key) >= ADMITTED_AFTER
  }

  /** The gzip form, made on first need: when the entry cools in the main part, or a client asks for it. */
  function gzipOf(entry: Entry): Uint8Array {
    if (!entry.gzip) {
      entry.gzip = compress('gzip', entry.identity!)
      counters.compressed++
      grow(entry.key, entry, entry.gzip.byteLength)
    }
    return entry.gzip
  }

  function plainBody(key: string, entry: Entry): Uint8Array {
    if (entry.identity) {
      makeHot(key, entry)
      return entry.identity
    }
    // a cold entry: decompress (a few microseconds for an API answer) and keep it hot again
    const identity = gunzip(entry.gzip!)
    entry.identity = identity
    grow(key, entry, identity.byteLength)
    makeHot(key, entry)
    return identity
  }

  function encodedBody(key: string, entry: Entry, encoding: Encoding): Uint8Array {
    if (encoding === 'gzip') return gzipOf(entry)
    let body = entry.encoded?.[encoding]
    if (!body) {
      body = compress(encoding, entry.identity ?? gunzip(entry.gzip!))
      ;(entry.encoded ??= {})[encoding] = body
      grow(key, entry, body.byteLength)
    }
    return body
  }

  function toResponse(request: Request, key: string, entry: Entry, cacheControl: string, hit: boolean): Response {
    // x-cache: whether this process answered from memory (benchmarks count hit rates with it)
    const headers = { etag: entry.etag, 'cache-control': cacheControl, vary: 'Accept-Encoding', 'x-cache': hit ? 'hit' : 'miss' }
    const match = request.headers.get('if-none-match')
    if (match && entry.status === 200 && match.split(',').some((tag) => tag.trim() === entry.etag || tag.trim() === '*'))
      return new Response(null, { status: 304, headers })
    const type = { 'content-type': 'application/json; charset=utf-8' }
    const encoding = entry.compressible ? negotiateEncoding(request.headers.get('accept-encoding')) : undefined
    if (!encoding) return new Response(plainBody(key, entry), { status: entry.status, headers: { ...headers, ...type } })
    return new Response(encodedBody(key, entry, encoding), {
      status: entry.status,
      headers: { ...headers, ...type, 'content-encoding': encoding },
    })
  }

  /** The entry for `key`: from memory while the version holds, else computed (and stored). */
  async function lookup(key: string, compute: () => Promise<CachedBody>): Promise<{ entry: Entry; hit: boolean }> {
    const current = await options.versions.current()
    if (current > version) {
      // a version whose changes this process was not told: anything may have changed
      clear()
      version = current
    }
    sketch.increment(key)
    let entry = current === version ? entries.get(key) : undefined
    if (entry && entry.expiresAt <= Date.now()) entry = undefined
    if (entry) {
      counters.hits++
      // refresh its place: least recently used entries are evicted first
      if (entry.inWindow) window.touch(entry.inWindow)
      else {
        used.touch(entry.used!)
        entry.reasked = true
      }
      return { entry, hit: true }
    }
    counters.misses++
    const computed = await compute()
    const { status, expiresAt, deps } = computed
    const json = encoder.encode(computed.json ?? JSON.stringify(computed.body))
    entry = {
      key,
      status,
      identity: json,
      compressible: json.byteLength >= COMPRESSION_MIN_BYTES,
      etag: `W/"${Bun.hash(json).toString(36)}"`,
      expiresAt: expiresAt ?? Number.POSITIVE_INFINITY,
      deps: null,
      bytes: json.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES + depBytes(deps),
    }
    // a request that computed from data older than a write that arrived meanwhile answers
    // without storing
    if (version === current) store(key, entry, deps)
    return { entry, hit: false }
  }

  return {
    get size() {
      return entries.size
    },
    get version() {
      return version
    },
    stats: () => ({ ...counters, entries: entries.size, bytes, hotBytes }),
    close: async () => {
      await options.versions.close?.()
    },
    async respond(request, key, compute, cacheControl = PUBLIC_CACHE_CONTROL) {
      const { entry, hit } = await lookup(key, compute)
      return toResponse(request, key, entry, cacheControl, hit)
    },
    async remember(key, compute) {
      // kept as the value itself (never sent, so never serialised or compressed); the version was
      // read by the `respond` this runs inside
      const memoKey = `=${key}`
      const cached = entries.get(memoKey)
      if (cached && cached.expiresAt > Date.now()) {
        counters.hits++
        used.touch(cached.used!)
        return cached.value as never
      }
      counters.misses++
      const at = version
      const { value, deps, expiresAt } = await compute()
      if (version === at)
        store(
          memoKey,
          {
            key: memoKey,
            status: 200,
            compressible: false,
            value,
            etag: '',
            expiresAt: expiresAt ?? Number.POSITIVE_INFINITY,
            deps: null,
            bytes: valueBytes(value) + memoKey.length * 2 + ENTRY_OVERHEAD_BYTES + depBytes(deps),
          },
          deps,
        )
      return value
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
