import { INPUT_MESSAGES } from '@app/kit'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { call, envelopeMessage, get, type TestResponse } from '@app/kit/testing'
import { CHECK_FILE_MESSAGES, keyOfUrl, normalizePublicMediaUrl } from '../media-url'
import { closedPort, createTestMedia, fileForm, PNG_1X1, SLOW, startS3rver } from '../testing'

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
let addresses = 0
const freshAddress = () => `10.${Math.floor(++addresses / 250) % 250}.${addresses % 250}.9`

function check(media: Media, url: string | undefined, address = freshAddress()): Promise<TestResponse> {
  const query = url === undefined ? '' : `?url=${encodeURIComponent(url)}`
  return get(media.app, `/api/check-file${query}`, { headers: { 'x-forwarded-for': address } })
}

async function uploaded(media: Media): Promise<string> {
  const res = await call(media.app, 'POST', '/api/upload', {
    rawBody: fileForm(PNG_1X1),
    headers: { 'x-forwarded-for': freshAddress() },
  })
  expect(res.status).toBe(200)
  return res.body.url
}

const BASE = 'http://localhost:3000/media/'
const KEY = 'uploads/2026/01/01a2021c-e0c3-7277-9428-eb1e8405828a.png'

const setups: [string, () => Promise<Media>][] = [
  ['disk', () => createTestMedia(database)],
  ['s3', () => createTestMedia(database, { s3Endpoint: s3.endpoint })],
]

describe.each(setups)('GET /api/check-file, %s driver', (_driver, make) => {
  let media: Media
  beforeAll(async () => {
    media = await make()
  }, SLOW)
  afterAll(async () => {
    await media.close()
  })

  test('an uploaded file: 200 {url, exists: true, status: 200, timestamp} and no success field', async () => {
    const url = await uploaded(media)
    const before = Date.now()
    const res = await check(media, url)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['exists', 'status', 'timestamp', 'url'])
    expect(res.body).toMatchObject({ url, exists: true, status: 200 })
    expect(res.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(Date.parse(res.body.timestamp)).toBeGreaterThanOrEqual(before - 1000)
  })

  test('a well-formed URL of a file that is not there: 200 {exists: false, status: 404}', async () => {
    const url = BASE + KEY
    const res = await check(media, url)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ url, exists: false, status: 404 })
  })

  test('host names are case-insensitive, as URLs are', async () => {
    const url = (await uploaded(media)).replace('localhost', 'LOCALHOST')
    expect((await check(media, url)).body.exists).toBe(true)
  })

  test('missing or empty url: 400 envelope', async () => {
    for (const url of [undefined, '']) {
      const res = await check(media, url)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toContain('url')
    }
    const long = await check(media, BASE + KEY + 'x'.repeat(3000))
    expect(long.status).toBe(400)
  })

  const hostile: [string, string][] = [
    ['another host', `https://evil.example.com/media/${KEY}`],
    ['127.0.0.1 (not the media base)', `http://127.0.0.1:3000/media/${KEY}`],
    ['cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', `http://[::1]:3000/media/${KEY}`],
    ['another port', `http://localhost:3001/media/${KEY}`],
    ['default port instead of 3000', `http://localhost/media/${KEY}`],
    ['https instead of http', `https://localhost:3000/media/${KEY}`],
    ['file:', 'file:///etc/passwd'],
    ['file: with the key', `file:///media/${KEY}`],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:image/png;base64,iVBORw0KGgo='],
    ['gopher:', 'gopher://localhost:3000/media/'],
    ['userinfo', `http://user@localhost:3000/media/${KEY}`],
    ['user and password', `http://user:pass@localhost:3000/media/${KEY}`],
    ['our host as userinfo of another', `http://localhost:3000@evil.example.com/media/${KEY}`],
    ['dot-dot out of the base', `http://localhost:3000/media/uploads/../../etc/passwd`],
    ['dot-dot that resolves back into the base', `http://localhost:3000/media/x/../${KEY}`],
    ['encoded dot-dot', `http://localhost:3000/media/uploads/%2e%2e/%2e%2e/etc/passwd`],
    ['encoded slash', `http://localhost:3000/media/uploads%2f2026%2f01%2f01a2021c-e0c3-7277-9428-eb1e8405828a.png`],
    ['backslash', `http://localhost:3000/media\\${KEY}`],
    ['NUL byte', `http://localhost:3000/media/${KEY}\u0000.png`],
    ['spaces around', ` ${BASE}${KEY} `],
    ['query string', `${BASE}${KEY}?x=1`],
    ['fragment', `${BASE}${KEY}#x`],
    ['outside the base path', `http://localhost:3000/other/${KEY}`],
    ['the base itself', BASE],
    ['a key of another shape', `${BASE}uploads/passwd`],
    ['a key with another extension', `${BASE}${KEY.replace('.png', '.svg')}`],
    ['an upper-case extension', `${BASE}${KEY.replace('.png', '.PNG')}`],
    ['a relative path', `/media/${KEY}`],
    ['just a key', KEY],
    ['not a URL', 'not a url at all'],
    ['SQL', `${BASE}' or 1=1 --`],
    ['HTML', `${BASE}<script>alert(1)</script>`],
  ]
  test.each(hostile)('%s: 400 envelope', async (_name, url) => {
    const res = await check(media, url)
    expect(res.status).toBe(400)
    // a control character is refused at the edge (kit input guard), before the route
    expect<string[]>([
      CHECK_FILE_MESSAGES.invalid,
      CHECK_FILE_MESSAGES.foreign,
      INPUT_MESSAGES.control('Parameter url'),
    ]).toContain(envelopeMessage(res))
  })
})

