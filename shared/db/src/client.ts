import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { SQL } from 'drizzle-orm'
import postgres from 'postgres'
import type { PGlite, PGliteInterface } from '@electric-sql/pglite'
import { createListener, type Listener } from './listener'
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
   * LISTEN on a channel (a dedicated connection on PostgreSQL, re-established after every drop
   * and retried until the database answers again; `onListen` runs at every (re)start).
   * Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>
  /** Queries and transactions sent and not yet settled, against the pool size (see PoolStats). */
  pool(): PoolStats
  close(): Promise<void>
}

/**
 * postgres.js does not expose its connection queues, so the pool is measured from outside:
 * `inFlight` counts queries and transactions sent through this Database and not yet settled
 * (a transaction counts once, for its whole duration: it holds one connection). Up to `max` of
 * them hold a connection; the rest wait for one. The LISTEN connection is not counted.
 */
export interface PoolStats {
  inFlight: number
  max: number
}

/**
 * Called as each query is sent (its SQL text); the function it returns is called once when the
 * query settles, with the error if it failed. Tracing uses it for one span per query.
 */
export type QueryObserver = (text: string) => (error?: unknown) => void

export interface CreateDbOptions {
  /** PGlite data directory when no URL is given; undefined keeps PGlite in memory. */
  dataDir?: string
  /** Pool size per process for PostgreSQL. */
  max?: number
  /** Per-statement limit: a hung database must become a 503, not a hung request. */
  statementTimeoutMs?: number
  connectTimeoutSeconds?: number
  /**
   * Client-side limit on each query, including the wait for a pooled connection. A database that
   * is stopped with SIGSTOP (or a network that drops packets) enforces no statement_timeout and
   * sends no reset: without this a request would wait for ever.
   */
  queryDeadlineMs?: number
  /** Sees every query (tracing); absent, queries are only counted for `pool()`. */
  observer?: QueryObserver
  /**
   * Queries with parameters as named prepared statements (PostgreSQL plans each shape once per
   * connection). Off behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  prepare?: boolean
}

/** Server-side limit per statement (a slow query). */
export const STATEMENT_TIMEOUT_MS = 3500
/** Client-side limit per query (a hung server): just above the statement timeout. */
export const QUERY_DEADLINE_MS = 4000

/**
 * Seconds before a closed connection reconnects, after `retries` failed attempts in a row (shared
 * by the pool): 25-50 ms, doubling, at most 0.5-1 s. postgres.js's default (3^n/100 s, up to
 * 10-20 s) grows past ten seconds after a handful of refused attempts while the database is
 * down, and then queries wait in its queue until their deadline instead of failing at once, and
 * the pool (and the LISTEN connection) reconnects up to 20 s after the database is back.
 */
export function reconnectBackoff(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2)
}

/**
 * PostgreSQL through postgres.js when `url` is set, PGlite (Postgres in WASM) otherwise.
 * Both speak the same SQL, so every query, migration and test runs unchanged on either.
 */
export async function createDb(url: string | undefined, options: CreateDbOptions = {}): Promise<Database> {
  if (url) return createPostgres(url, options)
  return createPglite(options.dataDir, options.observer)
}

type Counter = { inFlight: number }

/**
 * postgres.js queries are lazy thenables that run on their first `then`: counting starts there
 * and ends when the query settles, whoever awaits it (drizzle calls `.values()` before awaiting).
 */
function track<Q extends PromiseLike<unknown>>(
  query: Q,
  text: string,
  counter: Counter | undefined,
  observer?: QueryObserver,
): Q {
  const then = query.then
  let started = false
  ;(query as { then: unknown }).then = function (this: Q, onFulfilled?: unknown, onRejected?: unknown) {
    if (!started) {
      started = true
      if (counter) counter.inFlight++
      const done = observer?.(text)
      then.call(
        query,
        () => {
          if (counter) counter.inFlight--
          done?.()
        },
        (error: unknown) => {
          if (counter) counter.inFlight--
          done?.(error)
        },
      )
    }
    return then.call(query, onFulfilled as never, onRejected as never)
  }
  return query
}

/**
 * The postgres.js client as drizzle sees it, with every query counted (and observed): `unsafe`
 * (all drizzle queries), tagged templates, and `begin`/`savepoint`, whose transaction client is
 * wrapped too. Inside a transaction queries are observed but not counted again.
 */
/**
 * drizzle sends every query through `unsafe` with `prepare: false`, so PostgreSQL would parse and
 * plan each one again (the related-events query plans in ~3 ms and runs in ~1): queries with
 * parameters become named prepared statements, one per query shape and connection (the shapes
 * are bounded by the code: values are always parameters).
 */
function prepared(params: unknown[] | undefined, options: object | undefined): object | undefined {
  return params?.length ? { ...options, prepare: true } : options
}

