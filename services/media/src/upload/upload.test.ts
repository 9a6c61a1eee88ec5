import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { call, envelopeMessage, get, type TestResponse } from '@app/kit/testing'
import { MESSAGES } from '@app/kit'
import {
  closedPort,
  createTestMedia,
  fileForm,
  GIF_1X1,
  HTML,
  JPEG_1X1,
  PNG_1X1,
  pngOfSize,
  startS3rver,
  SVG,
  TEXT,
  WEBP_1X1,
} from '../testing'
import { SLOW } from '../testing'
import { boundaryOf, dispositionParams, MultipartError, streamFilePart } from './multipart'
import { detectImageType, MAX_UPLOAD_BODY_BYTES, MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from './service'

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
/** A client address of its own, so tests never share a rate-limit allowance. */
const freshAddress = () => `10.${Math.floor(++addresses / 250) % 250}.${addresses % 250}.7`

function upload(media: Media, body: RequestInit['body'], headers: Record<string, string> = {}): Promise<TestResponse> {
  return call(media.app, 'POST', '/api/upload', { rawBody: body, headers: { 'x-forwarded-for': freshAddress(), ...headers } })
}

/** GET of a returned URL through the app (the media service serves PUBLIC_MEDIA_URL's path). */
async function fetchUrl(media: Media, url: string): Promise<Response> {
  const { pathname } = new URL(url)
  return media.app.handle(new Request(`http://localhost:3000${pathname}`))
}

/** How many objects the media's storage holds (disk: files under DATA_DIR/media; s3: ListObjectsV2 on s3rver). */
async function storedCount(media: Media): Promise<number> {
  if (media.config.s3) {
    const listing = await (await fetch(`${media.config.s3.endpoint}/${media.config.s3.bucket}?list-type=2&max-keys=1000`)).text()
    return listing.split('<Key>').length - 1
  }
  return (await Array.fromAsync(new Bun.Glob('**/*').scan({ cwd: join(media.dataDir, 'media'), onlyFiles: true }))).length
}

/** Files left in the staging directory (an upload streams there first): always 0 between requests. */
async function stagedCount(media: Media): Promise<number> {
  const dir = await media.deps.storage.stagingDirectory()
  return (await Array.fromAsync(new Bun.Glob('*').scan({ cwd: dir, onlyFiles: true }))).length
}

function multipartBody(boundary: string, parts: { headers: string[]; data: Uint8Array | string }[], preamble = ''): Buffer {
  const chunks: Buffer[] = [Buffer.from(preamble)]
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`))
    chunks.push(Buffer.from(part.data))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(chunks)
}

const setups: [string, () => Promise<Media>][] = [
  ['disk', () => createTestMedia(database)],
  ['s3', () => createTestMedia(database, { s3Endpoint: s3.endpoint })],
]

describe.each(setups)('POST /api/upload, %s driver', (driver, make) => {
  let media: Media
  beforeAll(async () => {
    media = await make()
    expect(media.deps.storage.driver).toBe(driver as 'disk' | 's3')
  }, SLOW)
  afterAll(async () => {
    await media.close()
  })

  test.each([
    ['PNG', PNG_1X1, 'png'],
    ['JPEG', JPEG_1X1, 'jpg'],
    ['WEBP', WEBP_1X1, 'webp'],
  ] as const)('%s: 200 {success, url, data.url}, and the URL gives back exactly the bytes', async (_type, bytes, ext) => {
    const res = await upload(media, fileForm(bytes, `gambar.${ext}`))
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success', 'url'])
    expect(res.body.success).toBe(true)
    expect(res.body.data).toEqual({ url: res.body.url })
    const now = new Date()
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`
    expect(res.body.url).toMatch(
      new RegExp(
        `^http://localhost:3000/media/uploads/${month}/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\\.${ext}$`,
      ),
    )
    const file = await fetchUrl(media, res.body.url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe({ png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' }[ext])
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true)
  })

  test('every upload gets its own key', async () => {
    const before = await storedCount(media)
    const urls = new Set<string>()
    for (let i = 0; i < 5; i++) urls.add((await upload(media, fileForm(PNG_1X1))).body.url)
    expect(urls.size).toBe(5)
    expect(await storedCount(media)).toBe(before + 5)
    expect(await stagedCount(media)).toBe(0)
  })

  test('the type comes from the bytes, not the name or the declared type', async () => {
    const asSvg = await upload(media, fileForm(PNG_1X1, 'evil.svg', 'image/svg+xml'))
    expect(asSvg.status).toBe(200)
    expect(asSvg.body.url).toEndWith('.png')
    const jpegNamedPng = await upload(media, fileForm(JPEG_1X1, 'photo.png', 'image/png'))
    expect(jpegNamedPng.body.url).toEndWith('.jpg')
    expect((await fetchUrl(media, jpegNamedPng.body.url)).headers.get('content-type')).toBe('image/jpeg')
    // the client's file name never reaches the key
    const traversalName = await upload(media, fileForm(PNG_1X1, '../../../etc/passwd.png'))
    expect(traversalName.status).toBe(200)
    expect(traversalName.body.url).not.toContain('passwd')
  })

  test.each([
    ['GIF', GIF_1X1, 'anim.gif', 'image/gif'],
    ['GIF renamed .png', GIF_1X1, 'anim.png', 'image/png'],
    ['SVG renamed .png', SVG, 'logo.png', 'image/png'],
    ['SVG', SVG, 'logo.svg', 'image/svg+xml'],
    ['HTML renamed .png', HTML, 'page.png', 'image/png'],
    ['text renamed .png', TEXT, 'notes.png', 'image/png'],
    ['half a PNG signature', PNG_1X1.subarray(0, 4), 'cut.png', 'image/png'],
    ['RIFF that is not WEBP', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), 'sound.webp', 'image/webp'],
    ['PDF', Buffer.from('%PDF-1.7\n'), 'doc.png', 'image/png'],
  ])('%s: 400 unsupported format, nothing stored', async (_name, bytes, filename, type) => {
    const before = await storedCount(media)
    const res = await upload(media, fileForm(bytes, filename, type))
    expect(res.status).toBe(400)
    expect(envelopeMessage(res)).toBe(UPLOAD_MESSAGES.unsupported)
    expect(await storedCount(media)).toBe(before)
    expect(await stagedCount(media)).toBe(0)
  })

  test('missing file part: 400 "File wajib diunggah"', async () => {
    const other = new FormData()
    other.append('gambar', new File([PNG_1X1], 'a.png', { type: 'image/png' }))
    other.append('title', 'x')
    const cases: [RequestInit['body'], Record<string, string>][] = [
      [other, {}],
      [new FormData(), {}],
      [undefined, {}],
      [JSON.stringify({ file: 'iVBORw0KGgo=' }), { 'content-type': 'application/json' }],
      ['file=abc', { 'content-type': 'application/x-www-form-urlencoded' }],
      [PNG_1X1, { 'content-type': 'image/png' }],
      ['x', { 'content-type': 'multipart/form-data' }],
    ]
    for (const [body, headers] of cases) {
      const res = await upload(media, body, headers)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toBe(UPLOAD_MESSAGES.missing)
    }
  })

  test('an empty file, two files, or a broken multipart body: 400', async () => {
    const empty = await upload(media, fileForm(new Uint8Array(0)))
    expect(empty.status).toBe(400)
    expect(envelopeMessage(empty)).toBe(UPLOAD_MESSAGES.empty)

    const two = fileForm(PNG_1X1)
    two.append('file', new File([PNG_1X1], 'b.png', { type: 'image/png' }))
    const twoRes = await upload(media, two)
    expect(twoRes.status).toBe(400)
    expect(envelopeMessage(twoRes)).toBe(UPLOAD_MESSAGES.oneFile)

    const boundary = 'xyzBOUNDARY'
    const full = multipartBody(boundary, [
      { headers: ['Content-Disposition: form-data; name="file"; filename="a.png"'], data: PNG_1X1 },
    ])
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` }
    for (const body of [
      full.subarray(0, full.length - 20), // cut before the closing boundary
      Buffer.from('garbage with no boundary at all'),
      Buffer.from(`--${boundary}\r\nno header end`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: attachment; name="file"\r\n\r\nx\r\n--${boundary}--`),
    ]) {
      const res = await upload(media, body, headers)
      expect(res.status).toBe(400)
      expect(envelopeMessage(res)).toBe(UPLOAD_MESSAGES.malformed)
    }
  })

  test('hand-written multipart as curl and browsers send it: preamble, quoted boundary, other fields', async () => {
    const boundary = '------------------------d74496d66958873e'
    const body = multipartBody(
      boundary,
      [
        { headers: ['Content-Disposition: form-data; name="caption"'], data: 'Poster <b>konser</b>' },
        {
          headers: [
            'Content-Disposition: form-data; name="file"; filename="poster final.png"',
            'Content-Type: application/octet-stream',
          ],
          data: PNG_1X1,
        },
      ],
      'this preamble is ignored\r\n',
    )
    const res = await upload(media, body, { 'content-type': `multipart/form-data; boundary="${boundary}"` })
    expect(res.status).toBe(200)
    expect(Buffer.from(await (await fetchUrl(media, res.body.url)).arrayBuffer()).equals(PNG_1X1)).toBe(true)
  })

  test(
    'exactly 24 MB is accepted and stored intact',
    async () => {
      const bytes = pngOfSize(MAX_UPLOAD_BYTES)
      const res = await upload(media, fileForm(bytes))
      expect(res.status).toBe(200)
      const file = await fetchUrl(media, res.body.url)
      expect(file.headers.get('content-length')).toBe(String(MAX_UPLOAD_BYTES))
      const back = new Uint8Array(await file.arrayBuffer())
      expect(back.byteLength).toBe(MAX_UPLOAD_BYTES)
      expect(Bun.hash(back)).toBe(Bun.hash(bytes))
    },
    SLOW,
  )

  test(
    '24 MB + 1 byte: 413 "Ukuran file melebihi batas 24 MB"',
    async () => {
      const before = await storedCount(media)
      const res = await upload(media, fileForm(pngOfSize(MAX_UPLOAD_BYTES + 1)))
      expect(res.status).toBe(413)
      expect(await storedCount(media)).toBe(before)
      expect(await stagedCount(media)).toBe(0)
      expect(envelopeMessage(res)).toBe(UPLOAD_MESSAGES.tooLarge)
    },
    SLOW,
  )

  test('a declared Content-Length over the limit is refused before a byte of the body is read', async () => {
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65536
        controller.enqueue(new Uint8Array(65536))
      },
    })
    const request = new Request('http://localhost:3000/api/upload', {
      method: 'POST',
      body,
      headers: {
        'content-type': 'multipart/form-data; boundary=abc',
        'content-length': String(100 * 1024 * 1024),
        'x-forwarded-for': freshAddress(),
      },
      duplex: 'half',
    })
    const response = await media.app.handle(request)
    expect(response.status).toBe(413)
    // above 25 MiB the shared guard of every service answers, before the upload route runs
    expect(((await response.json()) as any).error).toBe(MESSAGES.tooLarge)
    expect(pulled).toBeLessThanOrEqual(2 * 65536)
  })

  test(
    'a streamed (chunked) 100 MB body is cut off at the limit, not buffered',
    async () => {
      let pulled = 0
      const chunk = new Uint8Array(65536)
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(
            new TextEncoder().encode('--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
          )
          controller.enqueue(PNG_1X1.subarray(0, 8))
        },
        pull(controller) {
          if (pulled >= 100 * 1024 * 1024) return controller.close()
          pulled += chunk.byteLength
          controller.enqueue(chunk)
        },
      })
      const request = new Request('http://localhost:3000/api/upload', {
        method: 'POST',
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=abc', 'x-forwarded-for': freshAddress() },
        duplex: 'half',
      })
      const response = await media.app.handle(request)
      expect(response.status).toBe(413)
      expect(pulled).toBeLessThan(MAX_UPLOAD_BODY_BYTES + 4 * 65536)
    },
    SLOW,
  )

  test('a body that breaks off mid-upload (client or proxy gone): 400, nothing stored, no 500', async () => {
    const before = await storedCount(media)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode('--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
        )
        controller.enqueue(PNG_1X1)
      },
      pull(controller) {
        if (++sent > 3) return controller.error(new Error('connection reset'))
        controller.enqueue(new Uint8Array(65536))
      },
    })
    const response = await media.app.handle(
      new Request('http://localhost:3000/api/upload', {
        method: 'POST',
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=abc', 'x-forwarded-for': freshAddress() },
        duplex: 'half',
      }),
    )
    expect(response.status).toBe(400)
    expect(((await response.json()) as any).error).toBe(UPLOAD_MESSAGES.interrupted)
    expect(await storedCount(media)).toBe(before)
    expect(await stagedCount(media)).toBe(0)
  })

  test('GET on the upload path is not an upload', async () => {
    const res = await get(media.app, '/api/upload')
    expect([404, 405]).toContain(res.status)
    envelopeMessage(res)
  })
})

