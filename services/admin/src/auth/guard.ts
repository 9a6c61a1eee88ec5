import { Elysia, type Cookie } from 'elysia'
import { HttpError } from '@app/kit'
import type { AdminDeps } from '../deps'
import { isCrossSite, peerIsTrusted } from './cross-site'
import { findSession, MESSAGES, SESSION_ABSOLUTE_SECONDS, type AdminSession } from './service'

/** Name of the HttpOnly session cookie. */
export const SESSION_COOKIE = 'admin_session'

type CookieJar = Record<string, Cookie<unknown>>

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when configured, 8 h. */
export function setSessionCookie(cookie: CookieJar, token: string, secure: boolean): void {
  cookie[SESSION_COOKIE].set({
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: SESSION_ABSOLUTE_SECONDS,
  })
}

/** Tells the browser to drop the session cookie (same attributes, Max-Age=0). */
export function clearSessionCookie(cookie: CookieJar, secure: boolean): void {
  cookie[SESSION_COOKIE].set({
    value: '',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: 0,
    expires: new Date(0),
  })
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Route options for the admin routes:
 * - `sameOrigin: true` refuses a cross-site browser request with 403 (login);
 * - `adminSession: true` requires a live session cookie (401 otherwise) and resolves `admin`
 *   and `session`; on a state-changing method it first refuses cross-site requests (403).
 * Both mark the response `Cache-Control: no-store`. The checks run in `transform`, i.e. before
 * query/body validation, so a request without a session gets 401 whatever else it sends.
 */
export const adminGuard = (deps: AdminDeps) => {
  const sessions = new WeakMap<Request, AdminSession>()
  const trustedOrigins = new Set(deps.corsOrigins ?? [])
  const refuseCrossSite = (request: Request, server: Parameters<typeof peerIsTrusted>[1]) => {
    // an origin named in CORS_ORIGINS is the admin's own front-end on another origin
    if (trustedOrigins.has(request.headers.get('origin') ?? '')) return
    if (isCrossSite(request, peerIsTrusted(request, server, deps.trustedProxies))) throw new HttpError(403, MESSAGES.crossSite)
  }
  return new Elysia().macro({
    sameOrigin: {
      transform({ request, server, set }) {
        set.headers['cache-control'] = 'no-store'
        refuseCrossSite(request, server)
      },
    },
    adminSession: {
      async transform({ request, server, cookie, set }) {
        set.headers['cache-control'] = 'no-store'
        if (WRITE_METHODS.has(request.method)) refuseCrossSite(request, server)
        const token = cookie[SESSION_COOKIE].value
        const session = await findSession(deps.database, token)
        if (!session) {
          // a dead or forged cookie is useless: let the browser drop it
          if (token !== undefined) clearSessionCookie(cookie, deps.cookieSecure)
          throw new HttpError(401, MESSAGES.invalidSession)
        }
        // a session is not enough: the admin area is for the studio roles only (owner, editor;
        // migration 0010 turned the former 'admin' into 'owner'; a row with another role, made by
        // hand or by a later feature, gets nothing here)
        if (session.user.role !== 'owner' && session.user.role !== 'editor')
          throw new HttpError(403, 'Akun ini tidak memiliki akses admin')
        sessions.set(request, session)
      },
      resolve({ request }) {
        const session = sessions.get(request)
        if (!session) throw new HttpError(401, MESSAGES.invalidSession)
        return { admin: session.user, session }
      },
    },
  })
}
