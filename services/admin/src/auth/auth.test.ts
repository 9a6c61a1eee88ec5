import { afterAll, afterEach, beforeAll, describe, expect, spyOn, test, setDefaultTimeout } from 'bun:test'
import { sql } from 'drizzle-orm'
import { call, envelopeMessage, get, post } from '@app/kit/testing'
import { createTestAdmin, freshAddress, loginAs, sessionCookieOf, withCookie } from '../testing'
import { createOrResetAdmin } from '../users/service'
import { SESSION_COOKIE } from './guard'
import { hashToken } from './service'

// argon2id costs ~200 ms per login and PGlite seconds to start: generous on a busy machine
setDefaultTimeout(60_000)

let ctx: Awaited<ReturnType<typeof createTestAdmin>>
const admin = { username: 'sari', password: 'kata-sandi-yang-panjang-1', name: 'Sari Moderator' }

// PGlite needs a few seconds to start, more on a busy machine
beforeAll(async () => {
  ctx = await createTestAdmin()
  await createOrResetAdmin(ctx.database, admin)
}, 60_000)
afterAll(async () => {
  await ctx.database.close()
})

const INVALID_SESSION = 'Sesi tidak valid atau telah berakhir'
const BAD_CREDENTIALS = 'Username atau password salah'

/** Set-Cookie of the session cookie, split into its attributes (lower-cased names). */
function parseSetCookie(headers: Headers) {
  const line = headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`))
  if (!line) return undefined
  const [pair, ...rest] = line.split(';').map((s) => s.trim())
  const attributes = new Map<string, string | true>()
  for (const part of rest) {
    const eq = part.indexOf('=')
    if (eq === -1) attributes.set(part.toLowerCase(), true)
    else attributes.set(part.slice(0, eq).toLowerCase(), part.slice(eq + 1))
  }
  return { value: pair.slice(SESSION_COOKIE.length + 1), attributes }
}

function loginRequest(body: unknown, headers: Record<string, string> = {}) {
  return call(ctx.app, 'POST', '/api/admin/login', { body, headers: { 'x-forwarded-for': freshAddress(), ...headers } })
}

async function sessionRow(cookie: string) {
  const token = cookie.slice(SESSION_COOKIE.length + 1)
  const [row] = await ctx.database.rows<{ id: string; last_seen_at: string; revoked_at: string | null }>(
    sql`select id, last_seen_at::text, revoked_at::text from admin_sessions where token_hash = ${hashToken(token)}`,
  )
  return row
}

describe('POST /api/admin/login', () => {
  test('200 with the user and an HttpOnly, SameSite=Lax, Path=/ session cookie', async () => {
    const res = await loginRequest({ username: admin.username, password: admin.password })
    expect(res.status).toBe(200)
    const [{ id }] = await ctx.database.rows<{ id: string }>(sql`select id from admin_users where username = ${admin.username}`)
    expect(res.body).toEqual({ success: true, user: { id, username: 'sari', name: 'Sari Moderator', role: 'owner' } })
    expect(res.headers.get('cache-control')).toBe('no-store')

    const cookie = parseSetCookie(res.headers)!
    expect(cookie).toBeDefined()
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/) // 256 random bits, base64url
    expect(cookie.attributes.get('httponly')).toBe(true)
    expect(String(cookie.attributes.get('samesite')).toLowerCase()).toBe('lax')
    expect(cookie.attributes.get('path')).toBe('/')
    expect(cookie.attributes.get('max-age')).toBe(String(8 * 3600))
    expect(cookie.attributes.has('secure')).toBe(false)
    expect(cookie.attributes.has('domain')).toBe(false)
  })

  test('only the SHA-256 of the token is stored, with 8 h absolute expiry', async () => {
    const res = await loginRequest({ username: admin.username, password: admin.password })
    const token = parseSetCookie(res.headers)!.value
    const rows = await ctx.database.rows<{ token_hash: string; hours: number }>(
      sql`select token_hash, round(extract(epoch from expires_at - created_at) / 3600)::int as hours from admin_sessions where token_hash = ${hashToken(token)}`,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0].token_hash).toBe(new Bun.CryptoHasher('sha256').update(token).digest('hex'))
    expect(rows[0].hours).toBe(8)
    const leaked = await ctx.database.rows(sql`select 1 from admin_sessions where token_hash = ${token} or ip = ${token}`)
    expect(leaked).toHaveLength(0)
  })

  test('Secure is added when cookieSecure is on', async () => {
    const secure = await createTestAdmin({ cookieSecure: true })
    try {
      await createOrResetAdmin(secure.database, admin)
      const res = await post(secure.app, '/api/admin/login', { username: admin.username, password: admin.password })
      expect(res.status).toBe(200)
      expect(parseSetCookie(res.headers)!.attributes.get('secure')).toBe(true)
      const out = await post(secure.app, '/api/admin/logout', undefined, withCookie(sessionCookieOf(res.headers)!))
      expect(parseSetCookie(out.headers)!.attributes.get('secure')).toBe(true)
    } finally {
      await secure.database.close()
    }
  })

  test('a fresh token at every login; the session the browser carried ends', async () => {
    const first = sessionCookieOf((await loginRequest({ username: admin.username, password: admin.password })).headers)!
    const second = await loginRequest({ username: admin.username, password: admin.password }, { cookie: first })
    expect(second.status).toBe(200)
    const secondCookie = sessionCookieOf(second.headers)!
    expect(secondCookie).not.toBe(first)
    expect((await get(ctx.app, '/api/admin/me', withCookie(first))).status).toBe(401)
    expect((await get(ctx.app, '/api/admin/me', withCookie(secondCookie))).status).toBe(200)
  })

  test('wrong password and unknown user: the same 401 text, no cookie', async () => {
    const wrong = await loginRequest({ username: admin.username, password: 'salah-sama-sekali' })
    const unknown = await loginRequest({ username: 'tidak-ada', password: 'apa-saja-123' })
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401)
      expect(envelopeMessage(res)).toBe(BAD_CREDENTIALS)
      expect(sessionCookieOf(res.headers)).toBeUndefined()
    }
    expect(unknown.text).toBe(wrong.text)
  })

  test('an unknown user costs one password verification, like a wrong password', async () => {
    const verify = spyOn(Bun.password, 'verify')
    try {
      await loginRequest({ username: 'hantu', password: 'apa-saja-123' })
      expect(verify).toHaveBeenCalledTimes(1)
      await loginRequest({ username: admin.username, password: 'salah-sama-sekali' })
      expect(verify).toHaveBeenCalledTimes(2)
    } finally {
      verify.mockRestore()
    }
  })

  test('usernames are exact: another case is another (unknown) user', async () => {
    const res = await loginRequest({ username: 'SARI', password: admin.password })
    expect(res.status).toBe(401)
  })

  test('missing or malformed fields: 400 envelope naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ password: 'x' }, 'username'],
      [{ username: 'sari' }, 'password'],
      [{ username: '', password: 'x' }, 'username'],
      [{ username: 'sari', password: '' }, 'password'],
      [{ username: 42, password: 'x' }, 'username'],
      [{ username: 'sari', password: ['x'] }, 'password'],
      [{ username: 'a'.repeat(101), password: 'x' }, 'username'],
      [{ username: 'sari', password: 'x'.repeat(1025) }, 'password'],
    ]
    for (const [body, field] of cases) {
      const res = await loginRequest(body)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain(field)
      expect(res.body.details[0].field).toBe(field)
    }
    const empty = await call(ctx.app, 'POST', '/api/admin/login', { headers: { 'x-forwarded-for': freshAddress() } })
    expect(empty.status).toBe(400)
    envelopeMessage(empty)
    const broken = await call(ctx.app, 'POST', '/api/admin/login', {
      rawBody: '{"username": "sari",',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
    })
    expect(broken.status).toBe(400)
    expect(envelopeMessage(broken)).toBe('Format JSON tidak valid')
  })

  test('hostile strings are just wrong credentials', async () => {
    for (const username of ["' or '1'='1", "sari'; drop table admin_users; --", '<script>alert(1)</script>']) {
      const res = await loginRequest({ username, password: "' or '1'='1" })
      expect(res.status).toBe(401)
      expect(envelopeMessage(res)).toBe(BAD_CREDENTIALS)
    }
    const extra = await loginRequest({ username: admin.username, password: admin.password, role: 'superadmin', id: 'x' })
    expect(extra.status).toBe(200)
    expect(extra.body.user.role).toBe('owner')
  })
})

describe('session', () => {
  const paths: [string, string][] = [
    ['GET', '/api/admin/me'],
    ['GET', '/api/admin/events'],
    ['POST', '/api/admin/logout'],
    ['POST', '/api/admin/events/x/approve'],
    ['POST', '/api/admin/events/x/reject'],
  ]

  test('missing cookie: 401 on every admin endpoint except login', async () => {
    for (const [method, path] of paths) {
      const res = await call(ctx.app, method, path)
      expect(res.status).toBe(401)
      expect(envelopeMessage(res)).toBe(INVALID_SESSION)
    }
  })

  test('no session: 401 comes before validating the query, params or body', async () => {
    for (const res of [
      await get(ctx.app, '/api/admin/events?status=bogus&limit=abc'),
      await post(ctx.app, `/api/admin/events/${'x'.repeat(500)}/approve`),
      await post(ctx.app, '/api/admin/events/x/reject', { reason: 42 }),
    ]) {
      expect(res.status).toBe(401)
      expect(envelopeMessage(res)).toBe(INVALID_SESSION)
    }
  })

  test('tampered, forged or malformed cookie: 401, and the browser is told to drop it', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const token = cookie.slice(SESSION_COOKIE.length + 1)
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
    const forged = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
    for (const value of [
      flipped,
      forged,
      token + 'x',
      token.slice(1),
      '',
      'abc',
      '{"user":"admin"}',
      '%00%ff',
      hashToken(token),
    ]) {
      for (const [method, path] of paths) {
        const res = await call(ctx.app, method, path, { headers: { cookie: `${SESSION_COOKIE}=${value}` } })
        expect(res.status).toBe(401)
        expect(envelopeMessage(res)).toBe(INVALID_SESSION)
      }
    }
    const res = await get(ctx.app, '/api/admin/me', { headers: { cookie: `${SESSION_COOKIE}=${flipped}` } })
    const cleared = parseSetCookie(res.headers)!
    expect(cleared.value).toBe('')
    expect(cleared.attributes.get('max-age')).toBe('0')
    // the real token still works: tampering did not end it
    expect((await get(ctx.app, '/api/admin/me', withCookie(cookie))).status).toBe(200)
  })

  test('GET /api/admin/me returns the user', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const res = await get(ctx.app, '/api/admin/me', withCookie(cookie))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      user: { id: expect.any(String), username: 'sari', name: 'Sari Moderator', role: 'owner' },
    })
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  test('absolute expiry: past expires_at gives 401', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const { id } = await sessionRow(cookie)
    await ctx.database.rows(sql`update admin_sessions set expires_at = now() - interval '1 second' where id = ${id}`)
    const res = await get(ctx.app, '/api/admin/me', withCookie(cookie))
    expect(res.status).toBe(401)
    expect(envelopeMessage(res)).toBe(INVALID_SESSION)
  })

  test('absolute expiry holds even for a session in constant use', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const { id } = await sessionRow(cookie)
    await ctx.database.rows(
      sql`update admin_sessions set created_at = now() - interval '8 hours', expires_at = now() - interval '1 second', last_seen_at = now() where id = ${id}`,
    )
    expect((await get(ctx.app, '/api/admin/me', withCookie(cookie))).status).toBe(401)
  })

  test('idle expiry: unused for 2 h gives 401; 1 h 59 min is still fine and refreshes last_seen_at', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const { id } = await sessionRow(cookie)
    await ctx.database.rows(sql`update admin_sessions set last_seen_at = now() - interval '119 minutes' where id = ${id}`)
    expect((await get(ctx.app, '/api/admin/me', withCookie(cookie))).status).toBe(200)
    const [{ age }] = await ctx.database.rows<{ age: number }>(
      sql`select extract(epoch from now() - last_seen_at)::int as age from admin_sessions where id = ${id}`,
    )
    expect(age).toBeLessThan(10)

    await ctx.database.rows(sql`update admin_sessions set last_seen_at = now() - interval '121 minutes' where id = ${id}`)
    const res = await get(ctx.app, '/api/admin/me', withCookie(cookie))
    expect(res.status).toBe(401)
    expect(envelopeMessage(res)).toBe(INVALID_SESSION)
  })

  test('last_seen_at is not rewritten on every request (only when older than a minute)', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const { id } = await sessionRow(cookie)
    await ctx.database.rows(sql`update admin_sessions set last_seen_at = now() - interval '30 seconds' where id = ${id}`)
    const before = (await sessionRow(cookie)).last_seen_at
    expect((await get(ctx.app, '/api/admin/me', withCookie(cookie))).status).toBe(200)
    expect((await sessionRow(cookie)).last_seen_at).toBe(before)
  })

  test('logout ends the session server side and clears the cookie', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const res = await post(ctx.app, '/api/admin/logout', undefined, withCookie(cookie))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, message: expect.any(String) })
    const cleared = parseSetCookie(res.headers)!
    expect(cleared.value).toBe('')
    expect(cleared.attributes.get('max-age')).toBe('0')
    expect(cleared.attributes.get('path')).toBe('/')
    expect(cleared.attributes.get('httponly')).toBe(true)
    expect((await sessionRow(cookie)).revoked_at).not.toBeNull()
    // a client that kept the old cookie is refused everywhere
    for (const [method, path] of paths) {
      const after = await call(ctx.app, method, path, withCookie(cookie))
      expect(after.status).toBe(401)
      expect(envelopeMessage(after)).toBe(INVALID_SESSION)
    }
  })

  test('logout ends only that session', async () => {
    const a = await loginAs(ctx.app, ctx.database, admin)
    const b = await loginAs(ctx.app, ctx.database, admin)
    expect((await post(ctx.app, '/api/admin/logout', undefined, withCookie(a))).status).toBe(200)
    expect((await get(ctx.app, '/api/admin/me', withCookie(b))).status).toBe(200)
  })

  test('a password reset ends every session of that admin', async () => {
    const other = { username: 'budi', password: 'password-lama-yang-panjang' }
    const cookie = await loginAs(ctx.app, ctx.database, other)
    expect(await createOrResetAdmin(ctx.database, { ...other, password: 'password-baru-yang-panjang' })).toBe('reset')
    expect((await get(ctx.app, '/api/admin/me', withCookie(cookie))).status).toBe(401)
  })

  test('a deleted admin loses the session', async () => {
    const gone = { username: 'sementara', password: 'password-sementara-1' }
    const cookie = await loginAs(ctx.app, ctx.database, gone)
    await ctx.database.rows(sql`delete from admin_users where username = ${gone.username}`)
    expect((await get(ctx.app, '/api/admin/me', withCookie(cookie))).status).toBe(401)
  })
})

describe('login throttling', () => {
  let verify: ReturnType<typeof spyOn<typeof Bun.password, 'verify'>>
  beforeAll(() => {
    verify = spyOn(Bun.password, 'verify')
  })
  afterEach(() => verify.mockClear())
  afterAll(() => verify.mockRestore())

  test('5 failures for one username (from any address): the 6th is 429 with Retry-After, before any hashing', async () => {
    const user = { username: 'target1', password: 'benar-dan-panjang-1' }
    await createOrResetAdmin(ctx.database, user)
    for (let i = 0; i < 5; i++) {
      const res = await loginRequest({ username: user.username, password: `salah-${i}` })
      expect(res.status).toBe(401)
    }
    expect(verify).toHaveBeenCalledTimes(5)
    verify.mockClear()

    const started = performance.now()
    const sixth = await loginRequest({ username: user.username, password: user.password })
    const ms = performance.now() - started
    expect(sixth.status).toBe(429)
    expect(envelopeMessage(sixth)).toBe('Terlalu banyak percobaan login yang gagal, coba lagi nanti')
    const retryAfter = Number(sixth.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(sessionCookieOf(sixth.headers)).toBeUndefined()
    // the throttle answered before any password verification
    expect(verify).not.toHaveBeenCalled()
    expect(ms).toBeLessThan(1000)

    // a blocked attempt is not recorded (so the block does not extend itself)
    const [{ n }] = await ctx.database.rows<{ n: number }>(
      sql`select count(*)::int as n from login_attempts where username = ${user.username}`,
    )
    expect(n).toBe(5)

    // once the failures are older than 15 minutes, login works again
    await ctx.database.rows(
      sql`update login_attempts set created_at = created_at - interval '15 minutes' where username = ${user.username}`,
    )
    expect((await loginRequest({ username: user.username, password: user.password })).status).toBe(200)
  })

  test('Retry-After counts down to when the oldest blocking failure leaves the window', async () => {
    const username = 'target2'
    for (let i = 0; i < 5; i++) await loginRequest({ username, password: 'x' })
    await ctx.database.rows(
      sql`update login_attempts set created_at = now() - interval '10 minutes' where username = ${username}`,
    )
    const res = await loginRequest({ username, password: 'x' })
    expect(res.status).toBe(429)
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(4 * 60)
    expect(retryAfter).toBeLessThanOrEqual(5 * 60)
  })

  test('5 failures from one address (any usernames): the 6th is 429', async () => {
    const ip = freshAddress()
    for (let i = 0; i < 5; i++) {
      const res = await loginRequest({ username: `orang-${i}`, password: 'x' }, { 'x-forwarded-for': ip })
      expect(res.status).toBe(401)
    }
    verify.mockClear()
    const res = await loginRequest({ username: admin.username, password: admin.password }, { 'x-forwarded-for': ip })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(verify).not.toHaveBeenCalled()
    // other addresses are not affected
    expect((await loginRequest({ username: admin.username, password: admin.password })).status).toBe(200)
  })

  test('a successful login clears the username count (the address count stays)', async () => {
    const user = { username: 'target3', password: 'benar-dan-panjang-3' }
    await createOrResetAdmin(ctx.database, user)
    for (let i = 0; i < 4; i++) expect((await loginRequest({ username: user.username, password: 'x' })).status).toBe(401)
    expect((await loginRequest(user)).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await loginRequest({ username: user.username, password: 'x' })).status).toBe(401)
    expect((await loginRequest({ username: user.username, password: 'x' })).status).toBe(429)
  })

  test('the username count ignores case, so SARI and sari share it', async () => {
    const username = 'Target4'
    for (let i = 0; i < 5; i++)
      await loginRequest({ username: i % 2 ? username.toUpperCase() : username.toLowerCase(), password: 'x' })
    expect((await loginRequest({ username, password: 'x' })).status).toBe(429)
  })

  test('a burst of concurrent failures cannot run many verifications past the limit', async () => {
    const username = 'target5'
    const results = await Promise.all(Array.from({ length: 20 }, () => loginRequest({ username, password: 'x' })))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0)
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true)
    // 5 allowed; a few more may slip through while concurrent inserts commit, never all 20
    expect(verify.mock.calls.length).toBeLessThanOrEqual(10)
    expect((await loginRequest({ username, password: 'x' })).status).toBe(429)
  })

  test('the limit follows LOGIN_MAX_FAILURES', async () => {
    const strict = await createTestAdmin({ loginMaxFailures: 2 })
    try {
      const ip = freshAddress()
      const attempt = () =>
        post(strict.app, '/api/admin/login', { username: 'x', password: 'y' }, { headers: { 'x-forwarded-for': ip } })
      expect((await attempt()).status).toBe(401)
      expect((await attempt()).status).toBe(401)
      expect((await attempt()).status).toBe(429)
    } finally {
      await strict.database.close()
    }
  })
})

describe('cross-site requests', () => {
  const CROSS_SITE = 'Permintaan lintas situs ditolak'

  test('login refuses Sec-Fetch-Site cross-site and same-site, and a foreign or null Origin', async () => {
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'http://localhost.evil.example' },
      { origin: 'http://localhost:8080' },
      { origin: 'null' },
      { origin: 'http://localhost', 'sec-fetch-site': 'cross-site' },
    ]
    for (const headers of refused) {
      const res = await loginRequest({ username: admin.username, password: admin.password }, headers)
      expect(res.status).toBe(403)
      expect(envelopeMessage(res)).toBe(CROSS_SITE)
      expect(sessionCookieOf(res.headers)).toBeUndefined()
    }
  })

  test('same-origin browser requests and requests without those headers pass', async () => {
    const allowed: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: 'http://localhost' },
      { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    ]
    for (const headers of allowed) {
      const res = await loginRequest({ username: admin.username, password: admin.password }, headers)
      expect(res.status).toBe(200)
    }
  })

  test('behind a trusted proxy the forwarded host counts as ours', async () => {
    const res = await loginRequest(
      { username: admin.username, password: admin.password },
      { origin: 'https://admin.example.id', 'x-forwarded-host': 'admin.example.id' },
    )
    expect(res.status).toBe(200)
  })

  test('logout, approve and reject refuse cross-site requests and change nothing; reads are allowed', async () => {
    const cookie = await loginAs(ctx.app, ctx.database, admin)
    const [pending] = await ctx.database.rows<{ id: string }>(sql`select id from events where status = 'pending' limit 1`)
    const foreign: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }]
    for (const headers of foreign) {
      for (const path of [
        '/api/admin/logout',
        `/api/admin/events/${pending.id}/approve`,
        `/api/admin/events/${pending.id}/reject`,
      ]) {
        const res = await post(ctx.app, path, undefined, withCookie(cookie, { headers }))
        expect(res.status).toBe(403)
        expect(envelopeMessage(res)).toBe(CROSS_SITE)
      }
      // a read from another site cannot change anything and its response is not readable cross-origin
      expect((await get(ctx.app, '/api/admin/me', withCookie(cookie, { headers }))).status).toBe(200)
    }
    const [after] = await ctx.database.rows<{ status: string }>(sql`select status from events where id = ${pending.id}`)
    expect(after.status).toBe('pending')
    expect((await sessionRow(cookie)).revoked_at).toBeNull()
  })
})

describe('roles', () => {
  test('a user with a role other than owner or editor: 403 on the admin routes after login', async () => {
    const hash = await Bun.password.hash('peran-lain-rahasia-1', { algorithm: 'argon2id' })
    await ctx.database.rows(
      sql`insert into admin_users (id, username, name, role, password_hash) values (${Bun.randomUUIDv7()}, 'pengamat', 'Pengamat', 'viewer', ${hash})`,
    )
    const cookie = await loginAs(ctx.app, ctx.database, { username: 'pengamat', password: 'peran-lain-rahasia-1' })
    const res = await get(ctx.app, '/api/admin/events', withCookie(cookie))
    expect(res.status).toBe(403)
    expect(envelopeMessage(res)).toBe('Akun ini tidak memiliki akses admin')
  })
})
