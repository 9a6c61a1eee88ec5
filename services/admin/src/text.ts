import { slugify } from '@app/db'

/** A slug from a title; titles with no Latin letter or digit get the fallback. */
export function slugifyOr(title: string, fallback: string): string {
  return /[a-z0-9]/i.test(title.normalize('NFKD')) ? slugify(title) || fallback : fallback
}

/** Trimmed single-line text: control characters become spaces, NFC. */
export function cleanLine(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .normalize('NFC')
    .trim()
}
