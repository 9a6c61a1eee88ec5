import { createBaseApp, type Tracing, docs, type Lifecycle, type Logger } from '@app/kit'
import type { MediaDeps } from './deps'
import { mediaService } from './index'

export interface MediaAppDeps extends MediaDeps {
  logger: Logger
  lifecycle?: Lifecycle
  corsOrigins?: readonly string[]
  tracing?: Tracing
}

/** The media service on its own: base (envelope, log, health) + docs + media routes. */
export function createApp(deps: MediaAppDeps) {
  return createBaseApp({
    service: 'media',
    logger: deps.logger,
    checks: { database: () => deps.database.ping(), storage: () => deps.storage.ping() },
    isDraining: () => deps.lifecycle?.draining ?? false,
    corsOrigins: deps.corsOrigins,
    tracing: deps.tracing,
    metricSources: { pools: { primary: deps.database } },
  })
    .use(docs('Event Catalog API: media', 'Unggah gambar dan cek berkas.'))
    .use(mediaService(deps))
}
