import { eq, sql } from 'drizzle-orm'
import { adminSessions, adminUsers, loginAttempts, type Database } from '@app/db'
import { HttpError } from '@app/kit'

/** Absolute session lifetime: a session ends 8 h after login whatever happens. */
export const SESSION_ABSOLUTE_SECONDS = 8 * 60 * 60
/** Idle lifetime: a session not used for 2 h ends. */
export const SESSION_IDLE_SECONDS = 2 * 60 * 60
/** last_seen_at is only rewritten when older than this, so reads do not write on every request. */
export const SESSION_TOUCH_SECONDS = 60
/** Window of the failed-login throttle. */
export const LOGIN_WINDOW_SECONDS = 15 * 60

export const MESSAGES = {
  badCredentials: 'Username atau password salah',
  invalidSession: 'Sesi tidak valid atau telah berakhir',
  tooManyAttempts: 'Terlalu banyak percobaan login yang gagal, coba lagi nanti',
  crossSite: 'Permintaan lintas situs ditolak',
} as const

export type AdminUser = { id: string; username: string; name: string; role: string }
export type AdminSession = { sessionId: string; user: AdminUser }

// ---------------------------------------------------------------------------------------------
// Tokens

/** 32 random bytes (256 bits), base64url: 43 characters. This is what the cookie carries. */
export function newSessionToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Only this hash is stored: a leaked database does not give usable cookies. */
export function hashToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex')
}

// ---------------------------------------------------------------------------------------------
// Sessions

/** Stores a new session for `userId` and returns the cookie token. */
export async function createSession(
  { db }: Database,
  userId: string,
  client: { ip: string; userAgent: string },
): Promise<string> {
  const token = newSessionToken()
  await db.insert(adminSessions).values({
    id: Bun.randomUUIDv7(),
    tokenHash: hashToken(token),
    userId,
    expiresAt: sql`now() + make_interval(secs => ${SESSION_ABSOLUTE_SECONDS})`,
    ip: client.ip.slice(0, 100),
    userAgent: client.userAgent.slice(0, 500),
  })
  return token
}

/**
 * The live session a cookie token belongs to, or null when the token is malformed, unknown,
 * revoked, past its absolute expiry or idle too long. One round trip: the same statement
 * refreshes last_seen_at, but only when it is older than a minute.
 */
export async function findSession(database: Database, token: unknown): Promise<AdminSession | null> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null
  const [row] = await database.rows<{ session_id: string; id: string; username: string; name: string; role: string }>(sql`
    with live as (
      select s.id, s.user_id, s.last_seen_at < now() - make_interval(secs => ${SESSION_TOUCH_SECONDS}) as stale
      from admin_sessions s
      where s.token_hash = ${hashToken(token)}
        and s.revoked_at is null
        and s.expires_at > now()
        and s.last_seen_at > now() - make_interval(secs => ${SESSION_IDLE_SECONDS})
    ), touched as (
      update admin_sessions set last_seen_at = now()
      from live where admin_sessions.id = live.id and live.stale
      returning admin_sessions.id
    )
    select live.id as session_id, u.id, u.username, u.name, u.role
    from live join admin_users u on u.id = live.user_id and u.disabled_at is null`)
  if (!row) return null
  return { sessionId: row.session_id, user: { id: row.id, username: row.username, name: row.name, role: row.role } }
}

/** Ends a session server side; the token is useless from now on. */
export async function revokeSession({ db }: Database, sessionId: string): Promise<void> {
  await db
    .update(adminSessions)
    .set({ revokedAt: sql`now()` })
    .where(sql`${adminSessions.id} = ${sessionId} and ${adminSessions.revokedAt} is null`)
}

/** Ends the session of a token, if it is one (used at login: a fresh token replaces the old one). */
export async function revokeToken({ db }: Database, token: unknown): Promise<void> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return
  await db
    .update(adminSessions)
    .set({ revokedAt: sql`now()` })
    .where(sql`${adminSessions.tokenHash} = ${hashToken(token)} and ${adminSessions.revokedAt} is null`)
}

// ---------------------------------------------------------------------------------------------
// Login throttling

/**
 * Seconds until a login for this username and address is allowed again, or 0 when it is
 * allowed now. Blocked once `max` failures fall in the last 15 minutes for the username (failures
 * before its last successful login do not count) or for the address. With `beforeId` only the
 * attempts recorded before that one count, so concurrent requests see a consistent order.
 */
