// Post-processing of the generated OpenAPI document so that standard tools accept it (redocly
// lint recommended, Spectral spectral:oas) and generated clients get the right types. Generic:
// everything is derived from what each route already declares (path, params, body, responses),
// so a new route comes out clean with no per-route work; test/openapi.test.ts fails otherwise.
import { MESSAGES } from './errors'

type Json = any
export type OpenApiDocument = Record<string, Json>

export const ADMIN_SESSION_SCHEME = 'admin_session'
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** What each error status means here, the example message of its envelope. */
export const ERROR_RESPONSES: Record<string, { description: string; message: string }> = {
  '400': { description: 'Permintaan tidak valid (parameter, query, atau body)', message: MESSAGES.validation },
  '401': { description: 'Belum login atau sesi admin berakhir', message: 'Sesi tidak valid atau telah berakhir' },
  '403': { description: 'Ditolak (misalnya permintaan lintas situs)', message: 'Permintaan lintas situs ditolak' },
  '404': { description: 'Tidak ditemukan', message: MESSAGES.notFound },
  '409': { description: 'Bertentangan dengan keadaan data saat ini', message: 'Status event tidak memungkinkan tindakan ini' },
  '413': { description: 'Body melebihi batas ukuran', message: MESSAGES.tooLarge },
  '415': { description: 'Jenis konten tidak didukung', message: 'Jenis konten tidak didukung' },
  '422': {
    description: 'Berkas tidak dapat diproses (gambar rusak atau terlalu besar)',
    message: 'Berkas tidak dapat diproses sebagai gambar',
  },
  '429': { description: 'Terlalu banyak permintaan; lihat Retry-After', message: MESSAGES.rateLimited },
  '503': {
    description: 'Layanan (database atau penyimpanan) sedang tidak tersedia; lihat Retry-After',
    message: MESSAGES.unavailable,
  },
}

/** Whether an operation needs the admin session cookie: the admin API, except logging in. */
export function needsAdminSession(path: string): boolean {
  return path.startsWith('/api/admin/') && path !== '/api/admin/login'
}

/** A JSON schema cleaned for OpenAPI 3.0: TypeBox/Elysia extras out, numeric strings typed as numbers. */
export function cleanSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(cleanSchema)
  if (!schema || typeof schema !== 'object') return schema
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    // TypeBox's custom error messages are not JSON Schema
    if (key === 'error' || key === 'errorMessage') continue
    out[key] = key === 'properties' || key === 'patternProperties' ? mapValues(value, cleanSchema) : cleanSchema(value)
  }
  // JSON Schema 2020 forms OpenAPI 3.0 does not have
  if (Array.isArray(out.examples)) {
    if (out.example === undefined && out.examples.length) out.example = out.examples[0]
    delete out.examples
  }
  if (typeof out.exclusiveMinimum === 'number') {
    out.minimum = out.exclusiveMinimum
    out.exclusiveMinimum = true
  }
  if (typeof out.exclusiveMaximum === 'number') {
    out.maximum = out.exclusiveMaximum
    out.exclusiveMaximum = true
  }
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t: string) => t !== 'null')
    const nullable = types.length < out.type.length
    if (types.length === 1) {
      out.type = types[0]
      if (nullable) out.nullable = true
    } else {
      // OpenAPI 3.0: `nullable` needs a `type` beside it, so it goes on each branch
      delete out.type
      out.anyOf = types.map((type: string) => (nullable ? { type, nullable: true } : { type }))
    }
  }
  if (Array.isArray(out.anyOf) && out.anyOf.some(isNullSchema)) {
    const rest = out.anyOf.filter((s: Json) => !isNullSchema(s))
    if (rest.length === 1) {
      const { anyOf: _drop, ...others } = out
      return cleanSchema({ ...others, ...rest[0], nullable: true })
    }
    out.anyOf = rest.map((s: Json) => (s.type ? { ...s, nullable: true } : s))
  }
  if (out.type === 'null') {
    delete out.type
    out.nullable = true
  }
  // OpenAPI 3.0 has no `patternProperties` (TypeBox's t.Record): any key, values of that schema
  if (out.patternProperties && typeof out.patternProperties === 'object') {
    const schemas = Object.values<Json>(out.patternProperties)
    if (out.additionalProperties === undefined || out.additionalProperties === false)
      out.additionalProperties = schemas.length === 1 ? schemas[0] : true
    delete out.patternProperties
  }
  // OpenAPI 3.0 has no `const`
  if ('const' in out) {
    out.enum = [out.const]
    delete out.const
  }
  // Elysia's t.Numeric: anyOf [numeric string, number]; the wire type is the number
  if (Array.isArray(out.anyOf)) {
    const numeric = out.anyOf.filter((s: Json) => s?.type === 'integer' || s?.type === 'number')
    const stringy = out.anyOf.filter((s: Json) => s?.type === 'string' && ['integer', 'numeric'].includes(s?.format))
    if (numeric.length === 1 && stringy.length + numeric.length === out.anyOf.length) {
      const { anyOf: _drop, ...rest } = out
      return cleanSchema({ ...rest, ...numeric[0] })
    }
    // a union of literals of one type is an enum
    const literals = out.anyOf.every((s: Json) => Array.isArray(s?.enum) && s.enum.length === 1 && !s.properties)
    if (literals && out.anyOf.length > 0) {
      const values = out.anyOf.map((s: Json) => s.enum[0])
      const types = new Set(values.map(jsonType))
      if (types.size === 1) {
        const { anyOf: _drop, ...rest } = out
        return { ...rest, type: [...types][0], enum: values }
      }
    }
  }
  // enum values decide the type (0/1 flags were typed string)
  if (Array.isArray(out.enum) && out.enum.length) {
    const types = new Set(out.enum.filter((v: unknown) => v !== null).map(jsonType))
    if (types.size === 1) out.type = [...types][0]
  }
  // OpenAPI 3.0: `nullable` needs a `type` beside it; on a union it goes to each branch
  const union = out.anyOf ? 'anyOf' : out.oneOf ? 'oneOf' : undefined
  if (out.nullable && !out.type && union) {
    out[union] = out[union].map((s: Json) => (s?.type ? { ...s, nullable: true } : s))
    delete out.nullable
  }
  if (
    'default' in out &&
    out.type &&
    jsonType(out.default) !== out.type &&
    !(out.type === 'number' && typeof out.default === 'number')
  )
    delete out.default
  return out
}

