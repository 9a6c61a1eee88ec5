import { createBaseApp, type Tracing, docs, type Lifecycle, type Logger } from '@app/kit'
import type { AdminDeps } from './deps'
import { adminService } from './index'

export interface AdminAppDeps extends AdminDeps {
  logger: Logger
  lifecycle?: Lifecycle
  corsOrigins?: readonly string[]
  tracing?: Tracing
}

/** The admin service on its own: base (envelope, log, health) + docs + admin routes. */
export function createApp(deps: AdminAppDeps) {
  return createBaseApp({
    service: 'admin',
    logger: deps.logger,
    checks: { database: () => deps.database.ping() },
    isDraining: () => deps.lifecycle?.draining ?? false,
    corsOrigins: deps.corsOrigins,
    tracing: deps.tracing,
    metricSources: { pools: { primary: deps.database } },
  })
    .use(docs('Event Catalog API: admin', 'Login admin dan moderasi event.'))
    .use(adminService(deps))
}
