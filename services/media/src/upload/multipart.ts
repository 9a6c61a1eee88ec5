// A streaming multipart/form-data reader for the upload: the bytes of the one file part go to
// a writer as they arrive, so a 24 MB upload is never held in memory (measured: four 24 MB
// uploads at once cost ~40 MB of RSS this way against ~200 MB when each body is buffered
// first; see README). Other parts are skipped. Everything is capped while it streams.

export class MultipartError extends Error {}

/** The body stream itself failed (the client or a proxy in between went away mid-upload). */
export class BodyReadError extends MultipartError {}

/** Where the file part's bytes go once its first bytes have been seen. */
export interface PartWriter {
  write(chunk: Uint8Array): Promise<void> | void
}

export interface FilePartOptions {
  /** Name of the part to keep, e.g. `file`. */
  field: string
  /** Whole body: above it the read stops with `onTooLarge()`. */
  maxBodyBytes: number
  /** The file part alone: above it the read stops with `onTooLarge()`. */
  maxFileBytes: number
  /** How many leading bytes `open` is shown (enough for the magic bytes). */
  headBytes: number
  /**
   * Called once per kept part, with its first `headBytes` bytes (fewer when the part is
   * shorter). Throw to refuse the file (then nothing more is read); return the writer otherwise.
   */
  open(head: Uint8Array): Promise<PartWriter> | PartWriter
  /** A second part named `field`. */
  onDuplicate(): Error
  onTooLarge(): Error
}

const CRLF_CRLF = Buffer.from('\r\n\r\n')
const MAX_PART_HEADER_BYTES = 8 * 1024
const MAX_PREAMBLE_BYTES = 64 * 1024
const MAX_PARTS = 50

/** The boundary of a `multipart/form-data` content type, or null when it is not one. */
export function boundaryOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null
  const [type, ...params] = contentType.split(';')
  if (type.trim().toLowerCase() !== 'multipart/form-data') return null
  for (const param of params) {
    const eq = param.indexOf('=')
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue
    let value = param.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    // RFC 2046: 1 to 70 characters from a restricted set, not ending in a space
    if (!/^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/.test(value) || value.endsWith(' ')) return null
    return value
  }
  return null
}

/** `name="x"; filename="y"` parameters of a Content-Disposition value (quoted or bare). */
export function dispositionParams(value: string): Record<string, string> {
  const out: Record<string, string> = {}
  const re = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const key = m[1].toLowerCase()
    if (key in out) continue
    out[key] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]
  }
  return out
}

function partName(headerBlock: string): string {
  let disposition: string | undefined
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon <= 0) throw new MultipartError('malformed part header')
    if (line.slice(0, colon).trim().toLowerCase() === 'content-disposition') disposition = line.slice(colon + 1).trim()
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw new MultipartError('part is not form-data')
  const name = dispositionParams(disposition).name
  if (name === undefined) throw new MultipartError('part without a name')
  return Buffer.from(name, 'latin1').toString('utf8')
}

type State = 'preamble' | 'delimiter' | 'headers' | 'body' | 'done'

/**
 * Reads `body` (RFC 7578) and streams the part named `options.field` to the writer `open`
 * returns. Resolves with the size of that part, or null when the body has no such part.
 * Throws MultipartError for a body without the multipart structure (no opening or closing
 * delimiter, a part without a form-data name), and the errors of `options` for the caps, a
 * duplicate, or a file `open` refuses; the body is not read any further after a throw.
 */
