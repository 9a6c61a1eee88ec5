import { createBaseApp, type Tracing, type Lifecycle, type Logger } from '@app/kit'
import type { DocsDeps } from './deps'
import { docsService } from './index'

export interface DocsAppDeps extends DocsDeps {
  logger: Logger
  lifecycle?: Lifecycle
  corsOrigins?: readonly string[]
  tracing?: Tracing
}

export function createApp(deps: DocsAppDeps) {
  return createBaseApp({
    service: 'docs',
    logger: deps.logger,
    checks: {},
    isDraining: () => deps.lifecycle?.draining ?? false,
    corsOrigins: deps.corsOrigins,
    tracing: deps.tracing,
  }).use(docsService(deps))
}
