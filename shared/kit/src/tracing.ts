// OpenTelemetry traces over OTLP/HTTP (JSON), only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
// one SERVER span per request (named `GET /api/events/:slug`, with the route template and
// status) and one CLIENT span per database query made while answering it, children of the
// request's span. Unset, `createTracing` returns undefined: no plugin, no query observer, no SDK
// object exists, so the request path does no tracing work at all; the SDK (tracing-sdk.ts) is not
// even loaded, which keeps ~7 MB of code out of every process that does not trace.
//
// The active span is kept in an AsyncLocalStorage entered at the start of each request (Elysia's
// onRequest; `enterWith` carries it through everything the request awaits). It is our own
// storage, not the OpenTelemetry API's global context manager: nothing global is registered, so
// several apps in one process (`bun start`, tests) each have their own tracer and exporter.
import type { Elysia } from 'elysia'
import type { QueryObserver } from '@app/db'

export interface Tracing {
  /** Starts and ends the request spans (createBaseApp adds it). */
  plugin(): Elysia<any, any, any, any, any, any, any>
  /** For createDb: one span per query inside a request. */
  observeQuery: QueryObserver
  /** Exports what is still buffered; call on shutdown. */
  shutdown(): Promise<void>
}

export interface TracingOptions {
  /** OTLP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); traces go to `<endpoint>/v1/traces`. */
  endpoint?: string
  service: string
  /** Share of new traces recorded (a caller's sampled flag is followed); default 1. */
  sampleRatio?: number
  /** Longest wait before a batch is sent (ms). */
  exportDelayMs?: number
}

export async function createTracing(options: TracingOptions): Promise<Tracing | undefined> {
  if (!options.endpoint) return undefined
  const { startTracing } = await import('./tracing-sdk')
  return startTracing({ ...options, endpoint: options.endpoint })
}