// `{type: 'null'}`, or what cleanSchema already made of it
function isNullSchema(s: Json): boolean {
  return s?.type === 'null' || (s?.nullable === true && Object.keys(s).length === 1)
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

function mapValues(object: Json, fn: (v: Json) => Json): Json {
  if (!object || typeof object !== 'object') return object
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, fn(v)]))
}

/** An example value built from a schema: its own example, default or first enum, else by type. */
export function exampleOf(schema: Json, components: Json, depth = 0): Json {
  if (!schema || depth > 8) return null
  if (schema.$ref) return exampleOf(components?.schemas?.[String(schema.$ref).split('/').pop()!], components, depth + 1)
  if (schema.example !== undefined) return schema.example
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0]
  const branch = schema.anyOf ?? schema.oneOf
  if (Array.isArray(branch)) {
    const nonNull = branch.find((s: Json) => s?.type !== 'null') ?? branch[0]
    return exampleOf(nonNull, components, depth + 1)
  }
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((s: Json) => exampleOf(s, components, depth + 1)))
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const out: Json = {}
      for (const [key, value] of Object.entries(schema.properties ?? {})) out[key] = exampleOf(value, components, depth + 1)
      return out
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items, components, depth + 1)] : []
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1
    case 'boolean':
      return true
    case 'string':
      if (schema.format === 'date-time') return '2026-08-17T19:00:00+07:00'
      if (schema.format === 'date') return '2026-08-17'
      if (schema.format === 'uri' || schema.format === 'url') return 'https://contoh.id/media/uploads/poster.webp'
      if (schema.format === 'email') return 'panitia@contoh.id'
      return typeof schema.minLength === 'number' && schema.minLength > 6 ? 'x'.repeat(schema.minLength) : 'contoh'
    default:
      return null
  }
}

function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/\{([^}]+)\}/g, 'by $1')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
}

function errorResponse(status: string, existing?: Json): Json {
  const meta = ERROR_RESPONSES[status] ?? { description: 'Kesalahan', message: MESSAGES.internal }
  return {
    description: existing?.description && existing.description !== 'Amplop kesalahan' ? existing.description : meta.description,
    ...(status === '429' || status === '503'
      ? { headers: { 'Retry-After': { description: 'Detik sebelum mencoba lagi', schema: { type: 'integer' } } } }
      : {}),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorEnvelope' },
        example: { success: false, error: meta.message },
      },
    },
  }
}

export interface FinishOptions {
  /** Extra entries for the `servers` list (the document's own origin, `/`, always comes first). */
  servers?: { url: string; description?: string }[]
}

/**
 * The document as published: servers, the admin cookie as a security scheme on every admin
 * operation, an operationId/summary/description on every operation, the error responses each
 * operation can give (envelope schema and example), examples on success responses, schemas
 * cleaned for OpenAPI 3.0. Idempotent, so the gateway may run it again on merged documents.
 */
