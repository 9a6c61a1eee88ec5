// Storage keys: the only names the media service ever creates, reads or serves.

export const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
} as const
export type ImageExtension = keyof typeof IMAGE_TYPES

/** `uploads/YYYY/MM/<uuid v7>.<png|jpg|webp>`; nothing else is a key (no dots, slashes or escapes to play with). */
export const KEY_PATTERN =
  /^uploads\/\d{4}\/(0[1-9]|1[0-2])\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)$/

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key)
}

/** The formats image variants are made in (sharp's output formats we serve). */
export const VARIANT_TYPES = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpg: 'image/jpeg',
  png: 'image/png',
} as const
export type VariantExtension = keyof typeof VARIANT_TYPES

/**
 * `variants/YYYY/MM/<uuid>.<ext>/<spec>.<webp|avif|jpg|png>`: a resized copy of the upload
 * `uploads/YYYY/MM/<uuid>.<ext>`, `spec` naming its size, fit and quality (e.g. `w320-h0-inside-q75`).
 */
export const VARIANT_KEY_PATTERN =
  /^variants\/\d{4}\/(0[1-9]|1[0-2])\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)\/[a-z0-9-]{1,40}\.(webp|avif|jpg|png)$/

/** Any key the store holds: an upload or one of its variants. */
export function isStoredKey(key: string): boolean {
  return KEY_PATTERN.test(key) || VARIANT_KEY_PATTERN.test(key)
}

/** The key of a variant of the upload `key`. */
export function variantKey(key: string, spec: string, extension: VariantExtension): string {
  return `variants/${key.slice('uploads/'.length)}/${spec}.${extension}`
}

/** A new key for an upload stored now (UTC year and month). */
export function newKey(extension: ImageExtension, now = new Date()): string {
  const year = now.getUTCFullYear()
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `uploads/${year}/${month}/${Bun.randomUUIDv7()}.${extension}`
}

/** The content type implied by a valid key's extension. */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1) as VariantExtension
  return VARIANT_TYPES[extension] ?? 'application/octet-stream'
}
