import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { createRateLimiter, readConfig } from '@app/kit'
import { catalogDepsFromConfig } from './deps'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

describe('catalog deps', () => {
  test('public reads on the primary get a pool of DATABASE_READ_POOL connections', async () => {
    const shared = { database, rateLimiter: createRateLimiter(database) }
    const config = (env: Record<string, string>) => readConfig({ DATABASE_URL: database.url ?? '', ...env })
    const sized = await catalogDepsFromConfig(config({ DATABASE_READ_POOL: '3' }), shared)
    const fallback = await catalogDepsFromConfig(config({}), shared)
    try {
      if (!database.url) {
        // PGlite: one connection, public reads share it
        expect(sized.readDatabase).toBeUndefined()
        return
      }
      expect(sized.readDatabase?.pool().max).toBe(3)
      expect(fallback.readDatabase?.pool().max).toBe(4)
      // the pool reads: a query on it answers
      expect(await sized.readDatabase!.rows<{ one: number }>(sql`select 1 as one`)).toEqual([{ one: 1 }])
    } finally {
      for (const deps of [sized, fallback]) {
        await deps.cache?.close()
        await deps.readDatabase?.close()
      }
    }
  })
})
