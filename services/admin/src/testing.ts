import { eq } from 'drizzle-orm'
import { adminUsers } from '@app/db'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createLogger, createRateLimiter } from '@app/kit'
import { call, type CallOptions } from '@app/kit/testing'
import { createApp } from './app'
import { SESSION_COOKIE } from './auth/guard'
import type { AdminDeps } from './deps'
import { createOrResetAdmin } from './users/service'

type Handler = { handle(request: Request): Promise<Response> }

/** The admin app over a fresh, demo-seeded test database. */
export async function createTestAdmin(overrides: Partial<Pick<AdminDeps, 'cookieSecure' | 'loginMaxFailures'>> = {}) {
  const database: TestDatabase = await createTestDatabase()
  const deps: AdminDeps = {
    database,
    rateLimiter: createRateLimiter(database),
    // tests pick their client address with X-Forwarded-For
    trustedProxies: ['*'],
    cookieSecure: overrides.cookieSecure ?? false,
    loginMaxFailures: overrides.loginMaxFailures ?? 5,
  }
  const app = createApp({ ...deps, logger: createLogger('silent') })
  return { app, database, deps }
}

let addressCounter = 0
/** A client address of its own, so one test's failed logins do not throttle another's. */
export function freshAddress(): string {
  addressCounter++
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`
}

/** The `name=value` pair of the session cookie in a Set-Cookie header, or undefined. */
export function sessionCookieOf(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const pair = line.split(';')[0]
    if (pair.startsWith(`${SESSION_COOKIE}=`)) return pair
  }
  return undefined
}

/**
 * Logs in as `user`, creating that admin first when it does not exist (an existing one is not
 * reset: a reset would end its other sessions). Returns the `Cookie` header value to send.
 */
export async function loginAs(
  app: Handler,
  database: TestDatabase,
  user: { username: string; password: string; name?: string } = { username: 'moderator', password: 'rahasia-panjang-123' },
): Promise<string> {
  const [existing] = await database.db
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(eq(adminUsers.username, user.username))
  if (!existing) await createOrResetAdmin(database, user)
  const res = await call(app, 'POST', '/api/admin/login', {
    body: { username: user.username, password: user.password },
    headers: { 'x-forwarded-for': freshAddress() },
  })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`)
  return sessionCookieOf(res.headers)!
}

/** Request options carrying a session cookie (and more headers if given). */
export function withCookie(cookie: string, options: CallOptions = {}): CallOptions {
  return { ...options, headers: { cookie, ...options.headers } }
}
