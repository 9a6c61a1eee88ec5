import { fileURLToPath } from 'node:url'
import type { Database } from './client'

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url))

/**
 * Applies the committed SQL migrations. On PostgreSQL a session advisory lock on one
 * dedicated connection makes concurrent starters (several services, or the migrate job and a
 * service) apply them exactly once.
 */
export async function migrateDb(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator')
    await migrate(database.db as any, { migrationsFolder })
    return
  }
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const { migrate } = await import('drizzle-orm/postgres-js/migrator')
  const client = postgres(database.url!, { max: 1, onnotice: () => {}, connect_timeout: 10 })
  try {
    await client`select pg_advisory_lock(724011)`
    await migrate(drizzle(client), { migrationsFolder })
  } finally {
    await client.end({ timeout: 5 })
  }
}
