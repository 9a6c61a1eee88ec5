// Schema fuzzing from the OpenAPI document: for every operation in /api/openapi.json, fast-check
// generates requests with valid, boundary and invalid values for every parameter and body field
// (including the hostile classes of hostile.ts), sends them, and checks each answer:
//   - never a 5xx;
//   - every non-2xx is the `{success:false, error}` envelope (JSON);
//   - every 2xx JSON answer validates (ajv) against the schema the document gives for that status.
// Reproducible: the same document, data and seed generate the same requests; a failure prints the
// seed, the request's index and a curl command.
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { HOSTILE_VALUES, isProtocolRefusal, judge } from './hostile'

export interface FuzzRequest {
  operation: string
  method: string
  /** Path and query, percent-encoded as sent. */
  path: string
  headers: Record<string, string>
  body?: string | Uint8Array | FormData
  bodyText?: string
}

export interface FuzzFailure {
  index: number
  request: FuzzRequest
  status: number
  reason: string
  body: string
}

export interface FuzzOptions {
  base: string
  runs: number
  seed: number
  concurrency?: number
  /** The admin session cookie (`admin_session=...`) some requests carry. */
  adminCookie?: string
  log?: (line: string) => void
}

type Schema = Record<string, any>
type Operation = { method: string; path: string; op: Schema }

// keywords TypeBox and Elysia leave in the document that are not JSON Schema; ajv is strict
const NON_STANDARD = new Set(['error', 'examples', 'example', 'errorMessage', '$id', 'x-elysia'])
const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
  'regex',
  'binary',
])

/** A copy of a schema without non-standard keywords and formats ajv does not know. */
export function standardSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(standardSchema)
  if (!schema || typeof schema !== 'object') return schema
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (NON_STANDARD.has(key)) continue
    if (key === 'format' && (typeof value !== 'string' || !KNOWN_FORMATS.has(value))) continue
    if (key === 'format' && value === 'binary') continue
    // the generator renders a union of number literals (0|1 flags) as {type: string, enum: [0, 1]}:
    // the enum is the truth, the type beside it a rendering slip
    if (
      key === 'type' &&
      Array.isArray((schema as Schema).enum) &&
      !(schema as Schema).enum.every((v: unknown) => jsonType(v) === value || (value === 'number' && jsonType(v) === 'integer'))
    )
      continue
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, standardSchema(v)]))
        : standardSchema(value)
  }
  return out
}

function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return Array.isArray(v) ? 'array' : typeof v
}

export function operationsOf(document: Schema): Operation[] {
  const ops: Operation[] = []
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, op] of Object.entries(item as Schema))
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
        ops.push({ method: method.toUpperCase(), path, op: op as Schema })
  return ops
}

/** The variants a parameter schema allows, flattened out of anyOf/oneOf. */
function variants(schema: Schema): Schema[] {
  const list = schema.anyOf ?? schema.oneOf
  if (Array.isArray(list)) return list.flatMap((s: Schema) => variants({ ...schema, anyOf: undefined, oneOf: undefined, ...s }))
  return [schema]
}

const enc = (v: string) => encodeURIComponent(v)

/** Values (raw, percent-encoded) a parameter can take: valid, boundary and invalid. */
// a URL client resolves `.`, `..` and an empty segment before sending: they name another route
const PATH_HOSTILE = HOSTILE_VALUES.filter((v) => v.length < 3000 && !['', '.', '..'].includes(v))

