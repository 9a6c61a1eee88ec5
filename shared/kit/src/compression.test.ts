// Compression and CORS units: negotiation, the response cache keeping compressed forms, the
// CORS_ORIGINS validation. The behaviour over HTTP is in test/apps.test.ts.
import { describe, expect, test } from 'bun:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { compress, compressResponse, negotiateEncoding, type Encoding } from './compression'
import { corsHeaders, corsKind, parseCorsOrigins } from './cors'
import { readConfig } from './env'
import { createResponseCache } from './response-cache'

describe('negotiateEncoding', () => {
  test('prefers gzip (the stored form), then zstd, then br; honours q-values and identity', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('gzip')
    expect(negotiateEncoding('gzip, deflate, br')).toBe('gzip')
    expect(negotiateEncoding('br, zstd')).toBe('zstd')
    expect(negotiateEncoding('deflate, br')).toBe('br')
    expect(negotiateEncoding('gzip')).toBe('gzip')
    expect(negotiateEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip')
    expect(negotiateEncoding('gzip;q=0.5, br')).toBe('br')
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeUndefined()
    expect(negotiateEncoding('*')).toBe('gzip')
    expect(negotiateEncoding('identity')).toBeUndefined()
    expect(negotiateEncoding(null)).toBeUndefined()
  })
})

describe('compress', () => {
  test('every encoding gives the answer back, from 1 KB to past the largest brotli window it picks', () => {
    const decode: Record<Encoding, (bytes: Uint8Array) => Uint8Array> = {
      br: (bytes) => brotliDecompressSync(bytes),
      zstd: (bytes) => Bun.zstdDecompressSync(bytes as Uint8Array<ArrayBuffer>),
      gzip: (bytes) => gunzipSync(bytes),
    }
    let seed = 7
    const word = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 100_000).toString(36)
    for (const size of [1024, 40_000, 70_000, 5_000_000]) {
      let text = ''
      while (text.length < size) text += `{"title":"${word()} ${word()}","slug":"${word()}-${word()}"},`
      const input = new TextEncoder().encode(`[${text.slice(0, -1)}]`)
      for (const encoding of ['br', 'zstd', 'gzip'] as const) {
        const packed = compress(encoding, input)
        expect(packed.byteLength, `${encoding} ${size}`).toBeLessThan(input.byteLength)
        expect(Buffer.from(decode[encoding](packed)).equals(Buffer.from(input)), `${encoding} ${size}`).toBe(true)
      }
    }
  })
})

describe('compressResponse', () => {
  const big = JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ i, title: `Event ${i}` })) })
  const req = (encoding: string) => new Request('http://localhost/x', { headers: { 'accept-encoding': encoding } })
  test('compresses JSON above the threshold, leaves small answers, images and encoded answers', async () => {
    const json = (body: string) => new Response(body, { headers: { 'content-type': 'application/json' } })
    const out = await compressResponse(req('gzip'), json(big))
    expect(out.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await out.arrayBuffer())).toString()).toBe(big)
    expect((await compressResponse(req('gzip'), json('{"a":1}'))).headers.get('content-encoding')).toBeNull()
    const image = new Response(new Uint8Array(50_000), { headers: { 'content-type': 'image/png' } })
    expect((await compressResponse(req('gzip'), image)).headers.get('content-encoding')).toBeNull()
    const strong = new Response(big, { headers: { 'content-type': 'text/plain', etag: '"abc"' } })
    expect((await compressResponse(req('br'), strong)).headers.get('etag')).toBe('"abc-br"')
  })
})

describe('response cache with compression', () => {
  test('a cache hit answers the stored compressed form without compressing again', async () => {
    const cache = createResponseCache({ versions: { current: async () => 1 } })
    const body = { items: Array.from({ length: 200 }, (_, i) => ({ i, title: `Event ${i}` })) }
    const original = Bun.zstdCompressSync
    let calls = 0
    ;(Bun as any).zstdCompressSync = (...args: any[]) => {
      calls++
      return (original as any)(...args)
    }
    try {
      const ask = () =>
        cache.respond(new Request('http://localhost/x', { headers: { 'accept-encoding': 'zstd' } }), 'k', async () => ({
          status: 200,
          body,
        }))
      const first = await ask()
      const second = await ask()
      expect(first.headers.get('content-encoding')).toBe('zstd')
      expect(second.headers.get('vary')).toBe('Accept-Encoding')
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(new Uint8Array(await first.arrayBuffer()))
      expect(calls).toBe(1)
      const decoded = new TextDecoder().decode(Bun.zstdDecompressSync(new Uint8Array(await (await ask()).arrayBuffer())))
      expect(JSON.parse(decoded)).toEqual(body)
    } finally {
      ;(Bun as any).zstdCompressSync = original
    }
  })
})

describe('CORS rules', () => {
  const allowed = new Set(['https://app.example.id'])
  test('kinds and headers', () => {
    expect(corsKind('/api/events', 'GET')).toBe('public')
    expect(corsKind('/api/events/submit', 'POST')).toBe('write')
    expect(corsKind('/api/admin/me', 'GET')).toBe('admin')
    expect(corsHeaders('public', 'https://x.test', allowed)['access-control-allow-origin']).toBe('*')
    expect(corsHeaders('write', 'https://x.test', allowed)).toEqual({ vary: 'Origin' })
    expect(corsHeaders('admin', 'https://app.example.id', allowed)['access-control-allow-credentials']).toBe('true')
    expect(corsHeaders('write', 'https://app.example.id', allowed)['access-control-allow-credentials']).toBeUndefined()
  })
  test('CORS_ORIGINS is validated once with the rest of the environment', () => {
    expect(parseCorsOrigins(' https://a.id , http://127.0.0.1:5173 ')).toEqual(['https://a.id', 'http://127.0.0.1:5173'])
    expect(readConfig({ CORS_ORIGINS: 'https://a.id' }).corsOrigins).toEqual(['https://a.id'])
    expect(readConfig({}).corsOrigins).toEqual([])
    for (const bad of ['https://a.id/', 'a.id', 'ftp://a.id', 'https://a.id/path', '*'])
      expect(() => readConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/)
  })
})
