import type { Database } from '@app/db'
import type { Config, RateLimiter } from '@app/kit'

export interface AdminDeps {
  database: Database
  rateLimiter: RateLimiter
  /** Peers whose X-Forwarded-For / X-Forwarded-Host are believed (`*` = every peer). */
  trustedProxies: string[]
  /** Adds `Secure` to the session cookie (COOKIE_SECURE; on behind HTTPS). */
  cookieSecure: boolean
  /** Failed logins per username or per client address within 15 minutes before 429 (LOGIN_MAX_FAILURES). */
  loginMaxFailures: number
  /** Origins of admin front-ends allowed to call with the session cookie (CORS_ORIGINS). */
  corsOrigins?: readonly string[]
}

export async function adminDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<AdminDeps> {
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    trustedProxies: config.trustedProxies,
    cookieSecure: config.cookieSecure,
    loginMaxFailures: config.loginMaxFailures,
    corsOrigins: config.corsOrigins,
  }
}
