// Test helpers: the media app over either driver, and a real S3-compatible server (s3rver) on loopback.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import type { Database } from '@app/db'
import { createLogger, createRateLimiter, readConfig } from '@app/kit'
import { createApp } from './app'
import { mediaDepsFromConfig, type MediaDeps } from './deps'
import type { S3Timeouts } from './storage'

export const S3RVER_KEY = 'S3RVER'

/** Timeout for hooks and tests that open a database or move 24 MB (PGlite takes seconds to start). */
export const SLOW = 60_000

/** s3rver on 127.0.0.1 on a free port, over a temporary directory; `stop()` closes it and removes the files. */
export async function startS3rver(): Promise<{ endpoint: string; port: number; stop(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'media-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const address = (await server.run()) as { port: number }
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    async stop() {
      await server.close().catch(() => {})
      await rm(directory, { recursive: true, force: true })
    },
  }
}

/** A loopback port nothing listens on (taken, then released). */
export function closedPort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

export interface TestMediaOptions {
  /** S3 endpoint (s3rver, or a closed port); disk storage in a temporary DATA_DIR when absent. */
  s3Endpoint?: string
  bucket?: string
  publicMediaUrl?: string
  uploadLimitPerMinute?: number
  checkFileLimitPerMinute?: number
  timeouts?: Partial<S3Timeouts>
}

/** The media app (as its own service) over `database`, configured the way main.ts does it, from env-style values. */
export async function createTestMedia(database: Database, options: TestMediaOptions = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'media-test-'))
  const env: Record<string, string> = {
    PORT: '3000',
    DATA_DIR: dataDir,
    PUBLIC_MEDIA_URL: options.publicMediaUrl ?? 'http://localhost:3000/media/',
    UPLOAD_LIMIT_PER_MINUTE: String(options.uploadLimitPerMinute ?? 100_000),
    CHECK_FILE_LIMIT_PER_MINUTE: String(options.checkFileLimitPerMinute ?? 100_000),
    TRUSTED_PROXIES: '*',
  }
  if (options.s3Endpoint) {
    env.S3_ENDPOINT = options.s3Endpoint
    env.S3_ACCESS_KEY = S3RVER_KEY
    env.S3_SECRET_KEY = S3RVER_KEY
    env.S3_BUCKET = options.bucket ?? `media-${Bun.randomUUIDv7().slice(-12)}`
  }
  const config = readConfig(env)
  const logger = createLogger('silent')
  const deps: MediaDeps = await mediaDepsFromConfig(
    config,
    { database, rateLimiter: createRateLimiter(database) },
    { logger, s3Timeouts: options.timeouts },
  )
  const app = createApp({ ...deps, logger })
  return {
    app,
    deps,
    config,
    dataDir,
    async close() {
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

// ---- sample files ---------------------------------------------------------------------------

/** A real 1x1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
/** A real 1x1 JPEG. */
export const JPEG_1X1 = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
)
/** A real 1x1 lossless WEBP. */
export const WEBP_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64')
/** A real 1x1 GIF. */
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>')
export const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>')
export const TEXT = Buffer.from('just some text, not an image\n')

/** A PNG of exactly `size` bytes: the PNG signature and header, then filler. */
export function pngOfSize(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  bytes.set(PNG_1X1.subarray(0, Math.min(size, 33)))
  for (let i = 33; i < size; i += 4096) bytes[i] = i & 0xff
  return bytes
}

/** A multipart body with one `file` part, as FormData (Bun writes the boundary and framing). */
export function fileForm(bytes: Uint8Array, filename = 'poster.png', type = 'image/png', field = 'file'): FormData {
  const form = new FormData()
  form.append(field, new File([bytes], filename, { type }))
  return form
}
