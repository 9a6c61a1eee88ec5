import { Elysia, t } from 'elysia'
import { errorCode, isDatabaseUnavailable, sqlState } from '@app/db'
import { requestIdOf, type Logger } from './request-log'

export type FieldError = { field: string; message: string }

/** An error with an HTTP status and an Indonesian message for people. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly details?: FieldError[],
    public readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

/** Storage, database or another dependency cannot serve now. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = MESSAGES.unavailable) {
    super(503, message)
  }
}

export const MESSAGES = {
  notFound: 'Halaman atau endpoint tidak ditemukan',
  malformedJson: 'Format JSON tidak valid',
  validation: 'Data yang dikirim tidak valid',
  tooLarge: 'Ukuran data melebihi batas yang diizinkan',
  rateLimited: 'Terlalu banyak permintaan, coba lagi nanti',
  unavailable: 'Layanan sedang tidak tersedia, coba lagi nanti',
  internal: 'Terjadi kesalahan pada server',
  conflict: 'Data bertentangan dengan data yang sudah ada, coba lagi',
} as const

/** The error envelope as a schema, for route `response` maps and the OpenAPI document. */
export const errorResponse = t.Object(
  {
    success: t.Literal(false),
    error: t.String({ description: 'Pesan kesalahan dalam bahasa Indonesia' }),
    details: t.Optional(t.Array(t.Object({ field: t.String(), message: t.String() }))),
  },
  { description: 'Amplop kesalahan' },
)

export type Envelope = { success: false; error: string; details?: FieldError[] }

