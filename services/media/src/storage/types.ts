import { HttpError } from '@app/kit'

/** What the media routes need from an object store; keys look like `uploads/2025/01/<uuid>.png`. */
export interface Storage {
  /** Which driver this is (`disk` or `s3`), for logs and the README. */
  readonly driver: 'disk' | 's3'
  /**
   * Stores bytes, or a staged file (moved or copied, then the caller may delete it), under
   * `key` with their content type and a long immutable cache header.
   */
  put(key: string, source: Uint8Array | StagedFile, meta: { contentType: string; size: number }): Promise<void>
  /** A directory where an upload is written while it streams in, before `put` (made on demand). */
  stagingDirectory(): Promise<string>
  /** Size and content type of an object, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>
  /** The object's bytes (a stream, or a file Bun can send as it is), or null when there is none. */
  get(key: string): Promise<{ body: ReadableStream<Uint8Array> | Blob; size: number; contentType: string } | null>
  /** Resolves when the store can take work now (bucket reachable, directory writable). */
  ping(): Promise<void>
}

/** A file written under `stagingDirectory()`. */
export interface StagedFile {
  path: string
}

export interface StoredObject {
  size: number
  contentType: string
}

/** The header every stored object carries: keys are unique per upload, so the bytes never change. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable'

export const STORAGE_UNAVAILABLE_MESSAGE = 'Penyimpanan berkas sedang tidak tersedia, coba lagi nanti'

/** The store cannot be reached or refused to work (connection refused, timeout, 5xx, full disk): 503. */
export class StorageUnavailableError extends HttpError {
  constructor(cause?: unknown) {
    super(503, STORAGE_UNAVAILABLE_MESSAGE, undefined, { 'retry-after': '5' })
    this.cause = cause
  }
}

/** Rejects with `onTimeout()` when `promise` has not settled within `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'ETIMEDOUT' })), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}
