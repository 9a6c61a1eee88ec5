import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { FileSink } from 'bun'
import { HttpError } from '@app/kit'
import { IMAGE_TYPES, newKey, StorageUnavailableError, type ImageExtension, type Storage } from '../storage'
import { urlOfKey } from '../media-url'
import { BodyReadError, boundaryOf, MultipartError, streamFilePart } from './multipart'

/** The contract's 24 MB, in bytes. */
export const MAX_UPLOAD_BYTES = 24 * 1024 * 1024
/** Room for the multipart framing around the file (boundaries, part headers, small fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES
/** Enough leading bytes to tell PNG, JPEG and WEBP apart. */
const MAGIC_BYTES = 16
/** Staged bytes are flushed to the file at least this often, so a slow disk cannot pile them up. */
const FLUSH_BYTES = 1024 * 1024

export const UPLOAD_MESSAGES = {
  missing: 'File wajib diunggah',
  empty: 'File yang diunggah kosong',
  unsupported: 'Format file tidak didukung. Gunakan PNG, JPG, JPEG, atau WEBP',
  tooLarge: 'Ukuran file melebihi batas 24 MB',
  malformed: 'Data multipart/form-data tidak valid',
  oneFile: 'Kirim satu file saja pada bagian file',
  interrupted: 'Unggahan terputus sebelum selesai',
} as const

const tooLarge = () => new HttpError(413, UPLOAD_MESSAGES.tooLarge)

/** The image type by the file's first bytes (its name and declared type are not trusted). */
export function detectImageType(bytes: Uint8Array): ImageExtension | null {
  const at = (offset: number, ascii: string) =>
    bytes.byteLength >= offset + ascii.length && [...ascii].every((c, i) => bytes[offset + i] === c.charCodeAt(0))
  if (bytes.byteLength >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png'
  if (bytes.byteLength >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg'
  if (at(0, 'RIFF') && at(8, 'WEBP') && (at(12, 'VP8 ') || at(12, 'VP8L') || at(12, 'VP8X'))) return 'webp'
  return null
}

/** Writes a staged upload through a FileSink; a file-system failure is storage being unavailable (503). */
function stagedWriter(path: string) {
  let sink: FileSink | undefined
  let unflushed = 0
  const failed = (error: unknown) => new StorageUnavailableError(error)
  return {
    async write(chunk: Uint8Array) {
      try {
        sink ??= Bun.file(path).writer({ highWaterMark: FLUSH_BYTES })
        sink.write(chunk)
        unflushed += chunk.byteLength
        if (unflushed >= FLUSH_BYTES) {
          unflushed = 0
          await sink.flush()
        }
      } catch (error) {
        throw failed(error)
      }
    },
    async close() {
      try {
        await sink?.end()
        sink = undefined
      } catch (error) {
        throw failed(error)
      }
    },
    /** Ends the sink after a failure, quietly. */
    async abandon() {
      await Promise.resolve(sink?.end()).catch(() => {})
      sink = undefined
    },
  }
}

/**
 * Reads, checks and stores one upload; returns its public URL. The body is streamed: the file
 * part goes to a staging file as it arrives (its type is decided from its first bytes, before
 * anything is written), then storage takes the staged file. Caps: Content-Length before a byte
 * is read, then the body and the file while streaming (413); the caller applies the rate limit
 * before calling this.
 */
export async function storeUpload(
  request: Request,
  deps: { storage: Storage; publicMediaUrl: string },
  now = new Date(),
): Promise<string> {
  const contentType = request.headers.get('content-type')
  const boundary = boundaryOf(contentType)
  // not multipart at all: nothing worth reading
  if (!boundary || !request.body) throw new HttpError(400, UPLOAD_MESSAGES.missing)
  const length = request.headers.get('content-length')
  if (length !== null && /^\d+$/.test(length) && Number(length) > MAX_UPLOAD_BODY_BYTES) throw tooLarge()

  let directory: string
  try {
    directory = await deps.storage.stagingDirectory()
  } catch (error) {
    throw new StorageUnavailableError(error)
  }
  const staged = join(directory, `${Bun.randomUUIDv7()}.part`)
  const writer = stagedWriter(staged)
  let extension: ImageExtension | null = null
  try {
    let file: { size: number } | null
    try {
      file = await streamFilePart(request.body, boundary, {
        field: 'file',
        maxBodyBytes: MAX_UPLOAD_BODY_BYTES,
        maxFileBytes: MAX_UPLOAD_BYTES,
        headBytes: MAGIC_BYTES,
        open(head) {
          if (head.byteLength === 0) throw new HttpError(400, UPLOAD_MESSAGES.empty)
          extension = detectImageType(head)
          if (!extension) throw new HttpError(400, UPLOAD_MESSAGES.unsupported)
          return writer
        },
        onDuplicate: () => new HttpError(400, UPLOAD_MESSAGES.oneFile),
        onTooLarge: tooLarge,
      })
    } catch (error) {
      if (error instanceof BodyReadError) throw new HttpError(400, UPLOAD_MESSAGES.interrupted)
      if (error instanceof MultipartError) throw new HttpError(400, UPLOAD_MESSAGES.malformed)
      throw error
    }
    if (!file || !extension) throw new HttpError(400, UPLOAD_MESSAGES.missing)
    await writer.close()
    const key = newKey(extension, now)
    await deps.storage.put(key, { path: staged }, { contentType: IMAGE_TYPES[extension], size: file.size })
    return urlOfKey(deps.publicMediaUrl, key)
  } finally {
    await writer.abandon()
    // gone already when the disk driver renamed it into place
    await rm(staged, { force: true }).catch(() => {})
  }
}