function valueArbitrary(schema: Schema, pool: string[], inPath = false): fc.Arbitrary<string> {
  const valid: fc.Arbitrary<string>[] = []
  const boundary: string[] = []
  for (const s of variants(schema)) {
    if (Array.isArray(s.enum)) valid.push(fc.constantFrom(...s.enum.map(String)))
    if (s.const !== undefined) valid.push(fc.constant(String(s.const)))
    if (s.type === 'integer' || s.type === 'number') {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : -1e6
      const max = typeof s.maximum === 'number' ? s.maximum : Math.max(min + 1000, 1000)
      valid.push(fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, min + 1e6)) }).map(String))
      if (s.type === 'number')
        valid.push(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => String(Number(n.toFixed(6)))))
      boundary.push(String(min), String(max), String(min - 1), String(max + 1), String(max * 10))
    }
    if (s.type === 'string' && !s.enum && s.format !== 'integer' && s.format !== 'numeric') {
      const maxLength = typeof s.maxLength === 'number' ? s.maxLength : 300
      valid.push(fc.string({ minLength: inPath ? 1 : 0, maxLength: Math.min(maxLength, 60), unit: 'grapheme' }).map(enc))
      if (pool.length) valid.push(fc.constantFrom(...pool).map(enc))
      if (s.format === 'date' || /YYYY-MM-DD/.test(String(s.description ?? '') + String(s.error ?? '')))
        valid.push(
          fc
            .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
        )
      if (s.maxLength !== undefined) boundary.push('x'.repeat(maxLength), 'x'.repeat(maxLength + 1))
    }
    if (s.type === 'boolean') valid.push(fc.constantFrom('true', 'false'))
  }
  if (!valid.length) valid.push(fc.string({ maxLength: 20 }).map(enc))
  return fc.oneof(
    { weight: 6, arbitrary: fc.oneof(...valid) },
    { weight: 2, arbitrary: boundary.length ? fc.constantFrom(...boundary) : fc.oneof(...valid) },
    { weight: 2, arbitrary: fc.constantFrom(...(inPath ? PATH_HOSTILE : HOSTILE_VALUES)) },
    { weight: 1, arbitrary: fc.string({ minLength: inPath ? 1 : 0, maxLength: 40, unit: 'binary' }).map(enc) },
  )
}

/** JSON values for a body field: valid for its schema, boundary, wrong types and hostile strings. */
function jsonValueArbitrary(schema: Schema | undefined, pool: string[]): fc.Arbitrary<unknown> {
  const hostileString = fc.constantFrom(...HOSTILE_VALUES).map((v) => {
    try {
      return decodeURIComponent(v)
    } catch {
      return v
    }
  })
  const wrong = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(1e308, -1e308, 2 ** 63, -0),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
    hostileString,
    fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x'.repeat(70_000)),
  )
  const valid: fc.Arbitrary<unknown>[] = [fc.string({ maxLength: 80, unit: 'grapheme' })]
  if (pool.length) valid.push(fc.constantFrom(...pool))
  for (const s of schema ? variants(schema) : []) {
    if (Array.isArray(s.enum)) valid.push(fc.constantFrom(...s.enum))
    if (s.type === 'integer') valid.push(fc.integer({ min: -10, max: 1_000_000 }))
    if (s.type === 'number') valid.push(fc.double({ min: -200, max: 1e7, noNaN: true }))
    if (s.type === 'boolean') valid.push(fc.boolean())
    if (s.type === 'string' && typeof s.maxLength === 'number')
      valid.push(fc.constant('x'.repeat(s.maxLength)), fc.constant('x'.repeat(s.maxLength + 1)))
  }
  valid.push(
    fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    fc.constantFrom(
      '19:30',
      '24:00',
      '7:5',
      'https://example.com/a.png',
      'http://127.0.0.1/',
      'panitia@example.id',
      'Musik, Pantai',
    ),
  )
  return fc.oneof({ weight: 5, arbitrary: fc.oneof(...valid) }, { weight: 2, arbitrary: wrong })
}

