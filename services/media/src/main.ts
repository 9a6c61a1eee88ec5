// The media service as its own process: env -> deps -> listen.
import { join } from 'node:path'
import { createDb } from '@app/db'
import { ConfigError, createLifecycle, createTracing, createLogger, createRateLimiter, readConfigOrExit, serve } from '@app/kit'
import { createApp } from './app'
import { mediaDepsFromConfig } from './deps'

const config = readConfigOrExit()
const logger = createLogger(config.logLevel, 'media')
const tracing = await createTracing({ endpoint: config.otlpEndpoint, service: 'media', sampleRatio: config.traceSampleRatio })
const database = await createDb(config.databaseUrl, {
  dataDir: join(config.dataDir, 'pglite'),
  observer: tracing?.observeQuery,
  prepare: config.databasePrepare,
})
const lifecycle = createLifecycle()
const deps = await mediaDepsFromConfig(config, { database, rateLimiter: createRateLimiter(database) }, { logger }).catch(
  async (error) => {
    if (!(error instanceof ConfigError)) throw error
    console.error(`Invalid configuration: ${error.message}`)
    await database.close()
    process.exit(1)
  },
)
const app = createApp({ ...deps, logger, lifecycle, corsOrigins: config.corsOrigins, tracing })
serve(app, {
  port: config.port,
  service: 'media',
  logger,
  lifecycle,
  shutdownDelayMs: config.shutdownDelayMs,
  onClose: async () => {
    await database.close()
    await tracing?.shutdown()
  },
})