describe('check-file never fetches the URL', () => {
  test('a URL pointing at a live server, foreign or our own media base, never reaches it', async () => {
    let hits = 0
    const target = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => {
        hits++
        return new Response('secret')
      },
    })
    const ownBase = `http://127.0.0.1:${target.port}/media/`
    const media = await createTestMedia(database, { publicMediaUrl: ownBase })
    try {
      // foreign to this media service: refused without a request
      const foreign = await check(media, `http://127.0.0.1:${target.port}/admin`)
      expect(foreign.status).toBe(400)
      // 127.0.0.1 is fine when it is the configured media base; the answer comes from storage
      const ours = await check(media, `${ownBase}${KEY}`)
      expect(ours.status).toBe(200)
      expect(ours.body).toMatchObject({ exists: false, status: 404 })
      const url = await uploaded(media)
      expect(url.startsWith(ownBase)).toBe(true)
      expect((await check(media, url)).body.exists).toBe(true)
      expect(hits).toBe(0)
    } finally {
      target.stop(true)
      await media.close()
    }
  })
})

describe('check-file rate limit and storage down', () => {
  test('per client address: 429 with Retry-After past the limit', async () => {
    const media = await createTestMedia(database, { checkFileLimitPerMinute: 2 })
    try {
      const address = '192.0.2.200'
      expect((await check(media, BASE + KEY, address)).status).toBe(200)
      expect((await check(media, BASE + KEY, address)).status).toBe(200)
      const limited = await check(media, BASE + KEY, address)
      expect(limited.status).toBe(429)
      expect(envelopeMessage(limited)).toBe('Terlalu banyak permintaan, coba lagi nanti')
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect((await check(media, BASE + KEY, '192.0.2.201')).status).toBe(200)
    } finally {
      await media.close()
    }
  })

  test('S3 with nothing listening: 503 envelope promptly; a foreign URL is still a 400', async () => {
    const media = await createTestMedia(database, { s3Endpoint: `http://127.0.0.1:${closedPort()}` })
    try {
      const started = performance.now()
      const res = await check(media, BASE + KEY)
      expect(res.status).toBe(503)
      expect(envelopeMessage(res)).toBe('Penyimpanan berkas sedang tidak tersedia, coba lagi nanti')
      expect(performance.now() - started).toBeLessThan(3000)
      expect((await check(media, 'http://evil.example.com/x.png')).status).toBe(400)
    } finally {
      await media.close()
    }
  })
})

describe('PUBLIC_MEDIA_URL and keyOfUrl', () => {
  test('normalized with a trailing slash; defaults to http://localhost:<PORT>/media/', () => {
    expect(normalizePublicMediaUrl(undefined, 3000)).toBe('http://localhost:3000/media/')
    expect(normalizePublicMediaUrl('https://cdn.example.com/files', 80)).toBe('https://cdn.example.com/files/')
    expect(normalizePublicMediaUrl('https://cdn.example.com', 80)).toBe('https://cdn.example.com/')
    expect(() => normalizePublicMediaUrl('https://u:p@cdn.example.com/', 80)).toThrow('PUBLIC_MEDIA_URL')
    expect(() => normalizePublicMediaUrl('https://cdn.example.com/?x=1', 80)).toThrow('PUBLIC_MEDIA_URL')
    expect(() => normalizePublicMediaUrl('https://cdn.example.com/:id/', 80)).toThrow('PUBLIC_MEDIA_URL')
  })

  test('a base at the root of a host maps URLs the same way', () => {
    const base = 'https://cdn.example.com/'
    expect(keyOfUrl(base, base + KEY)).toBe(KEY)
    expect(() => keyOfUrl(base, `https://cdn.example.com.evil.com/${KEY}`)).toThrow()
    expect(() => keyOfUrl(base, `https://evil.com/https://cdn.example.com/${KEY}`)).toThrow()
  })
})