function bodyArbitrary(
  op: Schema,
  vocabulary: string[],
  pool: string[],
): fc.Arbitrary<Pick<FuzzRequest, 'body' | 'bodyText' | 'headers'>> {
  const content = op.requestBody?.content ?? {}
  if (content['multipart/form-data']) {
    const fields = Object.keys(content['multipart/form-data'].schema?.properties ?? { file: {} })
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    )
    const fileBytes = fc.oneof(
      fc.constant(png),
      fc.uint8Array({ maxLength: 256 }),
      fc.constant(new Uint8Array()),
      fc.constant(png.slice(0, 20)),
    )
    const multipart = fc
      .record({
        field: fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })),
        bytes: fileBytes,
        name: fc.oneof(
          fc.constantFrom('poster.png', 'a.jpg', 'x.webp', 'a\u0000.png', '../../etc/passwd', ''),
          fc.string({ maxLength: 20 }),
        ),
        type: fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'text/html', 'application/octet-stream', ''),
        asText: fc.boolean(),
      })
      .map(({ field, bytes, name, type, asText }) => {
        const form = new FormData()
        if (asText) form.append(field, new TextDecoder().decode(bytes))
        else form.append(field, new File([bytes], name, { type }))
        return { body: form, headers: {} as Record<string, string>, bodyText: `${field}=@${name || 'file'};type=${type}` }
      })
    const malformed = fc
      .constantFrom(
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
        '--b--',
        '',
        'not multipart',
      )
      .map((text) => ({
        body: text,
        bodyText: text,
        headers: { 'content-type': 'multipart/form-data; boundary=b' } as Record<string, string>,
      }))
    return fc.oneof({ weight: 4, arbitrary: multipart }, { weight: 1, arbitrary: malformed })
  }
  // JSON bodies: the fields the document names; where it names none, the document's whole
  // vocabulary of property names (what a client reading the document would try)
  const schema = content['application/json']?.schema as Schema | undefined
  const properties: Record<string, Schema | undefined> =
    schema?.properties ?? Object.fromEntries(vocabulary.map((k) => [k, undefined]))
  const keys = Object.keys(properties)
  const object = fc
    .dictionary(
      fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }),
      fc.constant(0),
      {
        maxKeys: Math.min(keys.length, 14),
      },
    )
    .chain((picked) => {
      const entries = Object.keys(picked).map((k) => jsonValueArbitrary(properties[k], pool).map((v) => [k, v] as const))
      return entries.length ? fc.tuple(...entries).map((e) => Object.fromEntries(e)) : fc.constant({})
    })
  const text = fc.oneof(
    { weight: 8, arbitrary: object.map((o) => JSON.stringify(o)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'null', '[]', '"x"', '{', '{"a":' + '['.repeat(50), '['.repeat(5000) + ']'.repeat(5000)),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  )
  return fc
    .record({
      text,
      type: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/xml',
            'application/json; charset=latin1',
            '',
          ),
        },
      ),
    })
    .map(({ text, type }) => ({
      body: text,
      bodyText: text,
      headers: type ? { 'content-type': type } : ({} as Record<string, string>),
    }))
}

/** Every property name the document mentions: the vocabulary for bodies it does not describe. */
function vocabularyOf(document: Schema): string[] {
  const names = new Set<string>()
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') Object.keys(value).forEach((k) => names.add(k))
      walk(value)
    }
  }
  walk(document)
  return [...names].sort()
}

