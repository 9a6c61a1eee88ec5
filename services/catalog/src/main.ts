// The catalog service as its own process: env -> deps -> listen.
import { join } from 'node:path'
import { createDb } from '@app/db'
import { createLifecycle, createTracing, createLogger, createRateLimiter, readConfigOrExit, serve } from '@app/kit'
import { createApp } from './app'
import { catalogDepsFromConfig } from './deps'

const config = readConfigOrExit()
const logger = createLogger(config.logLevel, 'catalog')
const tracing = await createTracing({ endpoint: config.otlpEndpoint, service: 'catalog', sampleRatio: config.traceSampleRatio })
const database = await createDb(config.databaseUrl, {
  dataDir: join(config.dataDir, 'pglite'),
  observer: tracing?.observeQuery,
  prepare: config.databasePrepare,
})
const lifecycle = createLifecycle()
const deps = await catalogDepsFromConfig(config, {
  database,
  rateLimiter: createRateLimiter(database),
  observer: tracing?.observeQuery,
  logger,
})
const app = createApp({ ...deps, logger, lifecycle, corsOrigins: config.corsOrigins, tracing })
serve(app, {
  port: config.port,
  service: 'catalog',
  logger,
  lifecycle,
  shutdownDelayMs: config.shutdownDelayMs,
  onClose: async () => {
    deps.listIndex?.close()
    await deps.cache?.close()
    await deps.readDatabase?.close()
    await database.close()
    await tracing?.shutdown()
  },
})
