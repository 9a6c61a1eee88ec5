import { Elysia } from 'elysia'

/**
 * CORS for every service. Three kinds of request:
 * - public reads (GET/HEAD outside /api/admin): any origin, `Access-Control-Allow-Origin: *`,
 *   never credentials, so a page anywhere can show the catalogue;
 * - writes (submit, upload, check-file: any other method outside /api/admin): only origins in
 *   CORS_ORIGINS, without credentials;
 * - the admin API (/api/admin/*): only origins in CORS_ORIGINS, with credentials (the session cookie).
 * A disallowed origin gets no CORS header at all, so the browser refuses to hand over the answer.
 */
export type CorsKind = 'public' | 'write' | 'admin'

export const CORS_MAX_AGE_SECONDS = 600
export const CORS_ALLOWED_HEADERS = 'Content-Type, If-None-Match, X-Request-Id'
export const CORS_EXPOSED_HEADERS = 'ETag, X-Request-Id, Retry-After, Location, Content-Disposition'
const PUBLIC_METHODS = 'GET, HEAD, OPTIONS'
const WRITE_METHODS = 'GET, HEAD, POST, OPTIONS'
const ADMIN_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'

export function corsKind(pathname: string, method: string): CorsKind {
  if (pathname === '/api/admin' || pathname.startsWith('/api/admin/')) return 'admin'
  return method === 'GET' || method === 'HEAD' ? 'public' : 'write'
}

/** The CORS headers of an answer to `origin` for a request of `kind` (empty: not allowed). */
export function corsHeaders(kind: CorsKind, origin: string | null, allowed: ReadonlySet<string>): Record<string, string> {
  if (!origin) return kind === 'public' ? {} : { vary: 'Origin' }
  if (kind === 'public') return { 'access-control-allow-origin': '*', 'access-control-expose-headers': CORS_EXPOSED_HEADERS }
  if (!allowed.has(origin)) return { vary: 'Origin' }
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': CORS_EXPOSED_HEADERS,
    ...(kind === 'admin' ? { 'access-control-allow-credentials': 'true' } : {}),
    vary: 'Origin',
  }
}

/** The answer to a preflight: 204, with the methods and headers allowed when the origin is. */
export function preflight(request: Request, allowed: ReadonlySet<string>): Response {
  const url = new URL(request.url)
  const method = (request.headers.get('access-control-request-method') ?? 'GET').toUpperCase()
  const kind = corsKind(url.pathname, method)
  const headers = corsHeaders(kind, request.headers.get('origin'), allowed)
  if (headers['access-control-allow-origin']) {
    delete headers['access-control-expose-headers']
    headers['access-control-allow-methods'] = kind === 'admin' ? ADMIN_METHODS : kind === 'write' ? WRITE_METHODS : PUBLIC_METHODS
    headers['access-control-allow-headers'] = CORS_ALLOWED_HEADERS
    headers['access-control-max-age'] = String(CORS_MAX_AGE_SECONDS)
  }
  // the answer depends on the method asked for (public read or write) as well as the origin
  headers.vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'
  return new Response(null, { status: 204, headers })
}

function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method')
}

/** Parses CORS_ORIGINS: comma-separated origins (scheme://host[:port]); throws a message on a bad entry. */
export function parseCorsOrigins(raw: string | undefined): string[] {
  const origins = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const origin of origins) {
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {}
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin)
      throw new Error(`CORS_ORIGINS entry "${origin}" is not an origin like https://app.example.id (no path, no trailing slash)`)
  }
  return origins
}

/** The kit plugin: preflights answered here, CORS headers added to every other answer (errors included). */
export const cors = (origins: readonly string[] = []) => {
  const allowed = new Set(origins)
  return new Elysia({ name: 'kit.cors', seed: origins.join(',') })
    .onRequest(({ request, set }) => {
      if (isPreflight(request)) return preflight(request, allowed)
      const headers = corsHeaders(corsKind(new URL(request.url).pathname, request.method), request.headers.get('origin'), allowed)
      Object.assign(set.headers, headers)
    })
    .as('global')
}
