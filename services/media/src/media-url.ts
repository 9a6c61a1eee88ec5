// PUBLIC_MEDIA_URL: the public address under which stored keys are reachable, and the only
// addresses check-file accepts.
import { ConfigError, HttpError } from '@app/kit'
import { isValidKey } from './storage/keys'

/**
 * PUBLIC_MEDIA_URL with a trailing slash; `http://localhost:<port>/media/` when unset. Its path
 * is where the media service serves the files, so it is kept to plain segments.
 */
export function normalizePublicMediaUrl(raw: string | undefined, port: number): string {
  const url = new URL(raw || `http://localhost:${port}/media/`)
  if (url.username || url.password || url.search || url.hash)
    throw new ConfigError('PUBLIC_MEDIA_URL must not carry credentials, a query or a fragment')
  if (!url.pathname.endsWith('/')) url.pathname += '/'
  if (!/^(\/[A-Za-z0-9._~-]+)*\/$/.test(url.pathname) || url.pathname.split('/').some((s) => s === '.' || s === '..'))
    throw new ConfigError('PUBLIC_MEDIA_URL path must be plain segments of letters, digits, dots, dashes or underscores')
  return url.toString()
}

/** The path under which the media service serves the files, e.g. `/media/`. */
export function mediaBasePath(publicMediaUrl: string): string {
  return new URL(publicMediaUrl).pathname
}

export function urlOfKey(publicMediaUrl: string, key: string): string {
  return publicMediaUrl + key
}

export const CHECK_FILE_MESSAGES = {
  invalid: 'url tidak valid: kirim URL lengkap berkas hasil unggahan',
  foreign: 'url bukan alamat berkas dari layanan media ini',
} as const

/**
 * The storage key a URL under PUBLIC_MEDIA_URL stands for; a 400 HttpError for anything else.
 * The URL is only parsed and compared, never fetched: same scheme, host and port as the media
 * base, no userinfo, no query or fragment, no dot segments or percent-escapes (which could
 * otherwise resolve to another path), and a key of exactly the shape uploads are given.
 */
export function keyOfUrl(publicMediaUrl: string, raw: string): string {
  // checked on the text itself, before URL parsing resolves `..` or decodes anything away
  if (!raw || /[\s\\\u0000-\u001f\u007f]/.test(raw) || raw.includes('..') || raw.includes('%'))
    throw new HttpError(400, CHECK_FILE_MESSAGES.invalid)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new HttpError(400, CHECK_FILE_MESSAGES.invalid)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpError(400, CHECK_FILE_MESSAGES.invalid)
  const base = new URL(publicMediaUrl)
  if (url.username || url.password || raw.includes('@') || url.origin !== base.origin || raw.includes('?') || raw.includes('#'))
    throw new HttpError(400, CHECK_FILE_MESSAGES.foreign)
  if (!url.pathname.startsWith(base.pathname)) throw new HttpError(400, CHECK_FILE_MESSAGES.foreign)
  const key = url.pathname.slice(base.pathname.length)
  if (!isValidKey(key)) throw new HttpError(400, CHECK_FILE_MESSAGES.foreign)
  return key
}
