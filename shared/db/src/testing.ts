// Test databases: real PostgreSQL when DATABASE_URL is set (CI), PGlite otherwise.
// Each test file gets its own database with the migrations and the demo data applied, so files
// never see each other's writes:
// - PostgreSQL: one template database per test process, then CREATE DATABASE ... TEMPLATE per file;
// - PGlite: one migrated+seeded instance per process, then a clone() per file.
import postgres from 'postgres'
import type { PGliteInterface } from '@electric-sql/pglite'
import { createDb, wrapPglite, type Database } from './client'
import { migrateDb } from './migrate'
import { seedDemo } from './seed'

let template: Promise<string> | undefined
let pgliteBase: Promise<Database> | undefined
let counter = 0
const runId = `${process.pid}_${Date.now().toString(36)}`

function databaseUrl(base: string, name: string): string {
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

async function admin<T>(baseUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(baseUrl, { max: 1, onnotice: () => {} })
  try {
    return await fn(sql)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

async function createTemplate(baseUrl: string): Promise<string> {
  const name = `tmpl_${runId}`
  await admin(baseUrl, (sql) => sql.unsafe(`create database "${name}"`))
  const database = await createDb(databaseUrl(baseUrl, name), { max: 2 })
  try {
    await migrateDb(database)
    await seedDemo(database)
  } finally {
    await database.close()
  }
  return name
}

export interface TestDatabase extends Database {
  /** The PostgreSQL URL of this test's own database (undefined on PGlite). */
  url?: string
}

type Transaction = Parameters<Parameters<Database['db']['transaction']>[0]>[0]

/** Runs `work` in a transaction that is always rolled back (what it wrote is never seen after). */
export async function inRolledBackTransaction(database: Database, work: (tx: Transaction) => Promise<unknown>): Promise<void> {
  const rollback = new Error('rollback')
  await database.db
    .transaction(async (tx) => {
      await work(tx)
      throw rollback
    })
    .catch((error) => {
      if (error !== rollback) throw error
    })
}

/** A fresh, migrated, demo-seeded database for one test file. Close it in afterAll. */
export async function createTestDatabase(options: { statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl) {
    template ??= createTemplate(baseUrl)
    const templateName = await template
    const name = `t_${runId}_${++counter}`
    await admin(baseUrl, (sql) => sql.unsafe(`create database "${name}" template "${templateName}"`))
    const url = databaseUrl(baseUrl, name)
    // bulk fixtures on a busy machine take longer than a request may (the services keep 3.5 s)
    const database = await createDb(url, { max: 5, statementTimeoutMs: options.statementTimeoutMs ?? 30_000 })
    return {
      ...database,
      url,
      close: async () => {
        await database.close()
        await admin(baseUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`))
      },
    }
  }
  pgliteBase ??= (async () => {
    const base = await createDb(undefined)
    await migrateDb(base)
    await seedDemo(base)
    return base
  })()
  const base = await pgliteBase
  const clientOf = (base.db as any).$client as PGliteInterface
  return wrapPglite(await clientOf.clone())
}

/** Drops the template database / closes the PGlite base; call once when the test process ends. */
export async function disposeTestDatabases(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl && template) {
    const name = await template.catch(() => undefined)
    if (name) await admin(baseUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`))
  }
  if (pgliteBase) await (await pgliteBase).close()
}
