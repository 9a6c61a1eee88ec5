import { createDb, type Database, type QueryObserver } from '@app/db'
import {
  createListeningVersionSource,
  createReadDatabase,
  createResponseCache,
  type Config,
  type RateLimiter,
  type ResponseCache,
} from '@app/kit'

export interface NewsDeps {
  database: Database
  /** Public GET routes read here (a replica gated by read-replica.ts); `database` when absent. */
  readDatabase?: Database
  rateLimiter: RateLimiter
  trustedProxies: string[]
  /** Public GET answers, exactly invalidated by the data version (one is made when absent). */
  cache?: ResponseCache
}

/** What the feature routes get: the deps with the cache filled in. */
export type NewsContext = NewsDeps & { cache: ResponseCache }

export async function newsDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter; observer?: QueryObserver },
): Promise<NewsDeps> {
  const versions = createListeningVersionSource(shared.database, { service: 'news' })
  const readDatabase = config.databaseReadUrl
    ? createReadDatabase(shared.database, await createDb(config.databaseReadUrl, { observer: shared.observer, prepare: config.databasePrepare }), versions)
    : undefined
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    trustedProxies: config.trustedProxies,
    cache: createResponseCache({ versions, maxBytes: config.responseCacheBytes }),
    readDatabase,
  }
}
