// `bun start`: all four services in ONE process on one port, on embedded defaults (PGlite under
// DATA_DIR, files on local disk) unless DATABASE_URL / S3_ENDPOINT say otherwise. The same
// service plugins run as separate processes behind Caddy in production (services/*/src/main.ts).
import { join } from 'node:path'
import { createDb, isEmptyCatalogue, migrateDb, seedDemo } from '@app/db'
import {
  ConfigError,
  createBaseApp,
  createLifecycle,
  createLogger,
  createRateLimiter,
  createTracing,
  docs,
  readConfigOrExit,
  serve,
} from '@app/kit'
import { adminDepsFromConfig, adminService, bootstrapAdmin } from '@app/admin'
import { catalogDepsFromConfig, catalogService } from '@app/catalog'
import { mediaDepsFromConfig, mediaService } from '@app/media'
import { newsDepsFromConfig, newsService } from '@app/news'

const config = readConfigOrExit()
const logger = createLogger(config.logLevel, 'all')
const tracing = await createTracing({ endpoint: config.otlpEndpoint, service: 'all', sampleRatio: config.traceSampleRatio })
const database = await createDb(config.databaseUrl, {
  dataDir: join(config.dataDir, 'pglite'),
  observer: tracing?.observeQuery,
  prepare: config.databasePrepare,
})
await migrateDb(database)
if (config.seedDemo && (await isEmptyCatalogue(database))) {
  await seedDemo(database)
  logger.info('demo data seeded')
}
await bootstrapAdmin(database, config, logger)

const shared = { database, rateLimiter: createRateLimiter(database), observer: tracing?.observeQuery, logger }
const media = await mediaDepsFromConfig(config, shared).catch(async (error) => {
  if (!(error instanceof ConfigError)) throw error
  console.error(`Invalid configuration: ${error.message}`)
  await database.close()
  process.exit(1)
})
const catalog = await catalogDepsFromConfig(config, shared)
const news = await newsDepsFromConfig(config, shared)
const lifecycle = createLifecycle()
const app = createBaseApp({
  service: 'all',
  logger,
  checks: {
    database: () => database.ping(),
    storage: () => media.storage.ping(),
    ...(catalog.readDatabase ? { readDatabase: () => catalog.readDatabase!.ping() } : {}),
  },
  isDraining: () => lifecycle.draining,
  corsOrigins: config.corsOrigins,
  tracing,
  metricSources: {
    caches: { catalog: catalog.cache, news: news.cache },
    pools: { primary: database, 'read-catalog': catalog.readDatabase, 'read-news': news.readDatabase },
    listIndex: catalog.listIndex,
  },
})
  .use(docs('Event Catalog API', 'API katalog event Indonesia: event, kategori, kota, tag, berita, media, dan admin.'))
  .use(catalogService(catalog))
  .use(newsService(news))
  .use(mediaService(media))
  .use(adminService(await adminDepsFromConfig(config, shared)))

serve(app, {
  port: config.port,
  service: 'all',
  logger,
  lifecycle,
  shutdownDelayMs: config.shutdownDelayMs,
  onClose: async () => {
    catalog.listIndex?.close()
    await Promise.all([catalog.cache?.close(), news.cache?.close()])
    await Promise.all([catalog.readDatabase?.close(), news.readDatabase?.close()])
    await database.close()
    await tracing?.shutdown()
  },
})
// where the editors go (through the gateway in production: https://<host>/admin/)
console.log(`\n  Studio admin: http://localhost:${config.port}/admin/  (bun run admin:create membuat owner)\n`)
