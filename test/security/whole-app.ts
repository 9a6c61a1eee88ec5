// The whole API as `bun start` composes it (main.ts): every service in one Elysia app over one
// test database (PostgreSQL with DATABASE_URL, else PGlite), uploads on a temporary disk, listening
// on a free loopback port so tests speak real HTTP. Services never import each other; only the
// composition root and root tests combine them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createBaseApp, createLogger, createRateLimiter, docs, readConfig } from '@app/kit'
import { adminDepsFromConfig, adminService, bootstrapAdmin } from '@app/admin'
import { catalogDepsFromConfig, catalogService } from '@app/catalog'
import { mediaDepsFromConfig, mediaService } from '@app/media'
import { newsDepsFromConfig, newsService } from '@app/news'

export const ADMIN = { username: 'penjaga', password: 'kata-sandi-keamanan-2026' }

export interface WholeApp {
  base: string
  app: { handle(request: Request): Promise<Response> }
  /** Every route the app serves (method, path template), read from the app itself. */
  routes: Array<{ method: string; path: string }>
  database: TestDatabase
  stop(): Promise<void>
}

export async function startWholeApp(env: Record<string, string> = {}): Promise<WholeApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'whole-app-'))
  const database = await createTestDatabase()
  const config = readConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    ...env,
  })
  const logger = createLogger('silent', 'all')
  await bootstrapAdmin(database, config, logger)
  const shared = { database, rateLimiter: createRateLimiter(database) }
  const media = await mediaDepsFromConfig(config, shared)
  const catalog = await catalogDepsFromConfig(config, shared)
  const news = await newsDepsFromConfig(config, shared)
  const app = createBaseApp({ service: 'all', logger, checks: { database: () => database.ping() } })
    .use(docs('Event Catalog API', 'API katalog event Indonesia.'))
    .use(catalogService(catalog))
    .use(newsService(news))
    .use(mediaService(media))
    .use(adminService(await adminDepsFromConfig(config, shared)))
  app.listen({ hostname: '127.0.0.1', port: 0, maxRequestBodySize: 26 * 1024 * 1024 })
  return {
    base: `http://127.0.0.1:${app.server!.port}`,
    app,
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    database,
    async stop() {
      await app.stop(true)
      catalog.listIndex?.close()
    await Promise.all([catalog.cache?.close(), news.cache?.close()])
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
