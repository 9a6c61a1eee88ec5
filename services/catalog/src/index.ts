import { Elysia } from 'elysia'
import { createResponseCache, createVersionSource } from '@app/kit'
import { categoryRoutes } from './categories'
import { cityRoutes } from './cities'
import type { CatalogDeps } from './deps'
import { eventRoutes } from './events'
import { platformRoutes } from './platform'
import { searchRoutes } from './search'
import { submissionRoutes } from './submissions'
import { tagRoutes } from './tags'

export { catalogDepsFromConfig, type CatalogDeps } from './deps'

/** Every catalog route: events, categories, cities, tags, stats, settings. */
export const catalogService = (given: CatalogDeps) => {
  const deps = { ...given, cache: given.cache ?? createResponseCache({ versions: createVersionSource(given.database) }) }
  // public reads may go to the replica; submissions (and their rate limit) stay on the primary
  const reads = { ...deps, database: given.readDatabase ?? given.database }
  return new Elysia({ name: 'service.catalog' })
    .use(eventRoutes(reads))
    .use(submissionRoutes(deps))
    .use(categoryRoutes(reads))
    .use(cityRoutes(reads))
    .use(tagRoutes(reads))
    .use(platformRoutes(reads))
    .use(searchRoutes(reads))
}
