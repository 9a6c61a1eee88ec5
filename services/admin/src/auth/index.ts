import { Elysia } from 'elysia'
import { clientAddress, errorResponse } from '@app/kit'
import type { AdminDeps } from '../deps'
import { adminGuard, clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './guard'
import { loginBody, messageResponse, userResponse } from './model'
import { login, revokeSession, revokeToken } from './service'

const COOKIE_NOTE = `Cookie sesi \`${SESSION_COOKIE}\` (HttpOnly, SameSite=Lax, Path=/, Secure bila COOKIE_SECURE=true).`

/** Login, logout and the current user. */
export const authRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin.auth' })
    .use(adminGuard(deps))
    .post(
      '/api/admin/login',
      async ({ body, cookie, request, server }) => {
        const ip = clientAddress(request, server, deps.trustedProxies)
        const { user, token } = await login(deps.database, {
          username: body.username,
          password: body.password,
          ip,
          userAgent: request.headers.get('user-agent') ?? '',
          maxFailures: deps.loginMaxFailures,
        })
        // a fresh token at every login: a session the browser still carried ends here
        await revokeToken(deps.database, cookie[SESSION_COOKIE].value)
        setSessionCookie(cookie, token, deps.cookieSecure)
        return { success: true as const, user }
      },
      {
        sameOrigin: true,
        body: loginBody,
        response: { 200: userResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse, 429: errorResponse },
        detail: {
          tags: ['Admin'],
          summary: 'Login admin',
          description: `Mengatur ${COOKIE_NOTE} Sesi berakhir 8 jam setelah login atau setelah 2 jam tidak dipakai. Setelah ${deps.loginMaxFailures} kali gagal dalam 15 menit untuk satu username atau satu alamat: 429 dengan Retry-After.`,
        },
      },
    )
    .post(
      '/api/admin/logout',
      async ({ session, cookie }) => {
        await revokeSession(deps.database, session.sessionId)
        clearSessionCookie(cookie, deps.cookieSecure)
        return { success: true as const, message: 'Berhasil keluar' }
      },
      {
        adminSession: true,
        response: { 200: messageResponse, 401: errorResponse, 403: errorResponse },
        detail: { tags: ['Admin'], summary: 'Logout (mengakhiri sesi di server)' },
      },
    )
    .get('/api/admin/me', ({ admin }) => ({ success: true as const, user: admin }), {
      adminSession: true,
      response: { 200: userResponse, 401: errorResponse },
      detail: { tags: ['Admin'], summary: 'Admin yang sedang login' },
    })
