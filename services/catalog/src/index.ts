import { Elysia } from 'elysia'
import { categoryRoutes } from './categories'
import { cityRoutes } from './cities'
import type { CatalogDeps } from './deps'
import { eventRoutes } from './events'
import { platformRoutes } from './platform'
import { tagRoutes } from './tags'

export { catalogDepsFromConfig, type CatalogDeps } from './deps'

/** Every catalog route: events, categories, cities, tags, stats, settings. */
export const catalogService = (deps: CatalogDeps) =>
  new Elysia({ name: 'service.catalog' })
    .use(eventRoutes(deps))
    .use(categoryRoutes(deps))
    .use(cityRoutes(deps))
    .use(tagRoutes(deps))
    .use(platformRoutes(deps))
