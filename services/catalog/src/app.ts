import { createBaseApp, type Tracing, docs, type Lifecycle, type Logger } from '@app/kit'
import type { CatalogDeps } from './deps'
import { catalogService } from './index'

export interface CatalogAppDeps extends CatalogDeps {
  logger: Logger
  lifecycle?: Lifecycle
  corsOrigins?: readonly string[]
  tracing?: Tracing
}

/** The catalog service on its own: base (envelope, log, health) + docs + catalog routes. */
export function createApp(deps: CatalogAppDeps) {
  return createBaseApp({
    service: 'catalog',
    logger: deps.logger,
    checks: {
      database: () => deps.database.ping(),
      ...(deps.readDatabase ? { readDatabase: () => deps.readDatabase!.ping() } : {}),
    },
    isDraining: () => deps.lifecycle?.draining ?? false,
    corsOrigins: deps.corsOrigins,
    tracing: deps.tracing,
    metricSources: {
      caches: { catalog: deps.cache },
      pools: { primary: deps.database, read: deps.readDatabase },
      listIndex: deps.listIndex,
    },
  })
    .use(docs('Event Catalog API: catalog', 'Event, kategori, kota, tag, statistik, dan pengaturan.'))
    .use(catalogService(deps))
}
