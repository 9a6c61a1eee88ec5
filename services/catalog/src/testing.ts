import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createLogger, createRateLimiter } from '@app/kit'
import { createApp } from './app'

/** The catalog app over a fresh, demo-seeded test database. */
export async function createTestCatalog(overrides: { submitLimitPerHour?: number; now?: () => number } = {}) {
  const database: TestDatabase = await createTestDatabase()
  const app = createApp({
    database,
    rateLimiter: createRateLimiter(database),
    submitLimitPerHour: overrides.submitLimitPerHour ?? 1000,
    trustedProxies: ['*'],
    now: overrides.now,
    logger: createLogger('silent'),
  })
  return { app, database }
}

/** The ids of a list's cards, from its JSON array text (`listEvents`' `itemsJson`). */
export const idsOf = (itemsJson: string) => (JSON.parse(itemsJson) as { id: string }[]).map((c) => c.id)
