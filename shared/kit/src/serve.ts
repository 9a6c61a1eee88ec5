import type { Elysia } from 'elysia'
import { guardProcess } from './process-guard'
import type { Logger } from './request-log'

export interface Lifecycle {
  /** True once shutdown has begun: /ready answers 503 so no new work is routed here. */
  draining: boolean
}

export function createLifecycle(): Lifecycle {
  return { draining: false }
}

// Bun's own cap (its default is 128 MB). Bun answers a declared length above it with an empty
// 413, so it sits above the app's own limit (MAX_DECLARED_BODY_BYTES in app.ts), which answers
// with the envelope; bodies without a declared length are capped by each route's reader.
export const MAX_REQUEST_BODY_BYTES = 64 * 1024 * 1024

/**
 * How every service listens. `reusePort: false`: Elysia turns SO_REUSEPORT on by default, so a
 * second process started on a port already in use (an old instance left running, a port set twice)
 * silently shares its connections and answers some of its requests, perhaps with older code; off,
 * the second one fails to start and says so.
 */
export const listenOptions = (port: number) => ({
  port,
  maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
  idleTimeout: 60,
  reusePort: false,
})

/**
 * Listens on `port` and shuts down gracefully on SIGTERM/SIGINT: /ready turns 503, after
 * `shutdownDelayMs` the listener closes, requests in flight finish, then the database pool
 * closes and the process exits. A lost database connection that escapes the driver is logged
 * and survived (process-guard.ts).
 */
export function serve(
  app: Elysia<any, any, any, any, any, any, any>,
  options: {
    port: number
    service: string
    logger: Logger
    lifecycle: Lifecycle
    onClose: () => Promise<void>
    /** Time between /ready turning 503 and the listener closing, so the gateway stops routing here first. */
    shutdownDelayMs?: number
  },
) {
  guardProcess(options.logger)
  // while draining, every answer closes its connection: no idle keep-alive connection of the
  // gateway is left to carry a request after the listener closed and the pool is gone
  app.onRequest(({ set }) => {
    if (options.lifecycle.draining) set.headers.connection = 'close'
  })
  app.listen(listenOptions(options.port))
  options.logger.info('listening', { service: options.service, port: app.server?.port })
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    options.lifecycle.draining = true
    // warn, not info: a replica that leaves on a signal (an orchestrator, or someone's pkill) must
    // show in a log kept at `warn`, or its exit looks like a crash that printed nothing
    options.logger.warn('shutting down', { signal })
    try {
      if (options.shutdownDelayMs) await Bun.sleep(options.shutdownDelayMs)
      // without `true`, stop() lets in-flight requests finish before it resolves
      await app.server?.stop()
      // then drop any connection still open (idle ones included) before the pool closes
      await app.server?.stop(true)
      await options.onClose()
    } finally {
      process.exit(0)
    }
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  process.once('SIGINT', () => void shutdown('SIGINT'))
  return app
}
