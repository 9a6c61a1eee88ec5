import { Elysia } from 'elysia'
import { readJsonLimited } from './body-limit'
import { compression } from './compression'
import { cors } from './cors'
import { errorEnvelope, HttpError, MESSAGES } from './errors'
import { health, type ReadinessCheck } from './health'
import { requestLog, type Logger } from './request-log'

export interface BaseAppOptions {
  service: string
  logger: Logger
  checks: Record<string, ReadinessCheck>
  isDraining?: () => boolean
  /** JSON bodies above this get 413; the API's JSON inputs are all small. */
  jsonLimitBytes?: number
  /** Origins allowed to write and to use the admin API from a browser (CORS_ORIGINS). */
  corsOrigins?: readonly string[]
}

export const DEFAULT_JSON_LIMIT_BYTES = 64 * 1024
/** No request declares more than this: the 24 MB upload plus multipart framing. */
export const MAX_DECLARED_BODY_BYTES = 25 * 1024 * 1024

/**
 * What every service app starts from: request id + log line, the error envelope, size-capped
 * JSON parsing, CORS, compression, `/health` and `/ready`.
 */
export function createBaseApp(options: BaseAppOptions) {
  const jsonLimit = options.jsonLimitBytes ?? DEFAULT_JSON_LIMIT_BYTES
  return new Elysia({ name: `base.${options.service}` })
    .use(requestLog(options.logger))
    .use(errorEnvelope(options.logger))
    .use(cors(options.corsOrigins))
    .use(compression())
    .onRequest(({ request }) => {
      if (Number(request.headers.get('content-length') ?? 0) > MAX_DECLARED_BODY_BYTES)
        throw new HttpError(413, MESSAGES.tooLarge)
    })
    .onParse({ as: 'global' }, ({ request, contentType }) => {
      if (contentType === 'application/json' || contentType?.startsWith('application/json'))
        return readJsonLimited(request, jsonLimit)
    })
    .use(health(options.service, options.checks, options.isDraining))
}