export function finishDocument(raw: OpenApiDocument, options: FinishOptions = {}): OpenApiDocument {
  const doc: OpenApiDocument = structuredClone(raw)
  doc.openapi = '3.0.3'
  doc.info = {
    ...doc.info,
    contact: doc.info?.contact ?? { name: 'Tim Event Catalog' },
    license: doc.info?.license ?? { name: 'Proprietary' },
  }
  doc.servers = [
    { url: '/', description: 'Server yang menyajikan dokumen ini' },
    ...(options.servers ?? []).filter((s) => s.url !== '/'),
  ]
  const components = (doc.components ??= {})
  components.schemas = mapValues(components.schemas ?? {}, cleanSchema)
  components.securitySchemes = {
    ...components.securitySchemes,
    [ADMIN_SESSION_SCHEME]: {
      type: 'apiKey',
      in: 'cookie',
      name: ADMIN_SESSION_SCHEME,
      description: 'Cookie sesi dari POST /api/admin/login (HttpOnly, SameSite=Lax).',
    },
  }
  const used = new Set<string>()
  const paths: Json = {}
  for (const [rawPath, item] of Object.entries<Json>(doc.paths ?? {})) {
    // a wildcard route (`/media/uploads/*`) is a path parameter in OpenAPI terms
    const path = rawPath.replace(/\/\*$/, '/{path}')
    paths[path] = item
    for (const method of METHODS) {
      const operation = item[method]
      if (!operation) continue
      finishOperation(operation, method, path, rawPath !== path, components, used)
    }
  }
  doc.paths = paths
  // tags an operation uses must be declared once
  const declared = new Set((doc.tags ?? []).map((t: Json) => t.name))
  for (const item of Object.values<Json>(paths))
    for (const method of METHODS)
      for (const tag of item[method]?.tags ?? [])
        if (!declared.has(tag)) {
          declared.add(tag)
          ;(doc.tags ??= []).push({ name: tag })
        }
  for (const tag of doc.tags ?? []) tag.description ??= tag.name
  return doc
}

function finishOperation(operation: Json, method: string, path: string, wildcard: boolean, components: Json, used: Set<string>) {
  let id = /^[A-Za-z][A-Za-z0-9]*$/.test(operation.operationId ?? '') ? operation.operationId : operationIdOf(method, path)
  while (used.has(id)) id += '2'
  used.add(id)
  operation.operationId = id
  operation.summary ??= `${method.toUpperCase()} ${path}`
  operation.description ??= operation.summary
  if (!operation.tags?.length) operation.tags = ['Sistem']
  operation.parameters = (operation.parameters ?? []).map((p: Json) => ({
    ...p,
    description: p.description ?? p.schema?.description ?? p.name,
    schema: cleanSchema(p.schema),
  }))
  if (wildcard && !operation.parameters.some((p: Json) => p.in === 'path' && p.name === 'path'))
    operation.parameters.push({
      name: 'path',
      in: 'path',
      required: true,
      description: 'Sisa path berkas (kunci di penyimpanan)',
      schema: { type: 'string' },
    })
  if (!operation.parameters.length) delete operation.parameters
  if (operation.requestBody?.content)
    for (const media of Object.values<Json>(operation.requestBody.content)) media.schema = cleanSchema(media.schema)

  const secured = needsAdminSession(path)
  operation.security = secured ? [{ [ADMIN_SESSION_SCHEME]: [] }] : []
  const responses = (operation.responses ??= {})
  if (!Object.keys(responses).some((s) => s.startsWith('2')))
    responses['200'] = wildcard
      ? { description: 'Berkas', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
      : { description: 'Berhasil' }
  const hasInput = Boolean(operation.parameters?.length || operation.requestBody)
  const errors = new Set(Object.keys(responses).filter((s) => /^[45]\d\d$/.test(s)))
  if (hasInput) errors.add('400')
  if (secured) errors.add('401')
  if (path.includes('{')) errors.add('404')
  if (operation.requestBody) errors.add('413')
  if (path !== '/health') errors.add('503')
  for (const status of errors) responses[status] = errorResponse(status, responses[status])
  for (const [status, response] of Object.entries<Json>(responses)) {
    response.description ??= status.startsWith('2') ? 'Berhasil' : 'Kesalahan'
    // success and redirect answers keep their own schema (errors got the envelope above)
    if (!/^[23]/.test(status)) continue
    for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
      media.schema = cleanSchema(media.schema)
      if (media.example === undefined && media.examples === undefined && type.includes('json') && media.schema)
        media.example = exampleOf(media.schema, components)
    }
  }
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)))
}
