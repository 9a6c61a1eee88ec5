import { createBaseApp, type Tracing, docs, type Lifecycle, type Logger } from '@app/kit'
import type { NewsDeps } from './deps'
import { newsService } from './index'

export interface NewsAppDeps extends NewsDeps {
  logger: Logger
  lifecycle?: Lifecycle
  corsOrigins?: readonly string[]
  tracing?: Tracing
}

/** The news service on its own: base (envelope, log, health) + docs + news routes. */
export function createApp(deps: NewsAppDeps) {
  return createBaseApp({
    service: 'news',
    logger: deps.logger,
    checks: {
      database: () => deps.database.ping(),
      ...(deps.readDatabase ? { readDatabase: () => deps.readDatabase!.ping() } : {}),
    },
    isDraining: () => deps.lifecycle?.draining ?? false,
    corsOrigins: deps.corsOrigins,
    tracing: deps.tracing,
    metricSources: { caches: { news: deps.cache }, pools: { primary: deps.database, read: deps.readDatabase } },
  })
    .use(docs('Event Catalog API: news', 'Berita: tips, liputan, dan ulasan.'))
    .use(newsService(deps))
}
