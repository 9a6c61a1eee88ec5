import sharp from 'sharp'
import { HttpError } from '@app/kit'
import type { Storage } from '../storage'
import { variantKey, type VariantExtension } from '../storage/keys'
import { VARIANT_MESSAGES, VARIANT_PRESETS, type VariantPreset } from './model'

// libvips: one thread per image (several images run side by side under our own limit) and no
// operation cache (every variant is made once, then served from the store)
sharp.concurrency(1)
sharp.cache(false)

/** A decompression bomb (a small file declaring a huge canvas) is refused before decoding. */
export const MAX_INPUT_PIXELS = 50_000_000

export interface VariantSpec {
  width?: number
  height?: number
  fit: 'cover' | 'contain' | 'inside'
  format: 'webp' | 'avif' | 'jpeg' | 'png'
  quality: number
  /** True when the format came from the Accept header (the answer then varies by Accept). */
  negotiated: boolean
}

const EXTENSION: Record<VariantSpec['format'], VariantExtension> = { webp: 'webp', avif: 'avif', jpeg: 'jpg', png: 'png' }
const KNOWN = new Set(['w', 'h', 'fit', 'format', 'q', 'preset'])

/** The variant a validated query asks for; the format from `accept` when none is named. */
export function variantSpec(
  query: Partial<Record<'w' | 'h' | 'fit' | 'format' | 'q' | 'preset', string>>,
  rawQuery: URLSearchParams,
  accept: string | null,
  originalKey: string,
): VariantSpec {
  for (const name of rawQuery.keys()) if (!KNOWN.has(name)) throw new HttpError(400, VARIANT_MESSAGES.unknown)
  const preset = query.preset ? VARIANT_PRESETS[query.preset as VariantPreset] : undefined
  const width = query.w ? Number(query.w) : preset?.w
  const height = query.h ? Number(query.h) : preset?.h
  const fit = (query.fit ?? preset?.fit ?? 'inside') as VariantSpec['fit']
  let format = query.format as VariantSpec['format'] | undefined
  const negotiated = !format
  if (!format) {
    const types = (accept ?? '').toLowerCase()
    format = types.includes('image/avif')
      ? 'avif'
      : types.includes('image/webp')
        ? 'webp'
        : originalKey.endsWith('.png')
          ? 'png'
          : 'jpeg'
  }
  return { width, height, fit, format, quality: Number(query.q ?? 75), negotiated }
}

export function variantKeyOf(originalKey: string, spec: VariantSpec): string {
  const name = `w${spec.width ?? 0}-h${spec.height ?? 0}-${spec.fit}-q${spec.quality}`
  return variantKey(originalKey, name, EXTENSION[spec.format])
}

/**
 * At most `concurrency` images decode at once; up to `queue` more wait; beyond that, 503. With
 * at most 50 Mpx per input, memory stays within a few hundred MB whatever the request rate.
 */
export function createVariantLimiter(concurrency = 2, queue = 32) {
  let running = 0
  const waiting: (() => void)[] = []
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= concurrency) {
        if (waiting.length >= queue) throw new HttpError(503, VARIANT_MESSAGES.busy, undefined, { 'retry-after': '2' })
        await new Promise<void>((resolve) => waiting.push(resolve))
      } else running++
      try {
        return await task()
      } finally {
        const next = waiting.shift()
        if (next) next()
        else running--
      }
    },
    get running() {
      return running
    },
  }
}
export type VariantLimiter = ReturnType<typeof createVariantLimiter>

/** Resizes and encodes; corrupt input and oversized canvases become 422s. */
export async function renderVariant(input: Uint8Array, spec: VariantSpec): Promise<Uint8Array> {
  try {
    let image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true })
      // camera photos: apply the EXIF orientation before resizing
      .rotate()
      .resize({
        width: spec.width,
        height: spec.height,
        fit: spec.fit,
        withoutEnlargement: true,
        background: { r: 255, g: 255, b: 255, alpha: spec.format === 'jpeg' ? 1 : 0 },
      })
    if (spec.format === 'jpeg') image = image.flatten({ background: '#ffffff' }).jpeg({ quality: spec.quality, mozjpeg: true })
    else if (spec.format === 'webp') image = image.webp({ quality: spec.quality, effort: 4 })
    else if (spec.format === 'avif') image = image.avif({ quality: Math.max(30, spec.quality - 20), effort: 2 })
    else image = image.png({ compressionLevel: 8, palette: spec.quality < 90 })
    return new Uint8Array(await image.toBuffer())
  } catch (error) {
    const message = String((error as Error)?.message ?? error)
    if (/pixel limit/i.test(message)) throw new HttpError(422, VARIANT_MESSAGES.tooManyPixels)
    throw new HttpError(422, VARIANT_MESSAGES.notImage)
  }
}

export interface VariantDeps {
  storage: Storage
  limiter: VariantLimiter
  /** Variants being made right now, so a burst of the same URL renders once. */
  inFlight: Map<string, Promise<boolean>>
}

/**
 * The variant's key in the store, made (once) when missing. False when the original is missing.
 */
export async function ensureVariant(deps: VariantDeps, originalKey: string, spec: VariantSpec): Promise<string | null> {
  const key = variantKeyOf(originalKey, spec)
  if (await deps.storage.stat(key)) return key
  let pending = deps.inFlight.get(key)
  if (!pending) {
    pending = deps.limiter
      .run(async () => {
        if (await deps.storage.stat(key)) return true
        const original = await deps.storage.get(originalKey)
        if (!original) return false
        const bytes = new Uint8Array(await new Response(original.body).arrayBuffer())
        const output = await renderVariant(bytes, spec)
        await deps.storage.put(key, output, { contentType: contentTypeOf(spec), size: output.byteLength })
        return true
      })
      .finally(() => deps.inFlight.delete(key))
    deps.inFlight.set(key, pending)
  }
  return (await pending) ? key : null
}

export function contentTypeOf(spec: VariantSpec): string {
  return spec.format === 'jpeg' ? 'image/jpeg' : `image/${spec.format}`
}
