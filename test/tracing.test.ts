// OpenTelemetry traces from the real process (`bun start`, main.ts) to a tiny OTLP/HTTP receiver
// on loopback that parses what arrives: a SERVER span per request with the route template and
// status, and DB spans (CLIENT) in the same trace, children of it. A caller's traceparent is
// continued. Without OTEL_EXPORTER_OTLP_ENDPOINT no tracer exists at all.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createTracing, readConfig } from '@app/kit'
import { freePort, repoRoot, stopProcess } from '../scripts/stack-lib'

setDefaultTimeout(60_000)

type Attribute = { key: string; value: { stringValue?: string; intValue?: string | number } }
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: Attribute[] }
type Exported = OtlpSpan & { service: string }

const received: Exported[] = []
const requests: { path: string; contentType: string | null }[] = []
let receiver: ReturnType<typeof Bun.serve>
let proc: Subprocess
let base: string
let database: TestDatabase | undefined
const workDir = mkdtempSync('/tmp/deploy2-tracing-')

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined)
}

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const path = new URL(request.url).pathname
      requests.push({ path, contentType: request.headers.get('content-type') })
      const body = (await request.json()) as {
        resourceSpans: { resource: { attributes: Attribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[]
      }
      for (const resource of body.resourceSpans) {
        const service = resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? ''
        for (const scope of resource.scopeSpans) for (const span of scope.spans) received.push({ ...span, service })
      }
      return Response.json({})
    },
  })
  const port = freePort()
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    DATA_DIR: workDir,
    LOG_LEVEL: 'silent',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
  }
  delete env.DATABASE_URL
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase()
    env.DATABASE_URL = database.url!
  }
  proc = Bun.spawn(['bun', 'main.ts'], { cwd: repoRoot, env, stdout: 'ignore', stderr: 'inherit' })
  base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 50_000
  for (;;) {
    const ok = await fetch(`${base}/ready`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() > deadline) throw new Error('bun start did not become ready')
    await Bun.sleep(200)
  }
}, 60_000)

afterAll(async () => {
  if (proc) await stopProcess(proc)
  receiver?.stop(true)
  await database?.close()
  rmSync(workDir, { recursive: true, force: true })
})

async function spansOf(traceId: string, until: (spans: Exported[]) => boolean) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const spans = received.filter((s) => s.traceId === traceId)
    if (until(spans) || Date.now() > deadline) return spans
    await Bun.sleep(100)
  }
}

test('a request becomes a server span with its route template and status, and its queries DB spans in the same trace', async () => {
  const res = await fetch(`${base}/api/events/tidak-ada-sama-sekali`)
  expect(res.status).toBe(404)
  const res2 = await fetch(`${base}/api/categories?limit=7`)
  expect(res2.status).toBe(200)

  const deadline = Date.now() + 15_000
  let server: Exported | undefined
  while (!server && Date.now() < deadline) {
    server = received.find(
      (s) => s.kind === 2 && attr(s, 'http.route') === '/api/categories' && attr(s, 'url.path') === '/api/categories',
    )
    if (!server) await Bun.sleep(100)
  }
  expect(server).toBeDefined()
  expect(server!.name).toBe('GET /api/categories')
  expect(attr(server!, 'http.response.status_code')).toBe(200)
  expect(server!.service).toBe('event-catalog-all')
  expect(requests[0]).toEqual({ path: '/v1/traces', contentType: 'application/json' })

  const trace = await spansOf(server!.traceId, (spans) => spans.some((s) => s.kind === 3))
  const db = trace.filter((s) => s.kind === 3)
  expect(db.length).toBeGreaterThanOrEqual(1)
  for (const span of db) {
    expect(span.parentSpanId).toBe(server!.spanId)
    expect(attr(span, 'db.system.name')).toBe('postgresql')
    expect(String(attr(span, 'db.query.text'))).toMatch(/select/i)
  }
  expect(db.some((s) => /categories/.test(String(attr(s, 'db.query.text'))))).toBe(true)

  // the 404 has its own trace, with the template, not the raw path, as its route
  const missing = received.find((s) => s.kind === 2 && attr(s, 'url.path') === '/api/events/tidak-ada-sama-sekali')
  expect(missing?.name).toBe('GET /api/events/:slug')
  expect(attr(missing!, 'http.response.status_code')).toBe(404)
  expect(missing!.traceId).not.toBe(server!.traceId)
})

test("a caller's traceparent is continued", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
  const parent = '00f067aa0ba902b7'
  const res = await fetch(`${base}/api/cities?limit=3`, { headers: { traceparent: `00-${traceId}-${parent}-01` } })
  expect(res.status).toBe(200)
  const spans = await spansOf(traceId, (s) => s.some((x) => x.kind === 2) && s.some((x) => x.kind === 3))
  const server = spans.find((s) => s.kind === 2)
  expect(server?.parentSpanId).toBe(parent)
  expect(attr(server!, 'http.route')).toBe('/api/cities')
  expect(spans.some((s) => s.kind === 3 && s.parentSpanId === server!.spanId)).toBe(true)
})

test("a caller's not-sampled flag is followed: nothing exported for that trace, nor for its queries", async () => {
  const unsampled = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1'
  const sampled = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2'
  expect(
    (await fetch(`${base}/api/tags?limit=4`, { headers: { traceparent: `00-${unsampled}-00f067aa0ba902b7-00` } })).status,
  ).toBe(200)
  expect(
    (await fetch(`${base}/api/tags?limit=6`, { headers: { traceparent: `00-${sampled}-00f067aa0ba902b7-01` } })).status,
  ).toBe(200)
  // the sampled one, sent after, has arrived: the batch that would hold the other has been sent
  expect((await spansOf(sampled, (s) => s.some((x) => x.kind === 2))).length).toBeGreaterThan(0)
  expect(received.filter((s) => s.traceId === unsampled)).toEqual([])
})

test('sampling ratio from the standard variables, checked once', () => {
  expect(readConfig({}).traceSampleRatio).toBe(1)
  expect(readConfig({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }).traceSampleRatio).toBe(
    0.1,
  )
  expect(() => readConfig({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
    'OTEL_TRACES_SAMPLER_ARG',
  )
  expect(() => readConfig({ OTEL_TRACES_SAMPLER: 'always_on' })).toThrow('OTEL_TRACES_SAMPLER')
  expect(() => readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://x:4317' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT')
})

test('without an endpoint there is no tracer, no plugin and no query observer', async () => {
  expect(await createTracing({ service: 'catalog' })).toBeUndefined()
  expect(await createTracing({ endpoint: '', service: 'catalog' })).toBeUndefined()
})
