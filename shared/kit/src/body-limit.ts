import { HttpError, MESSAGES } from './errors'

/**
 * Reads a request body as text, refusing it with 413 as soon as it passes `maxBytes`
 * (by Content-Length up front, or while streaming when the length is not declared).
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) throw new HttpError(413, MESSAGES.tooLarge)
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw new HttpError(413, MESSAGES.tooLarge)
    }
    chunks.push(value)
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    throw new HttpError(400, 'Isi permintaan bukan teks UTF-8 yang valid')
  }
}

/** JSON body with a size cap: 413 above it, 400 when it is not JSON. */
export async function readJsonLimited(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyLimited(request, maxBytes)
  // an empty body is no body (clients that send Content-Type: application/json on every POST,
  // e.g. approve): null, because undefined would hand the consumed body to Elysia's own parser;
  // a route that requires a body still answers 400 through validation
  if (!text.trim()) return null
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, MESSAGES.malformedJson)
  }
}
