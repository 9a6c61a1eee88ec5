import { FormatRegistry } from 'elysia/type-system'
import { HttpError } from './errors'

// The edge rules every request meets before any route sees it (createBaseApp installs them), so
// that no malformed input can reach a query: the database would turn a NUL into "invalid byte
// sequence", a huge number into "out of range", and both into a 500.

/** Longest URL (path and query) the API accepts; every documented parameter fits well inside. */
export const MAX_URL_LENGTH = 8192
/** Longest single path segment or query value, after decoding. */
export const MAX_PARAM_LENGTH = 2048
/** Deepest nesting of a JSON body (the API's bodies are flat objects). */
export const MAX_JSON_DEPTH = 16

export const INPUT_MESSAGES = {
  urlTooLong: 'Alamat (URL) terlalu panjang',
  badEncoding: 'Alamat (URL) berisi pengodean persen atau UTF-8 yang tidak valid',
  control: (where: string) => `${where} berisi karakter kontrol yang tidak diizinkan`,
  tooLong: (where: string) => `${where} terlalu panjang (maksimal ${MAX_PARAM_LENGTH} karakter)`,
  repeated: (name: string) => `Parameter ${name} dikirim lebih dari sekali`,
  badBodyEncoding: 'Isi permintaan bukan teks UTF-8 yang valid',
  tooDeep: `Struktur JSON terlalu dalam (maksimal ${MAX_JSON_DEPTH} tingkat)`,
} as const

// C0 controls, DEL and C1 controls: never meaningful in a URL
const URL_CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// in bodies, tab and line breaks are text (descriptions, reasons); lone surrogates are not text
const BODY_CONTROL =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const bad = (message: string, field?: string) => new HttpError(400, message, field ? [{ field, message }] : undefined)

function decode(raw: string, plusIsSpace: boolean): string {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, ' ') : raw)
  } catch {
    throw bad(INPUT_MESSAGES.badEncoding)
  }
}

/**
 * Refuses a request whose URL is too long, is not valid percent-encoded UTF-8, carries control
 * characters (in the path or any query name or value), an overlong segment or value, or the same
 * query parameter twice. Throws the HttpError to answer with.
 */
export function checkUrl(url: string): void {
  checkUrlParts(url)
  // after the parts, so that one overlong value is named (400) rather than the whole URL (414)
  if (url.length > MAX_URL_LENGTH) throw new HttpError(414, INPUT_MESSAGES.urlTooLong)
}

function checkUrlParts(url: string): void {
  const schemeEnd = url.indexOf('://')
  const pathStart = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3)
  if (pathStart < 0) return
  const rest = url.slice(pathStart)
  const hash = rest.indexOf('#')
  const target = hash < 0 ? rest : rest.slice(0, hash)
  const queryStart = target.indexOf('?')
  const path = queryStart < 0 ? target : target.slice(0, queryStart)
  for (const segment of path.split('/')) {
    const decoded = decode(segment, false)
    if (URL_CONTROL.test(decoded)) throw bad(INPUT_MESSAGES.control('Alamat (URL)'))
    if (decoded.length > MAX_PARAM_LENGTH) throw bad(INPUT_MESSAGES.tooLong('Bagian alamat (URL)'))
  }
  if (queryStart < 0) return
  const seen = new Set<string>()
  for (const pair of target.slice(queryStart + 1).split('&')) {
    if (!pair) continue
    const eq = pair.indexOf('=')
    const name = decode(eq < 0 ? pair : pair.slice(0, eq), true)
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1), true)
    const label = URL_CONTROL.test(name) ? 'parameter' : name.slice(0, 40)
    if (URL_CONTROL.test(name) || URL_CONTROL.test(value)) throw bad(INPUT_MESSAGES.control(`Parameter ${label}`), label)
    if (name.length > MAX_PARAM_LENGTH || value.length > MAX_PARAM_LENGTH)
      throw bad(INPUT_MESSAGES.tooLong(`Parameter ${label}`), label)
    if (seen.has(name)) throw bad(INPUT_MESSAGES.repeated(label), label)
    seen.add(name)
  }
}

/**
 * Refuses a parsed body (JSON, form) that nests deeper than MAX_JSON_DEPTH or holds a string
 * (as a key or a value) with control characters other than tab and line breaks, or a lone
 * UTF-16 surrogate. Files in multipart bodies are left to their route.
 */
export function checkBody(value: unknown, path = '', depth = 0): void {
  if (typeof value === 'string') {
    if (BODY_CONTROL.test(value)) throw bad(INPUT_MESSAGES.control(path || 'Isi permintaan'), path || 'body')
    return
  }
  if (value === null || typeof value !== 'object' || value instanceof Blob) return
  if (depth >= MAX_JSON_DEPTH) throw bad(INPUT_MESSAGES.tooDeep)
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  for (const [key, item] of entries) {
    if (BODY_CONTROL.test(key)) throw bad(INPUT_MESSAGES.control('Nama field'), 'body')
    checkBody(item, path ? `${path}.${key}` : key, depth + 1)
  }
}

const DECIMAL = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/
const INTEGER = /^-?(?:0|[1-9]\d{0,14})$/

/**
 * Numbers in the query and path are plain decimals: Elysia's own coercion takes whatever `+value`
 * takes (`1e30`, `0x10`, ` 1`, `Infinity`, twenty digits), which turned a page number into an
 * offset PostgreSQL could not read. Fifteen digits keep every accepted value exact in a double.
 * Replaces the formats Elysia registers for its numeric query coercion (t.Number, t.Integer).
 */
export function installStrictNumberFormats(): void {
  FormatRegistry.Set('numeric', (value) => DECIMAL.test(value))
  FormatRegistry.Set('integer', (value) => INTEGER.test(value))
}