/**
 * drizzle writes a query's text by concatenation, which the engine keeps as a rope: a tree of the
 * pieces, ~60 small strings per query. postgres.js keeps the text of every prepared statement per
 * connection, so the ropes stayed: 85% of the strings in a catalog's heap after the lists bench (a
 * heap snapshot: 195k of 231k). Reading a character of it by index flattens it in place.
 */
function flatten(text: string): void {
  // indexing resolves a rope (charCodeAt may walk it without resolving); kept so it is not elided
  flattened = text[text.length >> 1]
}
let flattened: string | undefined

function instrumentPostgres<T extends object>(
  client: T,
  counter: Counter | undefined,
  observer: QueryObserver | undefined,
  prepare: boolean,
): T {
  return new Proxy(client, {
    apply(target, thisArg, args) {
      const result = Reflect.apply(target as (...a: unknown[]) => unknown, thisArg, args)
      const strings = args[0] as TemplateStringsArray | undefined
      if (Array.isArray(strings) && 'raw' in strings && result && typeof (result as PromiseLike<unknown>).then === 'function')
        return track(result as PromiseLike<unknown>, strings.join('?'), counter, observer)
      return result
    },
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (property === 'unsafe')
        return (text: string, params?: unknown[], options?: object) => {
          if (prepare && params?.length) flatten(text)
          return track(value.call(target, text, params, prepare ? prepared(params, options) : options), text, counter, observer)
        }
      if (property === 'begin' || property === 'savepoint')
        return async (...args: unknown[]) => {
          const body = args[args.length - 1] as (tx: object) => unknown
          args[args.length - 1] = (tx: object) => body(instrumentPostgres(tx, undefined, observer, prepare))
          if (counter) counter.inFlight++
          try {
            return await value.apply(target, args)
          } finally {
            if (counter) counter.inFlight--
          }
        }
      return value
    },
  })
}

function createPostgres(url: string, options: CreateDbOptions): Database {
  const max = options.max ?? 10
  const counter: Counter = { inFlight: 0 }
  const connectionOptions = {
    connect_timeout: options.connectTimeoutSeconds ?? 3,
    backoff: reconnectBackoff,
    onnotice: () => {},
    connection: { statement_timeout: options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS, application_name: 'event-catalog' },
  }
  const raw = postgres(url, { ...connectionOptions, max, idle_timeout: 30 })
  // LISTEN gets its own connection, opened on the first listen()
  let listener: Listener | undefined
  // So does the readiness ping, opened on the first ping(): it answers whether the database is
  // reachable, not how long the pool's queue is. On the pool, after a hung database came back,
  // the ping waited behind every query piled up meanwhile, /ready took longer than the gateway's
  // health timeout on every replica at once, and the gateway had no replica left to send to
  // (the fault suite, run after run on a slow VM).
  let pinger: ReturnType<typeof postgres> | undefined
  // never below the server's own statement limit: a slow query is the server's to cancel
  const deadlineMs = options.queryDeadlineMs ?? Math.max(QUERY_DEADLINE_MS, (options.statementTimeoutMs ?? 0) + 500)
  const client = instrumentPostgres(raw, counter, options.observer, options.prepare ?? true)
  // drizzle sends every query through `unsafe` (and transactions through `begin`/`savepoint`)
  const db = drizzlePostgres(withDeadline(client, deadlineMs) as typeof client, { schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    url,
    pool: () => ({ inFlight: counter.inFlight, max }),
    rows: async <T>(query: SQL) => (await db.execute(query)) as unknown as T[],
    ping: async () => {
      pinger ??= postgres(url, { ...connectionOptions, max: 1, idle_timeout: 30 })
      await deadline(pinger`select 1`, deadlineMs)
    },
    listen: (channel, onNotify, onListen) => {
      listener ??= createListener(url, connectionOptions)
      return listener.listen(channel, onNotify, onListen)
    },
    close: async () => {
      await Promise.all([raw.end({ timeout: 5 }), listener?.end(), pinger?.end({ timeout: 5 })])
    },
  }
}

function deadlineError(ms: number) {
  return new DatabaseUnavailableError(`database did not answer within ${ms} ms`)
}

/** Settles like `work`, or rejects with DatabaseUnavailableError after `ms`. */
function deadline<T>(work: PromiseLike<T>, ms: number): Promise<T> {
  let timer: Timer | undefined
  return Promise.race([
    Promise.resolve(work),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(deadlineError(ms)), ms))),
  ]).finally(() => clearTimeout(timer))
}

/**
 * A postgres.js query (a lazy promise with `.values()`) whose awaiting is bounded by `ms`. The
 * query itself keeps its connection until the server answers; the caller gets a 503 meanwhile.
 */
