import type { Database } from '@app/db'
import type { Config, RateLimiter } from '@app/kit'

export interface AdminDeps {
  database: Database
  rateLimiter: RateLimiter
  trustedProxies: string[]
}

export async function adminDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<AdminDeps> {
  return { database: shared.database, rateLimiter: shared.rateLimiter, trustedProxies: config.trustedProxies }
}
