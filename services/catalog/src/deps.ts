import { createDb, type Database, type QueryObserver } from '@app/db'
import {
  createListeningVersionSource,
  createReadDatabase,
  createResponseCache,
  type Config,
  type Logger,
  type RateLimiter,
  type ResponseCache,
} from '@app/kit'
import { createListIndex, type ListIndex } from './events/list-index'

export interface CatalogDeps {
  database: Database
  /**
   * Public GET routes read here: a streaming replica gated by read-replica.ts (DATABASE_READ_URL),
   * or a pool of their own on the primary; `database` when absent (PGlite).
   */
  readDatabase?: Database
  rateLimiter: RateLimiter
  /** Public GET answers, exactly invalidated by the data version (one is made when absent). */
  cache?: ResponseCache
  /** Submissions per client address per hour. */
  submitLimitPerHour: number
  trustedProxies: string[]
  /** The clock (epoch ms) for time windows and "upcoming"; injectable for tests. */
  now?: () => number
  /** The published events' list keys in memory (events/list-index.ts); lists read PostgreSQL without it. */
  listIndex?: ListIndex
}

export async function catalogDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter; observer?: QueryObserver; logger?: Logger },
): Promise<CatalogDeps> {
  const versions = createListeningVersionSource(shared.database, { service: 'catalog' })
  // read from the primary, whose notifications it follows
  const listIndex = config.listIndex ? createListIndex(shared.database, shared.logger) : undefined
  const readDatabase = config.databaseReadUrl
    ? createReadDatabase(shared.database, await createDb(config.databaseReadUrl, { observer: shared.observer, prepare: config.databasePrepare }), versions)
    : config.databaseUrl
      ? // Under a read load every connection of one shared pool is busy, and a submission's half
        // a dozen statements each queued behind the reads (p99 about 1 s at 5 writes/s): public
        // reads get their own pool, so writes only wait for the database itself; a small one
        // (DATABASE_READ_POOL), since PostgreSQL shares its CPU among every busy backend.
        await createDb(config.databaseUrl, { max: config.databaseReadPool, observer: shared.observer, prepare: config.databasePrepare })
      : undefined
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    cache: createResponseCache({ versions, maxBytes: config.responseCacheBytes }),
    listIndex,
    readDatabase,
    submitLimitPerHour: config.submitLimitPerHour,
    trustedProxies: config.trustedProxies,
  }
}

/** What the feature routes get: the deps with the cache filled in. */
export type CatalogContext = CatalogDeps & { cache: ResponseCache }
