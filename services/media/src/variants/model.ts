import { t } from 'elysia'
import { oneOf } from '@app/kit'

/** Widths and heights a variant may have: the usual srcset steps, nothing in between. */
export const VARIANT_SIZES = ['160', '320', '480', '640', '960', '1280', '1920'] as const
export const VARIANT_FITS = ['cover', 'contain', 'inside'] as const
export const VARIANT_FORMATS = ['webp', 'avif', 'jpeg'] as const
export const VARIANT_QUALITIES = ['40', '50', '60', '70', '75', '80', '90'] as const

/** Named sizes for the usual places an event poster appears. */
export const VARIANT_PRESETS = {
  thumb: { w: 160, h: 160, fit: 'cover' },
  card: { w: 640, h: 360, fit: 'cover' },
  hero: { w: 1280, h: 720, fit: 'cover' },
} as const
export type VariantPreset = keyof typeof VARIANT_PRESETS

export const VARIANT_MESSAGES = {
  size: `w dan h harus salah satu dari ${VARIANT_SIZES.join(', ')}`,
  fit: 'fit harus cover, contain, atau inside',
  format: 'format harus webp, avif, atau jpeg',
  quality: `q harus salah satu dari ${VARIANT_QUALITIES.join(', ')}`,
  preset: `preset harus salah satu dari ${Object.keys(VARIANT_PRESETS).join(', ')}`,
  unknown: 'parameter tidak dikenal; yang diterima: w, h, fit, format, q, preset',
  notImage: 'Berkas tidak dapat diproses sebagai gambar',
  tooManyPixels: 'Gambar terlalu besar untuk diubah ukurannya',
  busy: 'Terlalu banyak permintaan ukuran gambar, coba lagi sebentar lagi',
} as const

export const variantQuery = t.Object({
  w: t.Optional(oneOf(VARIANT_SIZES, { error: VARIANT_MESSAGES.size, description: 'Lebar (px)' })),
  h: t.Optional(oneOf(VARIANT_SIZES, { error: VARIANT_MESSAGES.size, description: 'Tinggi (px)' })),
  fit: t.Optional(
    oneOf(VARIANT_FITS, {
      error: VARIANT_MESSAGES.fit,
      description: 'cover: dipotong memenuhi w x h; contain: muat utuh dengan latar; inside: muat utuh, tanpa latar (bawaan)',
    }),
  ),
  format: t.Optional(
    oneOf(VARIANT_FORMATS, {
      error: VARIANT_MESSAGES.format,
      description: 'Tanpa format: dipilih dari header Accept (avif, webp, lalu format asli)',
    }),
  ),
  q: t.Optional(oneOf(VARIANT_QUALITIES, { error: VARIANT_MESSAGES.quality, description: 'Kualitas (bawaan 75)' })),
  preset: t.Optional(
    oneOf(['thumb', 'card', 'hero'] as const, {
      error: VARIANT_MESSAGES.preset,
      description: 'thumb 160x160, card 640x360, hero 1280x720 (cover); w/h/fit yang dikirim menimpa preset',
    }),
  ),
})
