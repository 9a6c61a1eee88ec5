import { Elysia } from 'elysia'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { PoolStats } from '@app/db'
import type { CacheStats } from './response-cache'

const UPLOAD_ROUTE = '/api/upload'

/**
 * Prometheus metrics for one service process (prom-client; one registry per app, so the
 * services of `bun start` and the tests never share counters).
 */
export interface ServiceMetrics {
  registry: Registry
  observeRequest(method: string, route: string, status: number, seconds: number, bodyBytes: number): void
  render(): Promise<string>
}

// covers a 2 ms cache hit to a 10 s upload
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** What a scrape reads at that moment: response caches and database pools, by name. */
export interface MetricSources {
  caches?: Record<string, { stats(): CacheStats } | undefined>
  /** `primary`, and `read` when DATABASE_READ_URL is set. */
  pools?: Record<string, { pool(): PoolStats } | undefined>
  /** The catalog's list index (events/list-index.ts). */
  listIndex?: { stats(): ListIndexStats }
}

export interface ListIndexStats {
  /** published events held; 0 while loading (lists read PostgreSQL) */
  events: number
  /** full loads since start (the first, then after a change without keys or a reconnect) */
  loads: number
}

export function createMetrics(service: string, sources: MetricSources = {}): ServiceMetrics {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  // process memory (resident, heap), CPU, GC and event-loop lag (nodejs_eventloop_lag_*)
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 })
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const caches = Object.entries(sources.caches ?? {}).filter((e): e is [string, { stats(): CacheStats }] => e[1] !== undefined)
  const pools = Object.entries(sources.pools ?? {}).filter((e): e is [string, { pool(): PoolStats }] => e[1] !== undefined)
  // read at scrape time from the caches' own counters: nothing is added to the request path
  const cacheSeries = (name: string, help: string, read: (s: CacheStats) => number, counter: boolean) => {
    const config = {
      name,
      help,
      labelNames: ['cache'] as const,
      registers: [registry],
      collect(this: Gauge<'cache'> | Counter<'cache'>) {
        this.reset()
        for (const [cache, source] of caches) {
          const value = read(source.stats())
          if (this instanceof Gauge) this.set({ cache }, value)
          else this.inc({ cache }, value)
        }
      },
    }
    return counter ? new Counter(config) : new Gauge(config)
  }
  if (caches.length > 0) {
    cacheSeries('response_cache_hits_total', 'Public GET answers served from the response cache', (s) => s.hits, true)
    cacheSeries('response_cache_misses_total', 'Public GET answers computed (not in the cache, or invalidated)', (s) => s.misses, true)
    cacheSeries('response_cache_entries', 'Answers held in the response cache', (s) => s.entries, false)
    cacheSeries('response_cache_bytes', 'Bytes the response cache holds (bodies, compressed forms, keys, bookkeeping)', (s) => s.bytes, false)
    cacheSeries('response_cache_invalidations_total', 'Cached answers dropped because a write changed what they depend on', (s) => s.invalidated, true)
    cacheSeries('response_cache_clears_total', 'Whole-cache clears (a write whose changed keys were not known)', (s) => s.clears, true)
    cacheSeries('response_cache_admitted_total', 'Answers kept past the window (asked again lately, or room to spare)', (s) => s.admitted, true)
    cacheSeries('response_cache_rejected_total', 'Answers dropped as they left the window (asked once lately, cache full)', (s) => s.rejected, true)
  }
  if (pools.length > 0) {
    const poolGauge = (name: string, help: string, read: (p: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [registry],
        collect() {
          this.reset()
          for (const [pool, source] of pools) this.set({ pool }, read(source.pool()))
        },
      })
    poolGauge('db_pool_in_use', 'Queries/transactions holding a pool connection now (in flight, up to the pool size)', (p) => Math.min(p.inFlight, p.max))
    poolGauge('db_pool_waiting', 'Queries/transactions sent and waiting for a free pool connection (in flight beyond the pool size)', (p) => Math.max(0, p.inFlight - p.max))
    poolGauge('db_pool_max', 'Connections the pool may open', (p) => p.max)
  }
  const listIndex = sources.listIndex
  if (listIndex) {
    new Gauge({
      name: 'list_index_events',
      help: 'Published events held by the list index (0 while it loads: lists then read PostgreSQL)',
      registers: [registry],
      collect() {
        this.set(listIndex.stats().events)
      },
    })
    new Counter({
      name: 'list_index_loads_total',
      help: 'Full loads of the list index (the first, then after a change without keys or a reconnect)',
      registers: [registry],
      collect() {
        this.reset()
        this.inc(listIndex.stats().loads)
      },
    })
  }
  const uploaded = new Counter({ name: 'upload_bytes_total', help: 'Request bytes of accepted uploads (multipart body as declared)', registers: [registry] })

  return {
    registry,
    observeRequest(method, route, status, seconds, bodyBytes) {
      const labels = { method, route, status: String(status) }
      requests.inc(labels)
      latency.observe(labels, seconds)
      if (route === UPLOAD_ROUTE && status < 300) uploaded.inc(bodyBytes)
    },
    render: () => registry.metrics(),
  }
}

const started = new WeakMap<Request, number>()
let pluginCount = 0

/**
 * Records every answer by route template (`/api/events/:slug`, never the raw path, so the label
 * set stays bounded; unmatched paths count as `unmatched`) and serves `GET /metrics` on the
 * service's own port. The gateway never routes `/metrics`: scrape each pod/process directly.
 */
export const metricsPlugin = (metrics: ServiceMetrics) =>
  new Elysia({ name: 'kit.metrics', seed: ++pluginCount })
    .onRequest(({ request }) => {
      started.set(request, performance.now())
    })
    .onAfterResponse({ as: 'global' }, (context) => {
      const at = started.get(context.request)
      if (at === undefined) return
      // error envelopes are Responses of their own: their status is not in `set`
      const answer = (context as { responseValue?: unknown }).responseValue
      const status = answer instanceof Response ? answer.status : typeof context.set.status === 'number' ? context.set.status : 200
      const route = (context as { route?: string }).route || 'unmatched'
      const bodyBytes = Number(context.request.headers.get('content-length') ?? 0) || 0
      metrics.observeRequest(context.request.method, route, status, (performance.now() - at) / 1000, bodyBytes)
    })
    .get(
      '/metrics',
      async ({ set }) => {
        set.headers['content-type'] = metrics.registry.contentType
        set.headers['cache-control'] = 'no-store'
        return metrics.render()
      },
      { detail: { hide: true } },
    )