function requestArbitrary(
  operation: Operation,
  vocabulary: string[],
  pools: Record<string, string[]>,
  adminCookie?: string,
): fc.Arbitrary<FuzzRequest> {
  const params = (operation.op.parameters ?? []) as Schema[]
  const pathParams = params.filter((p) => p.in === 'path')
  const queryParams = params.filter((p) => p.in === 'query')
  // a path template with a wildcard (/media/uploads/*) takes any tail
  const wildcard = operation.path.includes('*')
  const pathArb = fc
    .tuple(
      ...pathParams.map((p) =>
        valueArbitrary({ ...(p.schema ?? {}), maxLength: undefined }, pools[p.name] ?? pools.slug ?? [], true),
      ),
      wildcard
        ? fc.oneof(
            fc.constantFrom(...(pools.media?.length ? pools.media : ['x.png', '2026/01/a.png'])),
            fc.constantFrom(...PATH_HOSTILE),
          )
        : fc.constant(''),
    )
    .map((values) => {
      let path = operation.path
      // a lone `.`/`..` (or %2E) segment is resolved by the URL client into another route
      const segment = (v: string | undefined) => (!v || /^(\.|%2e){1,2}$/i.test(v) ? `x${v ?? ''}` : v)
      pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, segment(values[i]))))
      if (wildcard) path = path.replace('*', segment(values[values.length - 1]))
      return path
    })
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) => fc.option(valueArbitrary(p.schema ?? {}, pools[p.name] ?? []), { freq: 2, nil: undefined })),
      fc.option(fc.constantFrom(...queryParams.map((p) => p.name), 'x', 'page[]'), { freq: 6, nil: undefined }),
    )
    .map((values) => {
      const extra = values.pop() as string | undefined
      const pairs = queryParams.flatMap((p, i) => (values[i] === undefined ? [] : [`${p.name}=${values[i]}`]))
      // now and then a parameter twice, or one the document does not name
      if (extra) pairs.push(`${extra}=1`)
      return pairs.length ? `?${pairs.join('&')}` : ''
    })
  const withBody = operation.method !== 'GET' && operation.op.requestBody
  const admin = operation.path.startsWith('/api/admin') && operation.path !== '/api/admin/login'
  const cookieArb =
    admin && adminCookie
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constant(adminCookie) },
          { weight: 1, arbitrary: fc.constantFrom('', 'admin_session=palsu', 'admin_session=%00') },
        )
      : fc.constant('')
  return fc
    .record({
      path: pathArb,
      query: queryArb,
      body: withBody ? bodyArbitrary(operation.op, vocabulary, pools.body ?? []) : fc.constant(undefined),
      cookie: cookieArb,
    })
    .map(({ path, query, body, cookie }) => {
      const headers: Record<string, string> = { ...(body?.headers ?? {}) }
      if (cookie) headers.cookie = cookie
      return {
        operation: `${operation.method} ${operation.path}`,
        method: operation.method,
        path: path + query,
        headers,
        body: body?.body,
        bodyText: body?.bodyText,
      }
    })
}

/** Real values to draw from: slugs and ids that exist, so valid requests reach real rows. */
async function poolsOf(base: string): Promise<Record<string, string[]>> {
  const pools: Record<string, string[]> = {
    slug: [],
    id: [],
    kategori: [],
    kota: [],
    tag: [],
    q: ['jazz', 'festival', 'bandung', 'lari'],
    url: [],
    media: [],
  }
  const list = async (path: string) =>
    (
      (await fetch(base + path)
        .then((r) => r.json())
        .catch(() => ({}))) as any
    ).data ?? []
  for (const e of await list('/api/events?limit=30')) {
    pools.slug!.push(e.slug)
    pools.id!.push(e.id)
  }
  for (const c of await list('/api/categories?limit=30'))
    (pools.kategori!.push(c.slug), pools.slug!.push(c.slug), pools.body?.push(c.id))
  for (const c of await list('/api/cities?limit=30')) (pools.kota!.push(c.slug), pools.slug!.push(c.slug))
  for (const t of await list('/api/tags?limit=30')) pools.tag!.push(t.slug)
  for (const n of await list('/api/news?limit=20')) pools.slug!.push(n.slug)
  pools.url = [
    'https://example.com/a.png',
    'http://127.0.0.1/x',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://[::ffff:127.0.0.1]/',
    'ftp://x',
    'javascript:alert(1)',
  ]
  pools.body = [...pools.id!, ...(pools.kategori ?? [])]
  return pools
}

