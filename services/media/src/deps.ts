import type { Database } from '@app/db'
import type { Config, RateLimiter } from '@app/kit'

export interface MediaDeps {
  database: Database
  rateLimiter: RateLimiter
  trustedProxies: string[]
}

export async function mediaDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<MediaDeps> {
  return { database: shared.database, rateLimiter: shared.rateLimiter, trustedProxies: config.trustedProxies }
}
