import type { Database } from '@app/db'
import type { Config, RateLimiter } from '@app/kit'

export interface NewsDeps {
  database: Database
  rateLimiter: RateLimiter
  trustedProxies: string[]
}

export async function newsDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<NewsDeps> {
  return { database: shared.database, rateLimiter: shared.rateLimiter, trustedProxies: config.trustedProxies }
}