export function envelope(status: number, error: string, details?: FieldError[], headers?: Record<string, string>) {
  const body: Envelope = { success: false, error }
  if (details?.length) body.details = details
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

// Indonesian text for TypeBox failure kinds, when the schema carries no `error` of its own.
function describe(kind: number, schema: any): string {
  switch (true) {
    case schema?.anyOf !== undefined || schema?.enum !== undefined:
      return 'nilai tidak dikenali'
    case schema?.type === 'integer' || schema?.type === 'number':
      if (schema?.minimum !== undefined && schema?.maximum !== undefined)
        return `harus berupa angka antara ${schema.minimum} dan ${schema.maximum}`
      if (schema?.minimum !== undefined) return `harus berupa angka minimal ${schema.minimum}`
      return 'harus berupa angka'
    case schema?.type === 'string':
      if (schema?.maxLength !== undefined && kind !== 54 /* String */) return `maksimal ${schema.maxLength} karakter`
      return 'harus berupa teks'
    case schema?.type === 'boolean':
      return 'harus berupa true atau false'
    case schema?.type === 'array':
      return 'harus berupa daftar'
    case schema?.type === 'object':
      return 'harus berupa objek'
    default:
      return 'tidak valid'
  }
}

/** Turns an Elysia validation error into field errors with Indonesian messages. */
export function fieldErrors(error: any): FieldError[] {
  const seen = new Set<string>()
  const out: FieldError[] = []
  let all: any[] = []
  try {
    all = error.all ?? []
  } catch {
    all = []
  }
  for (const e of all) {
    const custom = typeof e.schema?.error === 'string' ? e.schema.error : undefined
    // coerced query values (page, limit) are checked one by one and come without a path; our
    // own messages always start with the field name, so that names the field
    const field =
      String(e.path ?? '')
        .replace(/^\//, '')
        .replace(/\//g, '.') ||
      custom?.split(' ')[0] ||
      String(error.type ?? 'body')
    if (seen.has(field)) continue
    seen.add(field)
    const missing = e.value === undefined
    out.push({ field, message: custom ?? (missing ? `${field} wajib diisi` : `${field} ${describe(e.type, e.schema)}`) })
  }
  return out
}

/**
 * The one place that maps every failure to `{success: false, error}`: unknown routes, malformed
 * JSON, validation (400 instead of Elysia's 422), HttpError, database down (503) and anything
 * unexpected (500, logged with the request id, never shown to the client).
 */
export const errorEnvelope = (logger: Logger) =>
  new Elysia({ name: 'kit.error-envelope' }).onError({ as: 'global' }, (context) => {
    const response = toEnvelope(context, logger)
    // so the request log line shows the status actually sent
    context.set.status = response.status
    return response
  })

function toEnvelope({ code, error, request }: { code: unknown; error: unknown; request: Request }, logger: Logger): Response {
  // Elysia wraps what a parse hook throws (our 413 for an oversized body) in a ParseError
  const httpError =
    error instanceof HttpError ? error : (error as any)?.cause instanceof HttpError ? (error as any).cause : undefined
  if (httpError) return envelope(httpError.status, httpError.message, httpError.details, httpError.headers)
  switch (code) {
    case 'NOT_FOUND':
      return envelope(404, MESSAGES.notFound)
    case 'PARSE':
      return envelope(400, MESSAGES.malformedJson)
    case 'VALIDATION': {
      const details = fieldErrors(error)
      return envelope(400, details[0]?.message ?? MESSAGES.validation, details)
    }
    case 'INVALID_COOKIE_SIGNATURE':
      return envelope(401, 'Sesi tidak valid atau telah berakhir')
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn('database unavailable', {
      request_id: requestIdOf(request),
      code: errorCode(error),
      error: String((error as any)?.message ?? error),
    })
    return envelope(503, MESSAGES.unavailable, undefined, { 'retry-after': '5' })
  }
  // 40: the transaction lost to a concurrent one (deadlock, serialization failure) after the
  // writer's own retries; nothing was written, trying again later succeeds
  if (sqlState(error)?.startsWith('40')) {
    logger.warn('transaction lost to a concurrent one', { request_id: requestIdOf(request), sqlstate: sqlState(error) })
    return envelope(503, MESSAGES.unavailable, undefined, { 'retry-after': '1' })
  }
  // 42P01 undefined table, 42703 undefined column, 42883 undefined function, 3F000 no schema: the
  // database's schema is behind this build (a service started before the migrations ran). A
  // fault of the deployment, not of the request: 503, logged as an error so it gets fixed.
  if (SCHEMA_BEHIND.has(sqlState(error) ?? '')) {
    logger.error('database schema behind this build: run the migrations (bun run db:migrate)', {
      request_id: requestIdOf(request),
      sqlstate: sqlState(error),
      error: String((error as any)?.message ?? error),
    })
    return envelope(503, MESSAGES.unavailable, undefined, { 'retry-after': '5' })
  }
  const refused = refusedByDatabase(sqlState(error))
  if (refused) {
    // input the edge should have refused: answered as the client's error, logged so the edge
    // rule that let it through gets written
    logger.warn('database refused input', {
      request_id: requestIdOf(request),
      sqlstate: sqlState(error),
      error: String((error as any)?.message ?? error),
    })
    return envelope(refused.status, refused.message)
  }
  const status = (error as any)?.status
  if (typeof status === 'number' && status === 413) return envelope(413, MESSAGES.tooLarge)
  // Elysia's and Bun's own client errors (malformed cookie, unsupported media type, ...)
  if (typeof status === 'number' && status >= 400 && status < 500) return envelope(status, MESSAGES.validation)
  logger.error('unhandled error', {
    request_id: requestIdOf(request),
    error: String((error as any)?.stack ?? error),
  })
  return envelope(500, MESSAGES.internal)
}

const SCHEMA_BEHIND = new Set(['42P01', '42703', '42883', '3F000'])

/**
 * SQLSTATE classes that mean "this input cannot be stored or compared", on postgres.js and PGlite
 * alike: 22 data exception (22P02 invalid text representation, 22003 numeric out of range, 22001
 * string too long, 22021 invalid byte sequence, 22007 invalid datetime, ...), 54 program limit
 * exceeded (54000 e.g. a too-long tsquery or index row), 23 integrity constraint (a unique or
 * foreign key a concurrent write won).
 */
export function refusedByDatabase(state: string | undefined): { status: number; message: string } | undefined {
  if (!state) return undefined
  if (state.startsWith('22') || state.startsWith('54')) return { status: 400, message: MESSAGES.validation }
  if (state.startsWith('23')) return { status: 409, message: MESSAGES.conflict }
  return undefined
}
