import { join } from 'node:path'
import type { Database } from '@app/db'
import { createLogger, type Config, type Logger, type RateLimiter } from '@app/kit'
import { normalizePublicMediaUrl } from './media-url'
import { createDiskStorage, createS3Storage, type S3Timeouts, type Storage } from './storage'

export interface MediaDeps {
  database: Database
  rateLimiter: RateLimiter
  trustedProxies: string[]
  /** Where uploads go: MinIO/S3 when S3_ENDPOINT is set, `${DATA_DIR}/media` otherwise. */
  storage: Storage
  /** PUBLIC_MEDIA_URL with a trailing slash; upload URLs are this plus the key. */
  publicMediaUrl: string
  /** Uploads per client address per minute. */
  uploadLimitPerMinute: number
  /** File checks per client address per minute. */
  checkFileLimitPerMinute: number
}

export function storageFromConfig(config: Config, logger?: Logger, timeouts?: Partial<S3Timeouts>): Storage {
  // uploads are staged under DATA_DIR (S3 driver too): each deployment and each test keeps its own
  return config.s3
    ? createS3Storage(config.s3, { logger, timeouts, stagingDirectory: join(config.dataDir, 'media-staging') })
    : createDiskStorage(join(config.dataDir, 'media'), logger)
}

/**
 * Media deps from the environment. The bucket (or directory) is made now when the store can be
 * reached; when it cannot, the service still starts, `/ready` reports `storage` down, and the
 * bucket is made on the first call that finds the store back.
 */
export async function mediaDepsFromConfig(
  config: Config,
  shared: { database: Database; rateLimiter: RateLimiter },
  options: { logger?: Logger; s3Timeouts?: Partial<S3Timeouts> } = {},
): Promise<MediaDeps> {
  const logger = options.logger ?? createLogger(config.logLevel, 'media')
  const publicMediaUrl = normalizePublicMediaUrl(config.publicMediaUrl, config.port)
  const storage = storageFromConfig(config, logger, options.s3Timeouts)
  try {
    await storage.ping()
    logger.info('media storage ready', { driver: storage.driver, public_media_url: publicMediaUrl })
  } catch (error) {
    logger.warn('media storage not reachable at start', {
      driver: storage.driver,
      error: String((error as any)?.cause?.message ?? (error as any)?.message ?? error),
    })
  }
  return {
    database: shared.database,
    rateLimiter: shared.rateLimiter,
    trustedProxies: config.trustedProxies,
    storage,
    publicMediaUrl,
    uploadLimitPerMinute: config.uploadLimitPerMinute,
    checkFileLimitPerMinute: config.checkFileLimitPerMinute,
  }
}
