// bun run db:migrate: applies the committed migrations to DATABASE_URL, or to the PGlite
// database under DATA_DIR when DATABASE_URL is not set.
import { join } from 'node:path'
import { createDb } from '../client'
import { migrateDb } from '../migrate'

const url = process.env.DATABASE_URL || undefined
const database = await createDb(url, { dataDir: join(process.env.DATA_DIR || './data', 'pglite') })
try {
  await migrateDb(database)
  console.log(`migrations applied (${database.kind})`)
} finally {
  await database.close()
}
