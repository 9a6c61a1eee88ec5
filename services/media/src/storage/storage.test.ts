import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedPort, JPEG_1X1, PNG_1X1, S3RVER_KEY, startS3rver, WEBP_1X1 } from '../testing'
import {
  createDiskStorage,
  createS3Storage,
  IMMUTABLE_CACHE_CONTROL,
  isValidKey,
  newKey,
  StorageUnavailableError,
  type Storage,
} from './index'

let s3: Awaited<ReturnType<typeof startS3rver>>
let scratch: string
beforeAll(async () => {
  s3 = await startS3rver()
  scratch = await mkdtemp(join(tmpdir(), 'media-storage-test-'))
})
afterAll(async () => {
  // the S3 driver's default staging directory, used by the drivers built directly here
  await rm(join(tmpdir(), 'event-catalog-media-staging'), { recursive: true, force: true })
  await s3.stop()
  await rm(scratch, { recursive: true, force: true })
})

const s3Config = (endpoint: string, bucket = `bucket-${Bun.randomUUIDv7().slice(-12)}`) => ({
  endpoint,
  accessKey: S3RVER_KEY,
  secretKey: S3RVER_KEY,
  bucket,
  region: 'us-east-1',
})

async function bytesOf(body: ReadableStream<Uint8Array> | Blob): Promise<Buffer> {
  return Buffer.from(await new Response(body).arrayBuffer())
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

const drivers: [string, () => Promise<Storage>][] = [
  ['disk', async () => createDiskStorage(join(scratch, Bun.randomUUIDv7(), 'media'))],
  ['s3 (s3rver)', async () => createS3Storage(s3Config(s3.endpoint))],
]

describe.each(drivers)('%s driver', (_name, make) => {
  let storage: Storage
  beforeAll(async () => {
    storage = await make()
    await storage.ping()
  })

  test('put, stat and get give back exactly the bytes, with their content type', async () => {
    const key = newKey('png')
    await storage.put(key, PNG_1X1, { contentType: 'image/png', size: PNG_1X1.byteLength })
    expect(await storage.stat(key)).toEqual({ size: PNG_1X1.byteLength, contentType: 'image/png' })
    const object = await storage.get(key)
    expect(object).not.toBeNull()
    expect(object!.size).toBe(PNG_1X1.byteLength)
    expect(object!.contentType).toBe('image/png')
    expect((await bytesOf(object!.body)).equals(PNG_1X1)).toBe(true)
  })

  test('a staged file is stored (and may be deleted afterwards)', async () => {
    const staged = join(await storage.stagingDirectory(), `${Bun.randomUUIDv7()}.part`)
    await Bun.write(staged, JPEG_1X1)
    const key = newKey('jpg')
    await storage.put(key, { path: staged }, { contentType: 'image/jpeg', size: JPEG_1X1.byteLength })
    await rm(staged, { force: true })
    expect(await storage.stat(key)).toEqual({ size: JPEG_1X1.byteLength, contentType: 'image/jpeg' })
    expect((await bytesOf((await storage.get(key))!.body)).equals(JPEG_1X1)).toBe(true)
  })

  test('a view into a larger buffer stores only the view', async () => {
    const big = Buffer.concat([Buffer.from('HEADER'), PNG_1X1, Buffer.from('TRAILER')])
    const view = big.subarray(6, 6 + PNG_1X1.byteLength)
    const key = newKey('png')
    await storage.put(key, view, { contentType: 'image/png', size: view.byteLength })
    expect((await bytesOf((await storage.get(key))!.body)).equals(PNG_1X1)).toBe(true)
  })

  test('a missing key is null for stat and get', async () => {
    const key = newKey('webp')
    expect(await storage.stat(key)).toBeNull()
    expect(await storage.get(key)).toBeNull()
  })

  test('anything but an upload key is never looked up, and never written', async () => {
    for (const key of [
      '../../etc/passwd',
      'uploads/../secret',
      '/etc/passwd',
      'uploads/2025/01/x.png',
      '',
      'uploads/2025/13/01a2021c-e0c3-7277-9428-eb1e8405828a.png',
    ]) {
      expect(isValidKey(key)).toBe(false)
      expect(await storage.stat(key)).toBeNull()
      expect(await storage.get(key)).toBeNull()
      expect(await rejection(storage.put(key, PNG_1X1, { contentType: 'image/png', size: 1 }))).toBeInstanceOf(Error)
    }
  })
})

describe('s3 driver specifics', () => {
  test('the bucket is created when missing, and objects carry Content-Type and the immutable Cache-Control', async () => {
    const config = s3Config(s3.endpoint)
    const head = () => fetch(`${s3.endpoint}/${config.bucket}`, { method: 'HEAD' })
    expect((await head()).status).toBe(404)
    const storage = createS3Storage(config)
    await storage.ping()
    expect((await head()).status).toBe(200)
    const key = newKey('jpg')
    await storage.put(key, PNG_1X1, { contentType: 'image/jpeg', size: PNG_1X1.byteLength })
    // and from a staged file (the upload path: a streamed PUT to a presigned URL)
    const staged = join(await storage.stagingDirectory(), `${Bun.randomUUIDv7()}.part`)
    await Bun.write(staged, WEBP_1X1)
    const stagedKey = newKey('webp')
    await storage.put(stagedKey, { path: staged }, { contentType: 'image/webp', size: WEBP_1X1.byteLength })
    await rm(staged, { force: true })
    // read straight from the S3 server, as a gateway in front of MinIO would
    for (const [k, type, bytes] of [
      [key, 'image/jpeg', PNG_1X1],
      [stagedKey, 'image/webp', WEBP_1X1],
    ] as const) {
      const direct = await fetch(`${s3.endpoint}/${config.bucket}/${k}`)
      expect(direct.status).toBe(200)
      expect(direct.headers.get('content-type')).toBe(type)
      expect(direct.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL)
      expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true)
    }
  })

  test('an existing bucket is used as it is', async () => {
    const config = s3Config(s3.endpoint)
    await createS3Storage(config).ping()
    const again = createS3Storage(config)
    await again.ping()
    const key = newKey('png')
    await again.put(key, PNG_1X1, { contentType: 'image/png', size: PNG_1X1.byteLength })
    expect(await again.stat(key)).not.toBeNull()
  })

  test('nothing listening: every call fails promptly with StorageUnavailableError (503)', async () => {
    const storage = createS3Storage(s3Config(`http://127.0.0.1:${closedPort()}`))
    const key = newKey('png')
    const staged = join(scratch, `${Bun.randomUUIDv7()}.part`)
    await Bun.write(staged, PNG_1X1)
    for (const call of [
      () => storage.put(key, { path: staged }, { contentType: 'image/png', size: PNG_1X1.byteLength }),
      () => storage.ping(),
      () => storage.stat(key),
      () => storage.get(key),
      () => storage.put(key, PNG_1X1, { contentType: 'image/png', size: PNG_1X1.byteLength }),
    ]) {
      const started = performance.now()
      const error = await rejection(call())
      expect(error).toBeInstanceOf(StorageUnavailableError)
      expect((error as StorageUnavailableError).status).toBe(503)
      expect((error as StorageUnavailableError).headers?.['retry-after']).toBe('5')
      expect(performance.now() - started).toBeLessThan(2000)
    }
  })

  test('a server that accepts connections but never answers: 503 after the idle timeout, no hang', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    try {
      const storage = createS3Storage(s3Config(`http://127.0.0.1:${silent.port}`), {
        timeouts: { idleMs: 300, callMs: 1000, putMs: 1000 },
      })
      const started = performance.now()
      expect(await rejection(storage.stat(newKey('png')))).toBeInstanceOf(StorageUnavailableError)
      expect(await rejection(storage.put(newKey('png'), PNG_1X1, { contentType: 'image/png', size: 70 }))).toBeInstanceOf(
        StorageUnavailableError,
      )
      const staged = join(scratch, `${Bun.randomUUIDv7()}.part`)
      await Bun.write(staged, PNG_1X1)
      expect(
        await rejection(storage.put(newKey('png'), { path: staged }, { contentType: 'image/png', size: 70 })),
      ).toBeInstanceOf(StorageUnavailableError)
      expect(performance.now() - started).toBeLessThan(4000)
    } finally {
      silent.stop(true)
    }
  })

  test('storage that goes away after start: the upload PUT fails promptly with 503', async () => {
    const own = await startS3rver()
    const storage = createS3Storage(s3Config(own.endpoint))
    await storage.ping()
    await own.stop()
    const staged = join(scratch, `${Bun.randomUUIDv7()}.part`)
    await Bun.write(staged, PNG_1X1)
    const started = performance.now()
    expect(await rejection(storage.put(newKey('png'), { path: staged }, { contentType: 'image/png', size: 70 }))).toBeInstanceOf(
      StorageUnavailableError,
    )
    expect(await rejection(storage.stat(newKey('png')))).toBeInstanceOf(StorageUnavailableError)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test('a server that knows the bucket but never answers the PUT: 503 after the idle timeout', async () => {
    const stuck = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) => (request.method === 'PUT' ? new Promise<Response>(() => {}) : new Response(null, { status: 200 })),
    })
    try {
      const storage = createS3Storage(s3Config(`http://127.0.0.1:${stuck.port}`), {
        timeouts: { idleMs: 300, callMs: 1000, putMs: 5000 },
      })
      await storage.ping()
      const staged = join(scratch, `${Bun.randomUUIDv7()}.part`)
      await Bun.write(staged, PNG_1X1)
      const started = performance.now()
      expect(
        await rejection(storage.put(newKey('png'), { path: staged }, { contentType: 'image/png', size: 70 })),
      ).toBeInstanceOf(StorageUnavailableError)
      expect(performance.now() - started).toBeLessThan(2000)
    } finally {
      stuck.stop(true)
    }
  })

  test('a server answering 5xx: 503', async () => {
    const broken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('boom', { status: 500 }) })
    try {
      const storage = createS3Storage(s3Config(`http://127.0.0.1:${broken.port}`))
      expect(await rejection(storage.ping())).toBeInstanceOf(StorageUnavailableError)
      expect(await rejection(storage.stat(newKey('png')))).toBeInstanceOf(StorageUnavailableError)
    } finally {
      broken.stop(true)
    }
  })

  test('an endpoint with a path or credentials is a configuration error', () => {
    expect(() => createS3Storage(s3Config('http://127.0.0.1:9000/bucket'))).toThrow('S3_ENDPOINT')
    expect(() => createS3Storage(s3Config('http://user:pw@127.0.0.1:9000'))).toThrow('S3_ENDPOINT')
  })
})

describe('disk driver specifics', () => {
  test('a root that cannot be a directory: ping rejects and put is a 503', async () => {
    const file = join(scratch, `not-a-dir-${Bun.randomUUIDv7()}`)
    await writeFile(file, 'x')
    const storage = createDiskStorage(join(file, 'media'))
    expect(await rejection(storage.ping())).toBeInstanceOf(StorageUnavailableError)
    expect(await rejection(storage.put(newKey('png'), PNG_1X1, { contentType: 'image/png', size: 70 }))).toBeInstanceOf(
      StorageUnavailableError,
    )
  })

  test('files are written whole (temp file + rename): no partial file is left behind', async () => {
    const root = join(scratch, Bun.randomUUIDv7())
    const storage = createDiskStorage(root)
    const key = newKey('png')
    await storage.put(key, PNG_1X1, { contentType: 'image/png', size: 70 })
    const names = await Array.fromAsync(new Bun.Glob('**/*').scan({ cwd: root }))
    expect(names).toEqual([key])
  })
})