export async function streamFilePart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  options: FilePartOptions,
): Promise<{ size: number } | null> {
  const dashBoundary = Buffer.from(`--${boundary}`)
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  const reader = body.getReader()
  let buf: Buffer = Buffer.alloc(0)
  let state = 'preamble' as State
  let total = 0
  let parts = 0
  // the kept part
  let keeping = false
  let found = false
  let size = 0
  let head: Buffer | undefined
  let writer: PartWriter | undefined

  async function keep(data: Buffer): Promise<void> {
    if (data.length === 0) return
    size += data.length
    if (size > options.maxFileBytes) throw options.onTooLarge()
    if (writer) return void (await writer.write(data))
    head = head ? Buffer.concat([head, data]) : Buffer.from(data)
    if (head.length >= options.headBytes) await start()
  }

  async function start(): Promise<void> {
    const pending = head ?? Buffer.alloc(0)
    head = undefined
    writer = await options.open(pending.subarray(0, options.headBytes))
    if (pending.length) await writer.write(pending)
  }

  /** The kept part (or a skipped one) ends with `last`; the next delimiter has been found. */
  async function endPart(last: Buffer): Promise<void> {
    if (keeping) {
      await keep(last)
      if (!writer) await start()
      keeping = false
    }
    state = 'delimiter'
  }

  /**
   * A new chunk inside a part body, where `buf` holds only the short tail of the previous one:
   * a delimiter that starts in that tail is looked for in a small seam; otherwise the tail is
   * passed on and the chunk itself becomes `buf`, so body bytes are never copied.
   */
  async function bodyChunk(chunk: Buffer): Promise<void> {
    const tail = buf
    // a chunk shorter than a delimiter cannot settle whether the tail starts one: just append
    if (chunk.length < delimiter.length) {
      buf = tail.length ? Buffer.concat([tail, chunk]) : chunk
      return
    }
    if (tail.length) {
      const seam = Buffer.concat([tail, chunk.subarray(0, delimiter.length - 1)])
      const at = seam.indexOf(delimiter)
      if (at !== -1 && at < tail.length) {
        await endPart(tail.subarray(0, at))
        buf = chunk.subarray(at + delimiter.length - tail.length)
        return
      }
      if (keeping) await keep(tail)
    }
    buf = chunk
  }

  /** Consumes as much of `buf` as the current state can; false when more bytes are needed. */
  async function step(final: boolean): Promise<boolean> {
    switch (state) {
      case 'preamble': {
        // the first delimiter opens the body, or ends a preamble line
        if (buf.length < dashBoundary.length && !final) return false
        if (buf.subarray(0, dashBoundary.length).equals(dashBoundary)) {
          buf = buf.subarray(dashBoundary.length)
          state = 'delimiter'
          return true
        }
        const at = buf.indexOf(delimiter)
        if (at === -1) {
          if (buf.length > MAX_PREAMBLE_BYTES || final) throw new MultipartError('no opening boundary')
          return false
        }
        buf = buf.subarray(at + delimiter.length)
        state = 'delimiter'
        return true
      }
      case 'delimiter': {
        // after a delimiter: `--` closes the body, otherwise optional blanks then CRLF
        let i = 0
        while (buf[i] === 0x20 || buf[i] === 0x09) i++
        if (buf.length < i + 2) {
          if (final || buf.length > 256) throw new MultipartError('malformed boundary line')
          return false
        }
        if (i === 0 && buf[0] === 0x2d && buf[1] === 0x2d) {
          state = 'done'
          return false
        }
        if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) throw new MultipartError('malformed boundary line')
        buf = buf.subarray(i + 2)
        state = 'headers'
        return true
      }
      case 'headers': {
        const end = buf.indexOf(CRLF_CRLF)
        if (end === -1) {
          if (buf.length > MAX_PART_HEADER_BYTES || final) throw new MultipartError('malformed part headers')
          return false
        }
        if (end > MAX_PART_HEADER_BYTES) throw new MultipartError('malformed part headers')
        const name = partName(buf.toString('latin1', 0, end))
        if (++parts > MAX_PARTS) throw new MultipartError('too many parts')
        keeping = name === options.field
        if (keeping) {
          if (found) throw options.onDuplicate()
          found = true
        }
        buf = buf.subarray(end + CRLF_CRLF.length)
        state = 'body'
        return true
      }
      case 'body': {
        const at = buf.indexOf(delimiter)
        if (at !== -1) {
          await endPart(buf.subarray(0, at))
          buf = buf.subarray(at + delimiter.length)
          return true
        }
        if (final) throw new MultipartError('no closing boundary')
        // everything but a tail that could be the start of a delimiter split across chunks
        const safe = buf.length - (delimiter.length - 1)
        if (safe > 0) {
          if (keeping) await keep(buf.subarray(0, safe))
          buf = buf.subarray(safe)
        }
        return false
      }
      case 'done':
        return false
    }
  }

  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>
      try {
        next = await reader.read()
      } catch (error) {
        throw new BodyReadError(String((error as any)?.message ?? error))
      }
      const { done, value } = next
      if (done) {
        while (await step(true));
        if (state !== 'done') throw new MultipartError('no closing boundary')
        break
      }
      total += value.byteLength
      if (total > options.maxBodyBytes) throw options.onTooLarge()
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
      if (state === 'body') await bodyChunk(chunk)
      else buf = buf.length ? Buffer.concat([buf, chunk]) : chunk
      while (await step(false));
      // the closing delimiter has been seen: the epilogue is of no interest
      if (state === 'done') {
        await reader.cancel().catch(() => {})
        break
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => {})
    throw error
  }
  return found ? { size } : null
}
