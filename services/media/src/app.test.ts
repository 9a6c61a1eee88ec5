// The media service as a whole: /ready with its storage check, and the routes over real HTTP.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { get } from '@app/kit/testing'
import { listenOptions } from '@app/kit'
import { closedPort, createTestMedia, fileForm, GIF_1X1, PNG_1X1, pngOfSize, SLOW, startS3rver } from './testing'
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from './upload/service'

/** A GET with the path sent byte for byte (fetch and Request would resolve the dot segments first). */
async function rawGet(port: number, path: string): Promise<string> {
  let reply = ''
  const closed = Promise.withResolvers<void>()
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port,
    socket: {
      data: (_socket, chunk) => void (reply += chunk.toString()),
      close: () => closed.resolve(),
      error: () => closed.resolve(),
    },
  })
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
  await Promise.race([closed.promise, Bun.sleep(3000)])
  socket.end()
  return reply
}

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
}, SLOW)
afterAll(async () => {
  await database?.close()
}, SLOW)

describe('GET /ready', () => {
  test('disk driver: database and storage ok', async () => {
    const media = await createTestMedia(database)
    try {
      const res = await get(media.app, '/ready')
      expect(res.status).toBe(200)
      expect(res.body.checks).toEqual({ database: 'ok', storage: 'ok' })
    } finally {
      await media.close()
    }
  })

  test(
    's3 driver: 503 naming storage while it is down, ready again (bucket made) once it is back',
    async () => {
      const port = closedPort()
      const media = await createTestMedia(database, { s3Endpoint: `http://127.0.0.1:${port}` })
      try {
        const started = performance.now()
        const down = await get(media.app, '/ready')
        expect(down.status).toBe(503)
        expect(down.body.success).toBe(false)
        expect(down.body.error).toContain('storage')
        expect(down.body.details).toEqual([{ field: 'storage', message: 'tidak dapat dihubungi' }])
        expect(performance.now() - started).toBeLessThan(3000)
        expect((await get(media.app, '/health')).status).toBe(200)

        // the storage comes up on that port with no bucket yet
        const { default: S3rver } = await import('s3rver')
        const { mkdtemp, rm } = await import('node:fs/promises')
        const { tmpdir } = await import('node:os')
        const directory = await mkdtemp(`${tmpdir()}/media-s3rver-late-`)
        const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory })
        await server.run()
        try {
          const up = await get(media.app, '/ready')
          expect(up.status).toBe(200)
          expect(up.body.checks.storage).toBe('ok')
          const upload = await media.app.handle(
            new Request('http://localhost:3000/api/upload', { method: 'POST', body: fileForm(PNG_1X1) }),
          )
          expect(upload.status).toBe(200)
        } finally {
          await server.close()
          await rm(directory, { recursive: true, force: true })
        }
      } finally {
        await media.close()
      }
    },
    SLOW,
  )
})

describe.each([
  ['disk', false],
  ['s3', true],
])('over real HTTP (%s driver)', (_driver, useS3) => {
  let server: ReturnType<typeof Bun.serve> | undefined
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined
  let media: Awaited<ReturnType<typeof createTestMedia>>
  let origin: string

  beforeAll(async () => {
    if (useS3) s3 = await startS3rver()
    const port = closedPort()
    origin = `http://127.0.0.1:${port}`
    media = await createTestMedia(database, { publicMediaUrl: `${origin}/media/`, s3Endpoint: s3?.endpoint })
    // as kit's serve() listens, without its signal handlers
    media.app.listen({ ...listenOptions(port), hostname: '127.0.0.1' })
    server = media.app.server ?? undefined
  }, SLOW)
  afterAll(async () => {
    await server?.stop(true)
    await media?.close()
    await s3?.stop()
  })

  test('upload with multipart, GET the returned URL, check it', async () => {
    const res = await fetch(`${origin}/api/upload`, { method: 'POST', body: fileForm(PNG_1X1, 'poster.png') })
    expect(res.status).toBe(200)
    const { url, data } = (await res.json()) as any
    expect(url).toStartWith(`${origin}/media/uploads/`)
    expect(data.url).toBe(url)
    const file = await fetch(url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1X1)).toBe(true)
    const check = (await (await fetch(`${origin}/api/check-file?url=${encodeURIComponent(url)}`)).json()) as any
    expect(check).toMatchObject({ url, exists: true, status: 200 })
    const refused = await fetch(`${origin}/api/upload`, { method: 'POST', body: fileForm(GIF_1X1, 'a.png', 'image/png') })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as any).error).toBe(UPLOAD_MESSAGES.unsupported)
  })

  test(
    'exactly 24 MB goes through; just over 24 MB is a 413 envelope',
    async () => {
      const ok = await fetch(`${origin}/api/upload`, { method: 'POST', body: fileForm(pngOfSize(MAX_UPLOAD_BYTES)) })
      expect(ok.status).toBe(200)
      const stored = await fetch(((await ok.json()) as any).url)
      expect((await stored.arrayBuffer()).byteLength).toBe(MAX_UPLOAD_BYTES)

      for (const size of [MAX_UPLOAD_BYTES + 1, MAX_UPLOAD_BYTES + 512 * 1024]) {
        const tooBig = await fetch(`${origin}/api/upload`, { method: 'POST', body: fileForm(pngOfSize(size)) })
        expect(tooBig.status).toBe(413)
        expect((await tooBig.json()) as any).toEqual({ success: false, error: UPLOAD_MESSAGES.tooLarge })
      }
    },
    SLOW,
  )

  test('a raw request path with dot segments or escapes never leaves the upload keys', async () => {
    for (const path of [
      '/media/uploads/../../../../etc/passwd',
      '/media/uploads/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/media/uploads/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/media/uploads/2026/01/..\\..\\..\\..\\etc\\passwd',
    ]) {
      const reply = await rawGet(Number(new URL(origin).port), path)
      expect(reply).toMatch(/^HTTP\/1\.1 (400|404)/)
      expect(reply).not.toContain('root:')
    }
  })
})
