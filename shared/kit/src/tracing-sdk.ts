// The OpenTelemetry side of tracing.ts, loaded only when traces are exported.
import { AsyncLocalStorage } from 'node:async_hooks'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace'
import { Elysia } from 'elysia'
import type { QueryObserver } from '@app/db'
import type { Tracing, TracingOptions } from './tracing'

const MAX_STATEMENT_CHARS = 2000
const noop = () => {}
const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
}

export function startTracing(options: TracingOptions & { endpoint: string }): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/$/, '')}/v1/traces` })
  const provider = new TracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio ?? 1) }),
    resource: resourceFromAttributes({ 'service.name': `event-catalog-${options.service}` }),
    spanProcessors: [
      new BatchSpanProcessor({ exporter, scheduledDelayMillis: options.exportDelayMs ?? 1000, maxQueueSize: 4096 }),
    ],
  })
  const tracer = provider.getTracer('event-catalog')
  const propagator = new W3CTraceContextPropagator()
  const active = new AsyncLocalStorage<Context>()
  const spans = new WeakMap<Request, Span>()
  let pluginCount = 0

  const observeQuery: QueryObserver = (text) => {
    const parent = active.getStore()
    // queries outside a request (heartbeats, acks) would be a root span each: not traced
    if (!parent || !trace.getSpan(parent)?.isRecording()) return noop
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY'
    const span = tracer.startSpan(
      operation,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.operation.name': operation,
          'db.query.text': text.slice(0, MAX_STATEMENT_CHARS),
        },
      },
      parent,
    )
    return (error) => {
      if (error) {
        span.recordException(error instanceof Error ? error : String(error))
        span.setStatus({ code: SpanStatusCode.ERROR })
      }
      span.end()
    }
  }

  return {
    observeQuery,
    shutdown: () => provider.shutdown(),
    plugin: () =>
      new Elysia({ name: 'kit.tracing', seed: ++pluginCount })
        .onRequest(({ request }) => {
          const url = new URL(request.url)
          // a caller's W3C traceparent continues its trace (Caddy passes it through)
          const parent = propagator.extract(ROOT_CONTEXT, request.headers, headerGetter)
          const span = tracer.startSpan(
            request.method,
            { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': url.pathname } },
            parent,
          )
          spans.set(request, span)
          active.enterWith(trace.setSpan(parent, span))
        })
        .onAfterResponse({ as: 'global' }, (context) => {
          const span = spans.get(context.request)
          if (!span) return
          spans.delete(context.request)
          const answer = (context as { responseValue?: unknown }).responseValue
          const status =
            answer instanceof Response ? answer.status : typeof context.set.status === 'number' ? context.set.status : 200
          const route = (context as { route?: string }).route || 'unmatched'
          span.updateName(`${context.request.method} ${route}`)
          span.setAttribute('http.route', route)
          span.setAttribute('http.response.status_code', status)
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
          span.end()
        }),
  }
}
