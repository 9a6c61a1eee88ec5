import type { Database } from '@app/db'
import type { Config, RateLimiter } from '@app/kit'

export interface CatalogDeps {
  database: Database
  rateLimiter: RateLimiter
  /** Submissions per client address per hour. */
  submitLimitPerHour: number
  trustedProxies: string[]
}

export async function catalogDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<CatalogDeps> {
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    submitLimitPerHour: config.submitLimitPerHour,
    trustedProxies: config.trustedProxies,
  }
}
