import type { Database } from '@app/db'
import { createListeningVersionSource, createResponseCache, type Config, type RateLimiter, type ResponseCache } from '@app/kit'

export interface CatalogDeps {
  database: Database
  rateLimiter: RateLimiter
  /** Public GET answers, exactly invalidated by the data version (one is made when absent). */
  cache?: ResponseCache
  /** Submissions per client address per hour. */
  submitLimitPerHour: number
  trustedProxies: string[]
  /** The clock (epoch ms) for time windows and "upcoming"; injectable for tests. */
  now?: () => number
}

export async function catalogDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<CatalogDeps> {
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    cache: createResponseCache({ versions: createListeningVersionSource(shared.database, { service: 'catalog' }) }),
    submitLimitPerHour: config.submitLimitPerHour,
    trustedProxies: config.trustedProxies,
  }
}

/** What the feature routes get: the deps with the cache filled in. */
export type CatalogContext = CatalogDeps & { cache: ResponseCache }
