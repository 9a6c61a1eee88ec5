import { Elysia } from 'elysia'

export type LogFields = Record<string, unknown>
export interface Logger {
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
}

/** One JSON object per line on stdout (errors on stderr); `silent` for tests. */
export function createLogger(level: 'info' | 'warn' | 'error' | 'silent' = 'info', service = 'app'): Logger {
  const rank = { info: 0, warn: 1, error: 2, silent: 3 }[level]
  const write = (lvl: 'info' | 'warn' | 'error', msg: string, fields?: LogFields) => {
    if ({ info: 0, warn: 1, error: 2 }[lvl] < rank) return
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, service, msg, ...fields })
    if (lvl === 'error') console.error(line)
    else console.log(line)
  }
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  }
}

const started = new WeakMap<Request, { id: string; at: number }>()
const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/

export function requestIdOf(request: Request): string | undefined {
  return started.get(request)?.id
}

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane, so a gateway's id
 * carries through), echoes it, and logs one line when the response is done.
 */
export const requestLog = (logger: Logger) =>
  new Elysia({ name: 'kit.request-log' })
    .onRequest(({ request, set }) => {
      const given = request.headers.get('x-request-id')
      const id = given && SAFE_ID.test(given) ? given : Bun.randomUUIDv7()
      started.set(request, { id, at: performance.now() })
      set.headers['x-request-id'] = id
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, ...rest }) => {
      const info = started.get(request)
      // error envelopes are Responses of their own: their status is not in `set`
      const answer = (rest as { responseValue?: unknown }).responseValue
      const status = answer instanceof Response ? answer.status : typeof set.status === 'number' ? set.status : 200
      logger.info('request', {
        method: request.method,
        path: new URL(request.url).pathname,
        status,
        ms: info ? Math.round((performance.now() - info.at) * 10) / 10 : undefined,
        request_id: info?.id,
      })
    })
