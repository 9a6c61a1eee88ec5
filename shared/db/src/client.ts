import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { SQL } from 'drizzle-orm'
import postgres from 'postgres'
import type { PGlite, PGliteInterface } from '@electric-sql/pglite'
import { schema } from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export interface Database {
  db: Db
  kind: 'postgres' | 'pglite'
  /** The PostgreSQL URL (postgres only): migrations open their own single connection. */
  url?: string
  /** Runs raw SQL and returns its rows, whichever driver is underneath. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>
  /**
   * LISTEN on a channel (a dedicated connection on PostgreSQL, re-established after a drop;
   * `onListen` runs at every (re)start). Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface CreateDbOptions {
  /** PGlite data directory when no URL is given; undefined keeps PGlite in memory. */
  dataDir?: string
  /** Pool size per process for PostgreSQL. */
  max?: number
  /** Per-statement limit: a hung database must become a 503, not a hung request. */
  statementTimeoutMs?: number
  connectTimeoutSeconds?: number
}

/**
 * PostgreSQL through postgres.js when `url` is set, PGlite (Postgres in WASM) otherwise.
 * Both speak the same SQL, so every query, migration and test runs unchanged on either.
 */
export async function createDb(url: string | undefined, options: CreateDbOptions = {}): Promise<Database> {
  if (url) return createPostgres(url, options)
  return createPglite(options.dataDir)
}

function createPostgres(url: string, options: CreateDbOptions): Database {
  const client = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 3,
    idle_timeout: 30,
    onnotice: () => {},
    connection: { statement_timeout: options.statementTimeoutMs ?? 5000, application_name: 'event-catalog' },
  })
  const db = drizzlePostgres(client, { schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    url,
    rows: async <T>(query: SQL) => (await db.execute(query)) as unknown as T[],
    ping: async () => {
      await client`select 1`
    },
    listen: async (channel, onNotify, onListen) => {
      const { unlisten } = await client.listen(channel, onNotify, onListen)
      return unlisten
    },
    close: () => client.end({ timeout: 5 }),
  }
}

async function createPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent')
  if (dataDir) (await import('node:fs')).mkdirSync(dataDir, { recursive: true })
  return wrapPglite(await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent } }))
}

/** A Database over an already open PGlite instance. */
export function wrapPglite(client: PGliteInterface): Database {
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Db
  let closed = false
  return {
    db,
    kind: 'pglite',
    rows: async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    ping: async () => {
      if (closed) throw new DatabaseUnavailableError('database closed')
      await client.query('select 1')
    },
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await client.listen(channel, onNotify)
      onListen?.()
      return unlisten
    },
    close: async () => {
      if (closed) return
      closed = true
      await client.close()
    },
  }
}

export class DatabaseUnavailableError extends Error {}

// Postgres error classes that mean "the database cannot serve now", not "the query is wrong":
// 08 connection exception, 53 insufficient resources, 57 operator intervention (incl. 57014
// statement timeout), 58 system error.
const UNAVAILABLE_SQLSTATE = /^(08|53|57|58)/
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
])

/** True when an error (possibly wrapped by drizzle in `cause`) means the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return true
    const code = typeof e.code === 'string' ? e.code : ''
    if (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true
    if (typeof e.message === 'string' && /PGlite is closed|database closed/i.test(e.message)) return true
  }
  return false
}

/** The Postgres SQLSTATE of an error, looking through drizzle's wrapper. */
export function sqlState(error: unknown): string | undefined {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code
  }
  return undefined
}
