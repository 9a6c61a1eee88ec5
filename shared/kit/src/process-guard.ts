// Last line of defence: a lost database connection never ends a service process.
//
// The driver reports a lost connection to the queries that were using it, and those answer 503.
// An error that escapes anyway (a promise inside the driver nobody awaits, such as postgres.js's
// array types query on a new connection, patched in patches/postgres@3.4.9.patch, or an
// 'error' event on a socket whose listeners are gone) would otherwise end the process: Bun, like
// Node, exits on an unhandled rejection or an uncaught exception. Surviving those is sound
// because such an error is only about one connection that is already dead: the driver has closed
// it, moved it out of the pool and reconnects on the next query; no request, transaction or
// in-process state depends on the promise that nobody awaited. Exiting instead would fail every
// request in flight on the replica and cut the capacity of the service while the database is
// what is down. So the error is logged and the process keeps serving.
//
// Anything else that escapes is a bug whose effect on the process cannot be bounded: it is
// logged and the process exits with status 1, as it would without this guard, so the
// orchestrator restarts it.
import { isConnectionLost } from '@app/db'
import type { Logger } from './request-log'

let installed = false

function describe(error: unknown) {
  const e = error as { name?: unknown; code?: unknown; message?: unknown; stack?: unknown } | undefined
  return {
    name: typeof e?.name === 'string' ? e.name : typeof error,
    code: typeof e?.code === 'string' ? e.code : undefined,
    error: typeof e?.message === 'string' ? e.message : String(error),
    stack: typeof e?.stack === 'string' ? e.stack : undefined,
  }
}

/** Installs the process handlers once per process (`serve` does, for every service). */
export function guardProcess(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)) {
  if (installed) return
  installed = true
  const handle = (kind: 'unhandled rejection' | 'uncaught exception') => (error: unknown) => {
    if (isConnectionLost(error)) {
      logger.error(`database connection error (${kind}) survived: the driver reconnects`, describe(error))
      return
    }
    logger.error(`${kind}: exiting`, describe(error))
    exit(1)
  }
  process.on('unhandledRejection', handle('unhandled rejection'))
  process.on('uncaughtException', handle('uncaught exception'))
}