describe('upload rate limit', () => {
  let media: Media
  beforeAll(async () => {
    media = await createTestMedia(database, { uploadLimitPerMinute: 3 })
  }, SLOW)
  afterAll(async () => {
    await media.close()
  })

  test('per client address: the 4th upload in a minute is a 429 with Retry-After, others are unaffected', async () => {
    const address = '192.0.2.77'
    for (let i = 0; i < 3; i++) expect((await upload(media, fileForm(PNG_1X1), { 'x-forwarded-for': address })).status).toBe(200)
    const limited = await upload(media, fileForm(PNG_1X1), { 'x-forwarded-for': address })
    expect(limited.status).toBe(429)
    expect(envelopeMessage(limited)).toBe('Terlalu banyak permintaan, coba lagi nanti')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    // refused uploads count too: the limit is on attempts, checked before the body is read
    expect((await upload(media, fileForm(GIF_1X1), { 'x-forwarded-for': address })).status).toBe(429)
    expect((await upload(media, fileForm(PNG_1X1), { 'x-forwarded-for': '192.0.2.78' })).status).toBe(200)
  })
})

describe('storage down', () => {
  test('S3 endpoint with nothing listening: 503 envelope promptly, nothing hangs', async () => {
    const media = await createTestMedia(database, { s3Endpoint: `http://127.0.0.1:${closedPort()}` })
    try {
      const started = performance.now()
      const res = await upload(media, fileForm(PNG_1X1))
      expect(res.status).toBe(503)
      expect(envelopeMessage(res)).toBe('Penyimpanan berkas sedang tidak tersedia, coba lagi nanti')
      expect(res.headers.get('retry-after')).toBe('5')
      expect(performance.now() - started).toBeLessThan(3000)
      // a refused format is still a 400: the file is checked before storage is touched
      expect((await upload(media, fileForm(GIF_1X1))).status).toBe(400)
    } finally {
      await media.close()
    }
  })

  test('S3 server that never answers: 503 once the timeout passes', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const media = await createTestMedia(database, {
      s3Endpoint: `http://127.0.0.1:${silent.port}`,
      timeouts: { idleMs: 300, callMs: 800, putMs: 800 },
    })
    try {
      const started = performance.now()
      const res = await upload(media, fileForm(PNG_1X1))
      expect(res.status).toBe(503)
      expect(performance.now() - started).toBeLessThan(3000)
    } finally {
      silent.stop(true)
      await media.close()
    }
  })
})