function deadlinedQuery(query: any, ms: number): any {
  let settled: Promise<unknown> | undefined
  return new Proxy(query, {
    get(target, key) {
      if (key === 'values') return () => deadlinedQuery(target.values(), ms)
      if (key === 'then' || key === 'catch' || key === 'finally') {
        settled ??= deadline(target, ms)
        return (settled as any)[key].bind(settled)
      }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * Bounds a transaction: BEGIN (which waits for a connection) and COMMIT each within `ms`, every
 * statement inside within `ms`. A statement refused inside rolls the transaction back (once the
 * server answers), so a hung database never leaves half a write behind.
 */
function deadlinedTransaction(target: any, method: 'begin' | 'savepoint', ms: number) {
  return (...args: any[]) =>
    new Promise((resolve, reject) => {
      const body = args.pop() as (tx: any) => Promise<unknown>
      let timer: Timer | undefined
      const arm = () => (timer = setTimeout(() => reject(deadlineError(ms)), ms))
      arm()
      Promise.resolve(
        target[method](...args, async (tx: any) => {
          clearTimeout(timer)
          try {
            return await body(withDeadline(tx, ms))
          } finally {
            arm()
          }
        }),
      )
        .then(resolve, reject)
        .finally(() => clearTimeout(timer))
    })
}

/** The client drizzle sees: `unsafe`, `begin` and `savepoint` bounded by `ms`. */
function withDeadline(client: any, ms: number): any {
  return new Proxy(client, {
    get(target, key) {
      if (key === 'unsafe') return (...args: any[]) => deadlinedQuery(target.unsafe(...args), ms)
      if (key === 'begin' || key === 'savepoint') return deadlinedTransaction(target, key, ms)
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

async function createPglite(dataDir: string | undefined, observer?: QueryObserver): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent')
  if (dataDir) (await import('node:fs')).mkdirSync(dataDir, { recursive: true })
  return await wrapPglite(await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent } }), observer)
}

/** PGlite is one connection: `query`/`exec` count while they run, a transaction for its duration. */
function instrumentPglite(client: PGliteInterface, counter: Counter, observer?: QueryObserver): PGliteInterface {
  const wrap = (target: object, counted: boolean): never =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver)
        if (typeof value !== 'function') return value
        if (property === 'query' || property === 'exec' || property === 'transaction')
          return async (...args: unknown[]) => {
            if (property === 'transaction') {
              const body = args[0] as (tx: object) => unknown
              args[0] = (tx: object) => body(wrap(tx, false))
            }
            const done = property === 'transaction' ? undefined : observer?.(String(args[0]))
            if (counted) counter.inFlight++
            try {
              const result = await value.apply(object, args)
              done?.()
              return result
            } catch (error) {
              done?.(error)
              throw error
            } finally {
              if (counted) counter.inFlight--
            }
          }
        return value.bind(object)
      },
    }) as never
  return wrap(client, true)
}

/**
 * A Database over an already open PGlite instance. Its driver is imported here, not at the top:
 * it loads PGlite itself (0.5 MB of JavaScript), which a service on PostgreSQL never uses.
 */
export async function wrapPglite(raw: PGliteInterface, observer?: QueryObserver): Promise<Database> {
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite')
  const counter: Counter = { inFlight: 0 }
  const client = instrumentPglite(raw, counter, observer)
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Db
  let closed = false
  return {
    db,
    kind: 'pglite',
    pool: () => ({ inFlight: counter.inFlight, max: 1 }),
    rows: async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    ping: async () => {
      if (closed) throw new DatabaseUnavailableError('database closed')
      await client.query('select 1')
    },
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await raw.listen(channel, onNotify)
      onListen?.()
      return unlisten
    },
    close: async () => {
      if (closed) return
      closed = true
      await raw.close()
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

// A lost or refused connection: errno codes of a socket call (node:net sets `syscall`),
// postgres.js's own connection errors, and the server errors that end a session (class 08
// connection exception, 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now,
// 53300 too many connections).
const SOCKET_ERRNO_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
])
const DRIVER_CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT'])
const SESSION_ENDING_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/

/**
 * True when an error (possibly wrapped by drizzle in `cause`) only says that one database
 * connection was lost or refused: nothing about the data or the code that sent the query.
 */
export function isConnectionLost(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause, depth++) {
    const code = typeof e.code === 'string' ? e.code : ''
    if (SOCKET_ERRNO_CODES.has(code) && typeof e.syscall === 'string') return true
    if (DRIVER_CONNECTION_CODES.has(code)) return true
    if (e.name === 'PostgresError' && SESSION_ENDING_SQLSTATE.test(code)) return true
  }
  return false
}

/** The first `code` in an error's cause chain (SQLSTATE, errno or driver code), for logs. */
export function errorCode(error: unknown): string | undefined {
  for (let e: any = error, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause, depth++)
    if (typeof e.code === 'string') return e.code
  return undefined
}

/** The Postgres SQLSTATE of an error, looking through drizzle's wrapper. */
export function sqlState(error: unknown): string | undefined {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code
  }
  return undefined
}
