import { createDb, type Database, type QueryObserver } from '@app/db'
import {
  createListeningVersionSource,
  createReadDatabase,
  createResponseCache,
  type Config,
  type RateLimiter,
  type ResponseCache,
} from '@app/kit'

export interface CatalogDeps {
  database: Database
  /** Public GET routes read here (a replica gated by read-replica.ts); `database` when absent. */
  readDatabase?: Database
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
  shared: { database: Database; rateLimiter: RateLimiter; observer?: QueryObserver },
): Promise<CatalogDeps> {
  const versions = createListeningVersionSource(shared.database, { service: 'catalog' })
  const readDatabase = config.databaseReadUrl
    ? createReadDatabase(shared.database, await createDb(config.databaseReadUrl, { observer: shared.observer, prepare: config.databasePrepare }), versions)
    : undefined
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    cache: createResponseCache({ versions, maxBytes: config.responseCacheBytes }),
    readDatabase,
    submitLimitPerHour: config.submitLimitPerHour,
    trustedProxies: config.trustedProxies,
  }
}

/** What the feature routes get: the deps with the cache filled in. */
export type CatalogContext = CatalogDeps & { cache: ResponseCache }
