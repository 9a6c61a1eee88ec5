// bun run db:seed: migrates, then inserts the demo catalogue (idempotent).
import { join } from 'node:path'
import { createDb } from '../client'
import { migrateDb } from '../migrate'
import { seedDemo } from '../seed'

const url = process.env.DATABASE_URL || undefined
const database = await createDb(url, { dataDir: join(process.env.DATA_DIR || './data', 'pglite') })
try {
  await migrateDb(database)
  await seedDemo(database)
  console.log(`demo data present (${database.kind})`)
} finally {
  await database.close()
}