describe('multipart reader and magic bytes', () => {
  test('boundaryOf', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc')
    expect(boundaryOf('Multipart/Form-Data;boundary="a b:c"')).toBe('a b:c')
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary=----x')).toBe('----x')
    expect(boundaryOf('multipart/form-data')).toBeNull()
    expect(boundaryOf('multipart/mixed; boundary=abc')).toBeNull()
    expect(boundaryOf('application/json')).toBeNull()
    expect(boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeNull()
    expect(boundaryOf('multipart/form-data; boundary=a\r\nb')).toBeNull()
    expect(boundaryOf(null)).toBeNull()
  })

  /** Runs the streaming reader over `body` cut into chunks of the given sizes (cycled). */
  async function stream(body: Buffer, boundary: string, sizes: number[], caps: { file?: number; body?: number } = {}) {
    let offset = 0
    let index = 0
    let pulls = 0
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        if (offset >= body.length) return controller.close()
        const size = sizes[index++ % sizes.length]
        controller.enqueue(new Uint8Array(body.subarray(offset, offset + size)))
        offset += size
      },
    })
    const written: Buffer[] = []
    const heads: Buffer[] = []
    const result = await streamFilePart(source, boundary, {
      field: 'file',
      maxBodyBytes: caps.body ?? 1 << 30,
      maxFileBytes: caps.file ?? 1 << 30,
      headBytes: 16,
      open(head) {
        heads.push(Buffer.from(head))
        return { write: (chunk) => void written.push(Buffer.from(chunk)) }
      },
      onDuplicate: () => new Error('duplicate'),
      onTooLarge: () => new Error('too large'),
    })
    return { result, data: Buffer.concat(written), heads, pulls, offset }
  }

  // a file full of near-delimiters (CRLF, dashes, the boundary without its CRLF or cut short)
  const trickyFile = Buffer.concat([
    PNG_1X1.subarray(0, 16),
    Buffer.from('x--Boundary\r\n-\r\n--Bound\r\n--Boundar'),
    Buffer.alloc(300, 0x2d),
    Buffer.from('\r\n\r\n--'),
  ])
  const body = multipartBody(
    'Boundary',
    [
      { headers: ['Content-Disposition: form-data; name="judul"'], data: 'Konser\r\n--Bounda' },
      {
        headers: ['content-disposition: form-data; filename="x\\"y.png"; name="file"', 'Content-Type: image/png'],
        data: trickyFile,
      },
      { headers: ['Content-Disposition: form-data; name="after"'], data: 'tail' },
    ],
    'preamble\r\n',
  )

  test.each([[[1]], [[2]], [[3]], [[7]], [[13, 1, 64]], [[64]], [[4096]], [[body.length]]])(
    'the file part comes out byte for byte, whatever the chunking (%j)',
    async (sizes) => {
      const { result, data, heads } = await stream(body, 'Boundary', sizes)
      expect(result).toEqual({ size: trickyFile.length })
      expect(data.equals(trickyFile)).toBe(true)
      expect(heads).toEqual([trickyFile.subarray(0, 16)])
    },
  )

  test("random files and chunkings agree with Bun's own multipart parser", async () => {
    let seed = 42
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const boundary = '----WebKitFormBoundary7MA4YWxkTrZu0gW'
    const pieces = [
      '\r\n',
      '\r\n--',
      '--',
      `\r\n--${boundary.slice(0, 10)}`,
      `--${boundary}`,
      `\r\n--${boundary.slice(0, -1)}`,
      '\r',
      '-',
    ]
    for (let trial = 0; trial < 150; trial++) {
      const chunks: Buffer[] = []
      for (let n = random(40); n > 0; n--)
        chunks.push(
          random(2)
            ? Buffer.from(pieces[random(pieces.length)])
            : Buffer.from(crypto.getRandomValues(new Uint8Array(random(200)))),
        )
      const file = Buffer.concat(chunks)
      // the full delimiter never occurs in a part (the sender picks the boundary so)
      if (file.includes(`\r\n--${boundary}`)) continue
      const parts = [
        ...(random(2) ? [{ headers: ['Content-Disposition: form-data; name="before"'], data: 'a\r\n--b' }] : []),
        {
          headers: ['Content-Disposition: form-data; name="file"; filename="f.bin"', 'Content-Type: application/octet-stream'],
          data: file,
        },
        ...(random(2) ? [{ headers: ['Content-Disposition: form-data; name="after"'], data: '--' }] : []),
      ]
      const body = multipartBody(boundary, parts)
      const reference = await new Response(body, {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      }).formData()
      const expected = Buffer.from(await (reference.get('file') as File).arrayBuffer())
      const sizes = Array.from({ length: 1 + random(4) }, () => 1 + random(90))
      const out = await stream(body, boundary, sizes)
      expect(out.result).toEqual({ size: expected.length })
      expect(out.data.equals(expected)).toBe(true)
    }
  })

  test('a file shorter than the magic-byte window, and an empty one', async () => {
    const short = multipartBody('B', [{ headers: ['Content-Disposition: form-data; name="file"'], data: 'abc' }])
    expect((await stream(short, 'B', [2])).heads).toEqual([Buffer.from('abc')])
    const empty = multipartBody('B', [{ headers: ['Content-Disposition: form-data; name="file"'], data: '' }])
    const out = await stream(empty, 'B', [5])
    expect(out.result).toEqual({ size: 0 })
    expect(out.heads).toEqual([Buffer.alloc(0)])
  })

  test('no file part: null; two: the duplicate error', async () => {
    const none = multipartBody('B', [{ headers: ['Content-Disposition: form-data; name="other"'], data: 'x' }])
    expect((await stream(none, 'B', [3])).result).toBeNull()
    const two = multipartBody('B', [
      { headers: ['Content-Disposition: form-data; name="file"'], data: PNG_1X1 },
      { headers: ['Content-Disposition: form-data; name="file"'], data: PNG_1X1 },
    ])
    await expect(stream(two, 'B', [10])).rejects.toThrow('duplicate')
  })

  test('broken structure is a MultipartError', async () => {
    const good = multipartBody('B', [{ headers: ['Content-Disposition: form-data; name="file"'], data: PNG_1X1 }])
    for (const broken of [
      good.subarray(0, good.length - 8),
      Buffer.from('no boundary anywhere'),
      Buffer.from('--B\r\nContent-Disposition: form-data; name="file"\r\nno end of headers'),
      Buffer.from('--B\r\nX-Other: 1\r\n\r\nx\r\n--B--'),
      Buffer.from('--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--'),
      Buffer.from('--Bjunk\r\n'),
    ])
      await expect(stream(broken, 'B', [4])).rejects.toBeInstanceOf(MultipartError)
  })

  test('caps: the file and the body, and reading stops there', async () => {
    const big = multipartBody('B', [{ headers: ['Content-Disposition: form-data; name="file"'], data: Buffer.alloc(100_000, 1) }])
    await expect(stream(big, 'B', [1000], { file: 50_000 })).rejects.toThrow('too large')
    await expect(stream(big, 'B', [1000], { body: 20_000 })).rejects.toThrow('too large')
    // the epilogue after the closing delimiter is never read
    const withEpilogue = Buffer.concat([big, Buffer.alloc(1_000_000)])
    const out = await stream(withEpilogue, 'B', [1000])
    expect(out.result).toEqual({ size: 100_000 })
    expect(out.offset).toBeLessThan(big.length + 2000)
  })

  test('dispositionParams', () => {
    expect(dispositionParams('form-data; name="file"; filename="a \\"b\\".png"')).toEqual({ name: 'file', filename: 'a "b".png' })
    expect(dispositionParams('form-data; filename=x.png; name=file')).toEqual({ name: 'file', filename: 'x.png' })
    expect(dispositionParams('form-data; filename="name=\\"file\\""')).toEqual({ filename: 'name="file"' })
  })

  test('detectImageType', () => {
    expect(detectImageType(PNG_1X1)).toBe('png')
    expect(detectImageType(JPEG_1X1)).toBe('jpg')
    expect(detectImageType(WEBP_1X1)).toBe('webp')
    for (const bytes of [GIF_1X1, SVG, HTML, TEXT, new Uint8Array(0), new Uint8Array([0xff, 0xd8])])
      expect(detectImageType(bytes)).toBeNull()
  })
})
