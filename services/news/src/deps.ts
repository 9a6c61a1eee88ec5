import type { Database } from '@app/db'
import { createListeningVersionSource, createResponseCache, type Config, type RateLimiter, type ResponseCache } from '@app/kit'

export interface NewsDeps {
  database: Database
  rateLimiter: RateLimiter
  trustedProxies: string[]
  /** Public GET answers, exactly invalidated by the data version (one is made when absent). */
  cache?: ResponseCache
}

/** What the feature routes get: the deps with the cache filled in. */
export type NewsContext = NewsDeps & { cache: ResponseCache }

export async function newsDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
): Promise<NewsDeps> {
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    trustedProxies: config.trustedProxies,
    cache: createResponseCache({ versions: createListeningVersionSource(shared.database, { service: 'news' }) }),
  }
}
