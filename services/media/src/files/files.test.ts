import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { call } from '@app/kit/testing'
import { closedPort, createTestMedia, fileForm, JPEG_1X1, PNG_1X1, SLOW, startS3rver } from '../testing'
import { FILE_NOT_FOUND } from './index'

let database: TestDatabase
let s3: Awaited<ReturnType<typeof startS3rver>>
beforeAll(async () => {
  database = await createTestDatabase()
  s3 = await startS3rver()
}, SLOW)
afterAll(async () => {
  await s3?.stop()
  await database?.close()
}, SLOW)

type Media = Awaited<ReturnType<typeof createTestMedia>>

const KEY = 'uploads/2026/01/01a2021c-e0c3-7277-9428-eb1e8405828a.png'

async function uploaded(media: Media, bytes: Uint8Array = PNG_1X1): Promise<string> {
  const res = await call(media.app, 'POST', '/api/upload', { rawBody: fileForm(bytes) })
  expect(res.status).toBe(200)
  return res.body.url
}

const fetchPath = (media: Media, path: string, init?: RequestInit) =>
  media.app.handle(new Request(`http://localhost:3000${path}`, init))

const setups: [string, () => Promise<Media>][] = [
  ['disk', () => createTestMedia(database)],
  ['s3 (proxied from the bucket)', () => createTestMedia(database, { s3Endpoint: s3.endpoint })],
]

describe.each(setups)('GET /media/uploads/..., %s', (_driver, make) => {
  let media: Media
  beforeAll(async () => {
    media = await make()
  }, SLOW)
  afterAll(async () => {
    await media.close()
  })

  test('the file with its image type, nosniff and a long immutable cache', async () => {
    const url = await uploaded(media, JPEG_1X1)
    const res = await fetchPath(media, new URL(url).pathname)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('content-length')).toBe(String(JPEG_1X1.byteLength))
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(Buffer.from(await res.arrayBuffer()).equals(JPEG_1X1)).toBe(true)
  })

  test('HEAD gives the headers without the body', async () => {
    const url = await uploaded(media)
    const res = await fetchPath(media, new URL(url).pathname, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
  })

  test('a key that is not there: 404 envelope, not cached', async () => {
    const res = await fetchPath(media, `/media/${KEY}`)
    expect(res.status).toBe(404)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(((await res.json()) as any).error).toBe(FILE_NOT_FOUND)
  })

  test.each([
    '/media/uploads/../../../../etc/passwd',
    '/media/uploads/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/media/uploads/2026/01/..%2f..%2f..%2fsecret.png',
    '/media/uploads/2026%2f01%2f01a2021c-e0c3-7277-9428-eb1e8405828a.png',
    '/media/uploads/2026/01/01a2021c-e0c3-7277-9428-eb1e8405828a.PNG',
    '/media/uploads/2026/01/',
    '/media/uploads/',
    '/media/',
    '/media/pglite/PG_VERSION',
  ])('%s: 404 envelope', async (path) => {
    const res = await fetchPath(media, path)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(((await res.json()) as any).success).toBe(false)
  })

  test('a NUL in the key: 400 envelope from the edge (kit input guard)', async () => {
    const res = await fetchPath(media, '/media/uploads/2026/01/01a2021c-e0c3-7277-9428-eb1e8405828a.png%00.html')
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(((await res.json()) as any).success).toBe(false)
  })
})

describe('what the disk driver serves', () => {
  test('only keys the upload could have made: a planted HTML file is never served', async () => {
    const media = await createTestMedia(database)
    try {
      const dir = join(media.dataDir, 'media', 'uploads', '2026', '01')
      await mkdir(dir, { recursive: true })
      await writeFile(join(dir, 'evil.html'), '<script>alert(1)</script>')
      await writeFile(join(dir, '01a2021c-e0c3-7277-9428-eb1e8405828a.html'), '<script>alert(1)</script>')
      for (const name of ['evil.html', '01a2021c-e0c3-7277-9428-eb1e8405828a.html'])
        expect((await fetchPath(media, `/media/uploads/2026/01/${name}`)).status).toBe(404)
    } finally {
      await media.close()
    }
  })

  test('served at the path of PUBLIC_MEDIA_URL, wherever that is', async () => {
    const media = await createTestMedia(database, { publicMediaUrl: 'https://cdn.example.com/static/img' })
    try {
      const url = await uploaded(media)
      expect(url).toStartWith('https://cdn.example.com/static/img/uploads/')
      const res = await fetchPath(media, new URL(url).pathname)
      expect(res.status).toBe(200)
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG_1X1)).toBe(true)
      expect((await fetchPath(media, `/media/${new URL(url).pathname.slice('/static/img/'.length)}`)).status).toBe(404)
    } finally {
      await media.close()
    }
  })
})

test('S3 down: serving a file is a 503 envelope', async () => {
  const media = await createTestMedia(database, { s3Endpoint: `http://127.0.0.1:${closedPort()}` })
  try {
    const res = await fetchPath(media, `/media/${KEY}`)
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).success).toBe(false)
  } finally {
    await media.close()
  }
})
