import { Elysia } from 'elysia'
import { readJsonLimited } from './body-limit'
import { compression } from './compression'
import { cors } from './cors'
import { errorEnvelope, HttpError, MESSAGES } from './errors'
import { health, type ReadinessCheck } from './health'
import { checkBody, checkUrl, installStrictNumberFormats } from './input-guard'
import { createMetrics, metricsPlugin, type MetricSources, type ServiceMetrics } from './metrics'
import { requestLog, type Logger } from './request-log'
import type { Tracing } from './tracing'

export interface BaseAppOptions {
  service: string
  logger: Logger
  checks: Record<string, ReadinessCheck>
  isDraining?: () => boolean
  /** JSON bodies above this get 413; the API's JSON inputs are all small. */
  jsonLimitBytes?: number
  /** Origins allowed to write and to use the admin API from a browser (CORS_ORIGINS). */
  corsOrigins?: readonly string[]
  /** Prometheus metrics served on `/metrics`; a fresh registry when not given. */
  metrics?: ServiceMetrics
  /** Caches and database pools whose state `/metrics` reports (when `metrics` is not given). */
  metricSources?: MetricSources
  /** OpenTelemetry request spans (createTracing); absent, nothing is traced. */
  tracing?: Tracing
}

/** Headers every answer carries: no MIME sniffing, no framing, no full URLs in Referer. */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const

export const DEFAULT_JSON_LIMIT_BYTES = 64 * 1024
/** No request declares more than this: the 24 MB upload plus multipart framing. */
export const MAX_DECLARED_BODY_BYTES = 25 * 1024 * 1024

/**
 * What every service app starts from: request id + log line, the error envelope, the input guard
 * (URL, numbers and bodies checked before any route: input-guard.ts), CORS, compression,
 * size-capped JSON parsing, `/health` and `/ready`.
 */
export function createBaseApp(options: BaseAppOptions) {
  const jsonLimit = options.jsonLimitBytes ?? DEFAULT_JSON_LIMIT_BYTES
  installStrictNumberFormats()
  return (
    new Elysia({ name: `base.${options.service}` })
      .use(requestLog(options.logger))
      .use(options.tracing ? options.tracing.plugin() : new Elysia({ name: 'kit.tracing.off' }))
      .use(metricsPlugin(options.metrics ?? createMetrics(options.service, options.metricSources)))
      .use(errorEnvelope(options.logger))
      .use(cors(options.corsOrigins))
      .use(compression())
      .onRequest(({ request, set }) => {
        // on every answer, errors included, with or without the gateway (which sets the same)
        Object.assign(set.headers, SECURITY_HEADERS)
        if (Number(request.headers.get('content-length') ?? 0) > MAX_DECLARED_BODY_BYTES)
          throw new HttpError(413, MESSAGES.tooLarge)
        checkUrl(request.url)
      })
      .onParse({ as: 'global' }, ({ request, contentType }) => {
        if (contentType === 'application/json' || contentType?.startsWith('application/json'))
          return readJsonLimited(request, jsonLimit)
      })
      // every parsed body (JSON, form, multipart fields), before the route's own hooks and validation
      .onTransform({ as: 'global' }, ({ body }) => checkBody(body))
      .use(health(options.service, options.checks, options.isDraining))
  )
}
