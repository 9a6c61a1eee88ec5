import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createLogger, createRateLimiter } from '@app/kit'
import { createApp } from './app'

/** The news app over a fresh, demo-seeded test database. */
export async function createTestNews() {
  const database: TestDatabase = await createTestDatabase()
  const app = createApp({
    database,
    rateLimiter: createRateLimiter(database),
    trustedProxies: ['*'],
    logger: createLogger('silent'),
  })
  return { app, database }
}
