// OWASP API Security Top 10 (2023), over real HTTP against the whole app:
//   API2 Broken Authentication: session fixation, reuse after logout, expired and idle sessions,
//        forged tokens, cross-site use of the cookie, cookie attributes.
//   API5 Broken Function Level Authorization: every admin route, enumerated from the app itself
//        (so a new admin route is covered without editing this test), refuses a missing, forged,
//        revoked, expired or non-admin session.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ADMIN, startWholeApp, type WholeApp } from './whole-app'
import { adminCookie, postJson, send } from './helpers'

let whole: WholeApp
let base: string

beforeAll(async () => {
  whole = await startWholeApp()
  base = whole.base
}, 60_000)
afterAll(async () => {
  await whole?.stop()
}, 30_000)

const SOME_ID = '0190a0a0-0000-7000-8000-000000000000'

/** The admin routes that need a session: every /api/admin/* route but login. */
function adminRoutes() {
  const routes = whole.routes
    .filter((r) => r.path.startsWith('/api/admin/') && r.path !== '/api/admin/login' && r.method !== 'OPTIONS')
    .map((r) => ({ method: r.method, path: r.path.replace(/:[A-Za-z_]+/g, SOME_ID).replace(/\*$/, 'x') }))
  return [...new Map(routes.map((r) => [`${r.method} ${r.path}`, r])).values()]
}

const call = (route: { method: string; path: string }, cookie?: string) =>
  send(base, route.path, {
    method: route.method,
    headers: { ...(cookie ? { cookie } : {}), origin: base, 'content-type': 'application/json' },
    body: route.method === 'GET' || route.method === 'HEAD' ? undefined : '{}',
  })

async function tokenRow(cookie: string) {
  const token = cookie.split('=')[1]!
  const hash = new Bun.CryptoHasher('sha256').update(token).digest('hex')
  return hash
}

describe('API5: every admin route refuses a request without a live admin session', () => {
  test('the app has admin routes to check (enumerated, not listed by hand)', () => {
    const routes = adminRoutes()
    expect(routes.length).toBeGreaterThanOrEqual(5)
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/admin/me', '/api/admin/events']))
  })

  test('no cookie, an empty one, a forged token, a token of the wrong shape: 401 envelope on every route', async () => {
    const forged = `admin_session=${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
    for (const route of adminRoutes())
      for (const cookie of [undefined, 'admin_session=', forged, 'admin_session=admin', 'session=' + 'a'.repeat(43)]) {
        const res = await call(route, cookie)
        expect(res.status, `${route.method} ${route.path} with ${cookie}`).toBe(401)
        expect(res.body.success).toBe(false)
      }
  })

  test('a session of a user whose role is not admin: refused on every route', async () => {
    const viewer = { username: 'pengamat', password: 'kata-sandi-pengamat-2026' }
    const hash = await Bun.password.hash(viewer.password, { algorithm: 'argon2id' })
    await whole.database.rows(
      sql`insert into admin_users (id, username, name, role, password_hash) values (${crypto.randomUUID()}, ${viewer.username}, 'Pengamat', 'viewer', ${hash})`,
    )
    const login = await postJson(base, '/api/admin/login', viewer)
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('admin_session='))
      ?.split(';')[0]
    for (const route of adminRoutes()) {
      const res = await call(route, cookie)
      expect([401, 403], `${route.method} ${route.path}`).toContain(res.status)
      expect(res.body.success).toBe(false)
    }
  })
})

describe('API2: sessions', () => {
  test('session fixation: a token the browser carried before login is never the session', async () => {
    const planted = `admin_session=${'A'.repeat(43)}`
    const res = await postJson(base, '/api/admin/login', ADMIN, { cookie: planted })
    expect(res.status).toBe(200)
    const issued = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('admin_session='))!
      .split(';')[0]!
    expect(issued).not.toBe(planted)
    expect(issued.length).toBeGreaterThan('admin_session='.length + 30)
    expect((await send(base, '/api/admin/me', { headers: { cookie: planted } })).status).toBe(401)
    // and logging in again replaces the session: the old token dies
    const again = await postJson(base, '/api/admin/login', ADMIN, { cookie: issued })
    const second = again.headers
      .getSetCookie()
      .find((c) => c.startsWith('admin_session='))!
      .split(';')[0]!
    expect(second).not.toBe(issued)
    expect((await send(base, '/api/admin/me', { headers: { cookie: issued } })).status).toBe(401)
    expect((await send(base, '/api/admin/me', { headers: { cookie: second } })).status).toBe(200)
  })

  test('the cookie is HttpOnly, SameSite=Lax, Path=/, and the token is not stored in clear', async () => {
    const res = await postJson(base, '/api/admin/login', ADMIN)
    const line = res.headers.getSetCookie().find((c) => c.startsWith('admin_session='))!
    expect(line).toMatch(/;\s*HttpOnly/i)
    expect(line).toMatch(/;\s*SameSite=Lax/i)
    expect(line).toMatch(/;\s*Path=\//i)
    const token = line.split(';')[0]!.split('=')[1]!
    const rows = await whole.database.rows<{ n: number }>(
      sql`select count(*)::int as n from admin_sessions where token_hash = ${token}`,
    )
    expect(rows[0]!.n).toBe(0)
  })

  test('reuse after logout: 401 on every admin route', async () => {
    const cookie = await adminCookie(base)
    expect((await send(base, '/api/admin/me', { headers: { cookie } })).status).toBe(200)
    const out = await send(base, '/api/admin/logout', { method: 'POST', headers: { cookie, origin: base } })
    expect(out.status).toBe(200)
    for (const route of adminRoutes()) expect((await call(route, cookie)).status, `${route.method} ${route.path}`).toBe(401)
  })

  test('expired (absolute) and idle sessions: 401', async () => {
    const expired = await adminCookie(base)
    await whole.database.rows(
      sql`update admin_sessions set expires_at = now() - interval '1 second' where token_hash = ${await tokenRow(expired)}`,
    )
    expect((await send(base, '/api/admin/me', { headers: { cookie: expired } })).status).toBe(401)
    const idle = await adminCookie(base)
    await whole.database.rows(
      sql`update admin_sessions set last_seen_at = now() - interval '3 hours' where token_hash = ${await tokenRow(idle)}`,
    )
    expect((await send(base, '/api/admin/me', { headers: { cookie: idle } })).status).toBe(401)
  })

  test('cross-site: a live cookie sent by another site cannot change anything', async () => {
    const cookie = await adminCookie(base)
    const route = { method: 'POST', path: `/api/admin/events/${SOME_ID}/approve` }
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await send(base, route.path, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: '{}',
      })
      expect(res.status, JSON.stringify(headers)).toBe(403)
    }
    // logout too (a forced logout is a cross-site write), and login from another site
    expect(
      (await send(base, '/api/admin/logout', { method: 'POST', headers: { cookie, origin: 'https://evil.example' } })).status,
    ).toBe(403)
    expect((await postJson(base, '/api/admin/login', ADMIN, { origin: 'https://evil.example' })).status).toBe(403)
    expect((await send(base, '/api/admin/me', { headers: { cookie } })).status).toBe(200)
  })
})