export function curlOf(base: string, r: FuzzRequest): string {
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`
  const parts = [`curl -i -X ${r.method} ${q(base + r.path)}`]
  for (const [k, v] of Object.entries(r.headers)) parts.push(`-H ${q(`${k}: ${v}`)}`)
  if (r.body instanceof FormData) parts.push(`-F ${q(r.bodyText ?? 'file=@x')}`)
  else if (r.bodyText !== undefined) parts.push(`--data-raw ${q(r.bodyText.slice(0, 2000))}`)
  return parts.join(' ')
}

/** Generates `runs` requests from the document with `seed`, sends them, returns the failures. */
export async function fuzz(options: FuzzOptions): Promise<{
  sent: number
  failures: FuzzFailure[]
  byStatus: Record<string, number>
  validated: number
  protocolRefusals: number
}> {
  const log = options.log ?? (() => {})
  const document = (await fetch(`${options.base}/api/openapi.json`).then((r) => r.json())) as Schema
  const operations = operationsOf(document)
  const vocabulary = vocabularyOf(document)
  const pools = await poolsOf(options.base)
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true })
  addFormats(ajv)
  const validators = new Map<string, ReturnType<typeof ajv.compile>>()
  const validatorFor = (operation: string, status: number): ReturnType<typeof ajv.compile> | undefined => {
    const key = `${operation} ${status}`
    if (validators.has(key)) return validators.get(key)
    const [method, path] = operation.split(' ')
    const op = document.paths[path!]?.[method!.toLowerCase()]
    const schema = op?.responses?.[String(status)]?.content?.['application/json']?.schema
    const validate = schema ? ajv.compile(standardSchema(schema) as Schema) : undefined
    validators.set(key, validate!)
    return validate
  }
  const arbitrary = fc.oneof(...operations.map((o) => requestArbitrary(o, vocabulary, pools, options.adminCookie)))
  const requests = fc.sample(arbitrary, { seed: options.seed, numRuns: options.runs })
  log(`${operations.length} operations, ${requests.length} requests, seed ${options.seed}`)
  const failures: FuzzFailure[] = []
  const byStatus: Record<string, number> = {}
  let next = 0
  let sent = 0
  let validated = 0
  let protocolRefusals = 0
  const worker = async () => {
    while (next < requests.length) {
      const index = next++
      const request = requests[index]!
      let status = 0
      let text = ''
      let contentType: string | null = null
      try {
        const res = await fetch(options.base + request.path, {
          method: request.method,
          headers: request.headers,
          body: request.body as BodyInit | undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(20_000),
        })
        status = res.status
        contentType = res.headers.get('content-type')
        text = await res.text()
      } catch (error) {
        failures.push({ index, request, status: 0, reason: `request failed: ${error}`, body: '' })
        continue
      }
      sent++
      byStatus[status] = (byStatus[status] ?? 0) + 1
      let reason = judge(status, contentType, text, request.method)
      // refused by Bun's or Go's HTTP server before any application code (hostile.ts)
      if (reason && isProtocolRefusal(status, text, request.path)) {
        protocolRefusals++
        reason = undefined
      }
      if (!reason && status >= 200 && status < 300 && contentType?.includes('application/json')) {
        const validate = validatorFor(request.operation, status)
        if (validate) {
          validated++
          if (!validate(JSON.parse(text))) reason = `2xx does not match its documented schema: ${ajv.errorsText(validate.errors)}`
        }
      }
      if (reason) failures.push({ index, request, status, reason, body: text.slice(0, 300) })
      if (sent % 1000 === 0) log(`${sent} sent, ${failures.length} failures`)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker))
  return { sent, failures, byStatus, validated, protocolRefusals }
}

export function describeFailure(base: string, seed: number, f: FuzzFailure): string {
  return `seed ${seed}, request #${f.index} (${f.request.operation}): ${f.reason}\n  ${curlOf(base, f.request)}\n  -> ${f.status} ${f.body.slice(0, 200)}`
}
