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
  return new Elysia({ name: 'service.catalog' })
    .use(eventRoutes(deps))
    .use(submissionRoutes(deps))
    .use(categoryRoutes(deps))
    .use(cityRoutes(deps))
    .use(tagRoutes(deps))
    .use(platformRoutes(deps))
    .use(searchRoutes(deps))
}