export async function loginRetryAfter(
  database: Database,
  input: { username: string; ip: string; max: number; beforeId?: string },
): Promise<number> {
  const { username, ip, max, beforeId } = input
  const before = beforeId ? sql`and a.id < ${beforeId}` : sql``
  const window = sql`now() - make_interval(secs => ${LOGIN_WINDOW_SECONDS})`
  // the max-th most recent failure: the block lifts when it leaves the window
  const [row] = await database.rows<{ by_user: number | null; by_ip: number | null }>(sql`
    select
      (select ceil(extract(epoch from a.created_at + make_interval(secs => ${LOGIN_WINDOW_SECONDS}) - now()))::int
         from login_attempts a
        where not a.succeeded and lower(a.username) = lower(${username}) and a.created_at > ${window} ${before}
          and a.created_at > coalesce((select max(s.created_at) from login_attempts s
                                        where s.succeeded and lower(s.username) = lower(${username})), '-infinity')
        order by a.created_at desc, a.id desc offset ${max - 1} limit 1) as by_user,
      (select ceil(extract(epoch from a.created_at + make_interval(secs => ${LOGIN_WINDOW_SECONDS}) - now()))::int
         from login_attempts a
        where not a.succeeded and a.ip = ${ip} and a.created_at > ${window} ${before}
        order by a.created_at desc, a.id desc offset ${max - 1} limit 1) as by_ip`)
  const wait = Math.max(row?.by_user ?? 0, row?.by_ip ?? 0)
  return wait > 0 ? wait : 0
}

function tooManyAttempts(retryAfter: number): HttpError {
  return new HttpError(429, MESSAGES.tooManyAttempts, undefined, { 'retry-after': String(Math.max(1, retryAfter)) })
}

// ---------------------------------------------------------------------------------------------
// Login

// Verified against when the username is unknown, so an unknown user costs one argon2id
// verification exactly like a wrong password (the response time does not reveal usernames).
let dummyHash: Promise<string> | undefined
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: 'argon2id' })
  return dummyHash
}

export interface LoginInput {
  username: string
  password: string
  ip: string
  userAgent: string
  maxFailures: number
}

/**
 * Checks the throttle (before any hashing), records the attempt, verifies the password and
 * opens a session. Throws 429 when throttled and 401 for a wrong password or an unknown user.
 */
export async function login(database: Database, input: LoginInput): Promise<{ user: AdminUser; token: string }> {
  const { db } = database
  const { username, ip, maxFailures } = input
  const waiting = await loginRetryAfter(database, { username, ip, max: maxFailures })
  if (waiting > 0) throw tooManyAttempts(waiting)

  // recorded as a failure first and flipped on success: concurrent attempts count each other,
  // so a burst cannot slip past the limit and run many password verifications at once
  const attemptId = Bun.randomUUIDv7()
  await db.insert(loginAttempts).values({ id: attemptId, username: username.slice(0, 100), ip, succeeded: false })
  const raced = await loginRetryAfter(database, { username, ip, max: maxFailures, beforeId: attemptId })
  if (raced > 0) {
    await db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId))
    throw tooManyAttempts(raced)
  }

  const [user] = await db
    .select({
      id: adminUsers.id,
      username: adminUsers.username,
      name: adminUsers.name,
      role: adminUsers.role,
      passwordHash: adminUsers.passwordHash,
      disabledAt: adminUsers.disabledAt,
    })
    .from(adminUsers)
    .where(eq(adminUsers.username, username))
    .limit(1)
  const hash = user?.passwordHash ?? (await dummyPasswordHash())
  const ok = await Bun.password.verify(input.password, hash).catch(() => false)
  // a disabled account gets the same answer as a wrong password
  if (!user || !ok || user.disabledAt) throw new HttpError(401, MESSAGES.badCredentials)

  await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, attemptId))
  const token = await createSession(database, user.id, { ip, userAgent: input.userAgent })
  await pruneOldRows(database)
  return { user: { id: user.id, username: user.username, name: user.name, role: user.role }, token }
}

/** Attempts older than a day and sessions over a week past their expiry are only garbage. */
async function pruneOldRows(database: Database): Promise<void> {
  await database.rows(sql`delete from login_attempts where created_at < now() - interval '1 day'`)
  await database.rows(sql`delete from admin_sessions where expires_at < now() - interval '7 days'`)
}

/** Computes the dummy hash ahead, so even the first unknown-user login costs one verification. */
export function warmUpLogin(): void {
  void dummyPasswordHash()
}
