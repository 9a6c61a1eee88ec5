// The admin service as its own process: env -> deps -> listen.
import { join } from 'node:path'
import { createDb, migrateDb } from '@app/db'
import { createLifecycle, createTracing, createLogger, createRateLimiter, readConfigOrExit, serve } from '@app/kit'
import { createApp } from './app'
import { adminDepsFromConfig } from './deps'
import { bootstrapAdmin } from './users/service'

const config = readConfigOrExit()
const logger = createLogger(config.logLevel, 'admin')
const tracing = await createTracing({ endpoint: config.otlpEndpoint, service: 'admin', sampleRatio: config.traceSampleRatio })
const database = await createDb(config.databaseUrl, {
  dataDir: join(config.dataDir, 'pglite'),
  observer: tracing?.observeQuery,
  prepare: config.databasePrepare,
})
// idempotent (an advisory lock makes concurrent starters apply them once), and the bootstrap
// below needs the tables even when this service starts before the migrate job has finished
await migrateDb(database)
// the first admin from ADMIN_USERNAME/ADMIN_PASSWORD (or a generated password printed once)
await bootstrapAdmin(database, config, logger)
const lifecycle = createLifecycle()
const deps = await adminDepsFromConfig(config, { database, rateLimiter: createRateLimiter(database) })
const app = createApp({ ...deps, logger, lifecycle, corsOrigins: config.corsOrigins, tracing })
serve(app, {
  port: config.port,
  service: 'admin',
  logger,
  lifecycle,
  shutdownDelayMs: config.shutdownDelayMs,
  onClose: async () => {
    await database.close()
    await tracing?.shutdown()
  },
})
