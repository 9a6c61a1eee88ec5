import { Elysia } from 'elysia'
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

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

export function createMetrics(service: string): ServiceMetrics {
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
