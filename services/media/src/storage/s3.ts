import { createReadStream } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { Client } from 'minio'
import { ConfigError, type Config, type Logger } from '@app/kit'
import { isStoredKey } from './keys'
import { stagingDirectory } from './staging'
import { IMMUTABLE_CACHE_CONTROL, StorageUnavailableError, withTimeout, type Storage } from './types'

export interface S3Timeouts {
  /** A request whose socket is silent this long is aborted (connect, or a stalled transfer). */
  idleMs: number
  /** Deadline of a small call (stat, head bucket, the start of a get). */
  callMs: number
  /** Deadline of storing one upload (at most 24 MB). */
  putMs: number
}

export const DEFAULT_S3_TIMEOUTS: S3Timeouts = { idleMs: 5000, callMs: 5000, putMs: 60_000 }

const NOT_FOUND = new Set(['NotFound', 'NoSuchKey'])
const BUCKET_EXISTS = new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'])

/**
 * A node:http transport for the minio client whose requests give up once the socket has been
 * idle for `idleMs`: a storage server that accepts connections but never answers gives a
 * prompt error instead of a request hanging forever.
 */
function timeoutTransport(secure: boolean, idleMs: number) {
  const base = secure ? https : http
  return {
    request(options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) {
      const request = base.request({ ...options, timeout: idleMs }, callback)
      request.on('timeout', () =>
        request.destroy(Object.assign(new Error(`storage did not answer within ${idleMs} ms`), { code: 'ETIMEDOUT' })),
      )
      return request
    },
  }
}

/**
 * PUT of a file to a presigned URL, streamed from disk through the same idle-timeout transport
 * as the client's own requests; resolves on 200, rejects otherwise.
 */
function putFile(
  transport: ReturnType<typeof timeoutTransport>,
  url: string,
  path: string,
  size: number,
  headers: Record<string, string>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const target = new URL(url)
    const file = createReadStream(path)
    const request = transport.request(
      {
        method: 'PUT',
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: target.pathname + target.search,
        headers: { ...headers, 'Content-Length': String(size) },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => void (text.length < 2000 && (text += chunk)))
        response.on('error', reject)
        response.on('end', () => {
          if (response.statusCode === 200) resolve()
          else
            reject(
              Object.assign(new Error(`PUT answered ${response.statusCode}: ${text.slice(0, 300)}`), {
                code: `HTTP${response.statusCode}`,
              }),
            )
        })
      },
    )
    request.on('error', (error) => {
      file.destroy()
      reject(error)
    })
    file.on('error', (error) => {
      request.destroy(error)
      reject(error)
    })
    file.pipe(request)
  })
}

/**
 * MinIO or any S3-compatible store through the `minio` client. Path-style requests, the
 * configured region (so the client never asks the server for the bucket location), no retries
 * (a caller waiting on an upload is better served by a prompt 503 than by back-off).
 */
export function createS3Storage(
  s3: NonNullable<Config['s3']>,
  options: { logger?: Logger; timeouts?: Partial<S3Timeouts>; stagingDirectory?: string } = {},
): Storage & { ensureBucket(): Promise<void> } {
  const timeouts = { ...DEFAULT_S3_TIMEOUTS, ...options.timeouts }
  const logger = options.logger
  const endpoint = new URL(s3.endpoint)
  if (endpoint.pathname !== '/' || endpoint.search || endpoint.username)
    throw new ConfigError('S3_ENDPOINT must be scheme://host[:port] with no path, query or credentials')
  const secure = endpoint.protocol === 'https:'
  const transport = timeoutTransport(secure, timeouts.idleMs)
  const client = new Client({
    endPoint: endpoint.hostname.replace(/^\[|\]$/g, ''),
    port: endpoint.port ? Number(endpoint.port) : secure ? 443 : 80,
    useSSL: secure,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: s3.region,
    pathStyle: true,
    transport: transport as any,
    retryOptions: { disableRetry: true },
  })
  const bucket = s3.bucket
  const streamPut = (url: string, path: string, size: number, headers: Record<string, string>) =>
    putFile(transport, url, path, size, headers)

  function unavailable(operation: string, error: unknown): never {
    logger?.warn('object storage unavailable', {
      operation,
      bucket,
      error: String((error as any)?.code ?? '') + ' ' + String((error as any)?.message ?? error),
    })
    throw new StorageUnavailableError(error)
  }

  async function createBucketIfMissing(): Promise<void> {
    if (await withTimeout(client.bucketExists(bucket), timeouts.callMs, 'head bucket')) return
    try {
      await withTimeout(client.makeBucket(bucket, s3.region), timeouts.callMs, 'make bucket')
      logger?.info('bucket created', { bucket })
    } catch (error) {
      // another replica made it in the meantime
      if (!BUCKET_EXISTS.has((error as any)?.code)) throw error
    }
  }

  // once the bucket is known to exist it is not asked again; a failure is retried on the next call
  let bucketReady: Promise<void> | undefined
  async function ensureBucket(): Promise<void> {
    bucketReady ??= createBucketIfMissing().catch((error) => {
      bucketReady = undefined
      throw error
    })
    try {
      await bucketReady
    } catch (error) {
      unavailable('ensure bucket', error)
    }
  }

  return {
    driver: 's3',
    ensureBucket,

    async put(key, source, meta) {
      if (!isStoredKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`)
      await ensureBucket()
      const headers = { 'Content-Type': meta.contentType, 'Cache-Control': IMMUTABLE_CACHE_CONTROL }
      try {
        if (source instanceof Uint8Array) {
          const buffer = Buffer.from(source.buffer, source.byteOffset, source.byteLength)
          await withTimeout(client.putObject(bucket, key, buffer, buffer.byteLength, headers), timeouts.putMs, 'put object')
        } else {
          // minio-js' putObject reads an object below its multipart size (64 MiB) into one
          // buffer before a single PUT, and the request copies it again: ~80 MB per 24 MB
          // upload, measured. A PUT to a URL the client presigned streams the staged file instead.
          const url = await client.presignedPutObject(bucket, key, 15 * 60)
          await withTimeout(streamPut(url, source.path, meta.size, headers), timeouts.putMs, 'put object')
        }
      } catch (error) {
        unavailable('put', error)
      }
    },

    stagingDirectory: stagingDirectory(options.stagingDirectory ?? join(tmpdir(), 'event-catalog-media-staging')),

    async stat(key) {
      if (!isStoredKey(key)) return null
      await ensureBucket()
      try {
        const info = await withTimeout(client.statObject(bucket, key), timeouts.callMs, 'stat object')
        return { size: info.size, contentType: String(info.metaData?.['content-type'] ?? 'application/octet-stream') }
      } catch (error) {
        if (NOT_FOUND.has((error as any)?.code)) return null
        unavailable('stat', error)
      }
    },

    async get(key) {
      if (!isStoredKey(key)) return null
      await ensureBucket()
      let response: Readable
      try {
        response = await withTimeout(client.getObject(bucket, key), timeouts.callMs, 'get object')
      } catch (error) {
        if (NOT_FOUND.has((error as any)?.code)) return null
        unavailable('get', error)
      }
      const headers = (response as unknown as http.IncomingMessage).headers ?? {}
      return {
        body: Readable.toWeb(response) as ReadableStream<Uint8Array>,
        size: Number(headers['content-length']),
        contentType: String(headers['content-type'] ?? 'application/octet-stream'),
      }
    },

    async ping() {
      // a fresh round trip every time, and the bucket is made if it disappeared
      bucketReady = undefined
      await ensureBucket()
    },
  }
}
