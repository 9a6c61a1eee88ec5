// Image variants: GET of an upload's URL with w/h/fit/format/q/preset, on the disk and the S3
// driver (s3rver), real images made with sharp, real PNG/JPEG decoding.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { call } from '@app/kit/testing'
import { createTestMedia, fileForm, PNG_1X1, pngOfSize, SLOW, startS3rver } from '../testing'
import { VARIANT_MESSAGES } from './model'
import { variantKeyOf, variantSpec } from './service'

let database: TestDatabase
let s3: Awaited<ReturnType<typeof startS3rver>>
let photo: Uint8Array
let transparent: Uint8Array
beforeAll(async () => {
  database = await createTestDatabase()
  s3 = await startS3rver()
  // a 1200x800 photo-like JPEG and a 600x600 PNG with transparency
  photo = new Uint8Array(
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
      .composite([
        { input: Buffer.from('<svg width="1200" height="800"><circle cx="600" cy="400" r="300" fill="#ffcc00"/></svg>') },
      ])
      .jpeg()
      .toBuffer(),
  )
  transparent = new Uint8Array(
    await sharp({ create: { width: 600, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer(),
  )
}, SLOW)
afterAll(async () => {
  await s3?.stop()
  await database?.close()
}, SLOW)

type Media = Awaited<ReturnType<typeof createTestMedia>>

async function upload(media: Media, bytes: Uint8Array, name = 'poster.jpg', type = 'image/jpeg'): Promise<string> {
  const res = await call(media.app, 'POST', '/api/upload', { rawBody: fileForm(bytes, name, type) })
  expect(res.status).toBe(200)
  return new URL(res.body.url).pathname
}
const get = (media: Media, path: string, headers: Record<string, string> = {}) =>
  media.app.handle(new Request(`http://localhost:3000${path}`, { headers }))
const metaOf = async (res: Response) => sharp(Buffer.from(await res.arrayBuffer())).metadata()

// a real PNG whose header declares 20000 x 20000 pixels (400 Mpx): a decompression bomb
function bomb(): Uint8Array {
  const png = new Uint8Array(PNG_1X1)
  const view = new DataView(png.buffer)
  view.setUint32(16, 20000)
  view.setUint32(20, 20000)
  view.setUint32(29, Bun.hash.crc32(png.subarray(12, 29)))
  return png
}

describe.each([
  ['disk', () => createTestMedia(database)],
  ['s3', () => createTestMedia(database, { s3Endpoint: s3.endpoint })],
] as const)('image variants (%s)', (_driver, make) => {
  let media: Media
  let path: string
  beforeAll(async () => {
    media = await make()
    path = await upload(media, photo)
  }, SLOW)
  afterAll(async () => {
    await media.close()
  })

  test('w + format: resized, encoded, stored once in the driver and served from there', async () => {
    const res = await get(media, `${path}?w=320&format=webp`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('vary')).toBeNull()
    const bytes = new Uint8Array(await res.arrayBuffer())
    const meta = await sharp(Buffer.from(bytes)).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 213])
    expect(bytes.byteLength).toBeLessThan(photo.byteLength)
    const original = path.slice('/media/'.length)
    const key = variantKeyOf(
      original,
      variantSpec({ w: '320', format: 'webp' }, new URLSearchParams('w=320&format=webp'), null, original),
    )
    const stored = await media.deps.storage.stat(key)
    expect(stored?.size).toBe(bytes.byteLength)
    // served from the store afterwards (parameter order does not matter)
    const again = await get(media, `${path}?format=webp&w=320`)
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes)
    // the plain URL is still the original
    const plain = await get(media, path)
    expect(Buffer.from(await plain.arrayBuffer()).equals(Buffer.from(photo))).toBe(true)
  })

  test('without format: AVIF or WebP by Accept (Vary: Accept), else the original format', async () => {
    const avif = await get(media, `${path}?w=160`, { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' })
    expect(avif.headers.get('content-type')).toBe('image/avif')
    expect(avif.headers.get('vary')).toContain('Accept')
    expect((await metaOf(avif)).width).toBe(160)
    const webp = await get(media, `${path}?w=160`, { accept: 'image/webp,*/*' })
    expect(webp.headers.get('content-type')).toBe('image/webp')
    const jpeg = await get(media, `${path}?w=160`)
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
    const pngPath = await upload(media, transparent, 'logo.png', 'image/png')
    const png = await get(media, `${pngPath}?w=160`)
    expect(png.headers.get('content-type')).toBe('image/png')
    expect((await metaOf(png)).hasAlpha).toBe(true)
  })

  test('presets, fit and quality; never enlarged', async () => {
    const thumb = await metaOf(await get(media, `${path}?preset=thumb&format=jpeg`))
    expect([thumb.width, thumb.height]).toEqual([160, 160])
    const card = await metaOf(await get(media, `${path}?preset=card&format=webp`))
    expect([card.width, card.height]).toEqual([640, 360])
    const contain = await metaOf(await get(media, `${path}?w=320&h=320&fit=contain&format=webp`))
    expect([contain.width, contain.height]).toEqual([320, 320])
    const inside = await metaOf(await get(media, `${path}?w=320&h=320&fit=inside&format=jpeg`))
    expect([inside.width, inside.height]).toEqual([320, 213])
    const low = await get(media, `${path}?w=640&format=jpeg&q=40`)
    const high = await get(media, `${path}?w=640&format=jpeg&q=90`)
    expect((await low.arrayBuffer()).byteLength).toBeLessThan((await high.arrayBuffer()).byteLength)
    const big = await metaOf(await get(media, `${path}?w=1920&format=jpeg`))
    expect(big.width).toBe(1200)
  })

  test('sizes outside the list, unknown values and unknown parameters: 400 envelope', async () => {
    for (const [query, message] of [
      ['w=333', VARIANT_MESSAGES.size],
      ['w=99999', VARIANT_MESSAGES.size],
      ['h=-1', VARIANT_MESSAGES.size],
      ['fit=stretch', VARIANT_MESSAGES.fit],
      ['format=gif', VARIANT_MESSAGES.format],
      ['q=100', VARIANT_MESSAGES.quality],
      ['preset=poster', VARIANT_MESSAGES.preset],
      ['w=320&blur=5', VARIANT_MESSAGES.unknown],
    ]) {
      const res = await get(media, `${path}?${query}`)
      expect(res.status, query).toBe(400)
      expect(await res.json()).toMatchObject({ success: false, error: message! })
    }
  })

  test('a corrupt image and a decompression bomb get 422, and the service keeps serving', async () => {
    const corrupt = await upload(media, pngOfSize(50_000), 'broken.png', 'image/png')
    const res = await get(media, `${corrupt}?w=320`)
    expect(res.status).toBe(422)
    expect(((await res.json()) as any).error).toBe(VARIANT_MESSAGES.notImage)
    const bombPath = await upload(media, bomb(), 'bomb.png', 'image/png')
    const boom = await get(media, `${bombPath}?w=160&format=webp`)
    expect(boom.status).toBe(422)
    expect(((await boom.json()) as any).error).toBe(VARIANT_MESSAGES.tooManyPixels)
    expect((await get(media, `${path}?w=160&format=webp`)).status).toBe(200)
    expect((await get(media, '/media/uploads/2026/01/01a2021c-e0c3-7277-9428-eb1e8405828a.png?w=160')).status).toBe(404)
  })

  test(
    'many variants at once, each asked twice: all made under the concurrency limit',
    async () => {
      const sizes = ['160', '320', '480', '640', '960', '1280']
      const formats = ['webp', 'jpeg', 'avif']
      const urls = sizes.flatMap((w) => formats.map((f) => `${path}?w=${w}&h=${w}&fit=cover&format=${f}&q=60`))
      const answers = await Promise.all([...urls, ...urls].map((u) => get(media, u)))
      expect(answers.map((r) => r.status)).toEqual(Array(urls.length * 2).fill(200))
    },
    SLOW,
  )
})
