import { access, constants, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { Logger } from '@app/kit'
import { contentTypeOfKey, isStoredKey } from './keys'
import { stagingDirectory } from './staging'
import { StorageUnavailableError, type Storage } from './types'

const MISSING = new Set(['ENOENT', 'ENOTDIR'])

/**
 * Files under one directory (`${DATA_DIR}/media` in the embedded default). The content type
 * follows from the key's extension, which the upload chose from the file's magic bytes. Uploads
 * stream into `<root>/.staging` (never a servable key) and are renamed into place, so a reader
 * never sees half a file.
 */
export function createDiskStorage(directory: string, logger?: Logger): Storage {
  const root = resolve(directory)

  function pathOf(key: string): string {
    if (!isStoredKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`)
    const path = resolve(join(root, key))
    // belt and braces: a valid key has no dots or escapes, so this always holds
    if (!path.startsWith(root + sep)) throw new Error(`storage key escapes the root: ${JSON.stringify(key)}`)
    return path
  }

  function unavailable(operation: string, error: unknown): never {
    logger?.warn('disk storage unavailable', { operation, error: String((error as any)?.message ?? error) })
    throw new StorageUnavailableError(error)
  }

  async function statKey(key: string) {
    if (!isStoredKey(key)) return null
    try {
      const info = await stat(pathOf(key))
      if (!info.isFile()) return null
      return { size: info.size, contentType: contentTypeOfKey(key) }
    } catch (error) {
      if (MISSING.has((error as any)?.code)) return null
      unavailable('stat', error)
    }
  }

  return {
    driver: 'disk',

    async put(key, source) {
      const path = pathOf(key)
      const temporary = `${path}.${Bun.randomUUIDv7()}.part`
      try {
        await mkdir(dirname(path), { recursive: true })
        if (source instanceof Uint8Array) {
          // written beside the target, then renamed
          await Bun.write(temporary, source)
          await rename(temporary, path)
        } else {
          // staged on the same file system: a rename; elsewhere: copied beside, then renamed
          await rename(source.path, path).catch(async (error) => {
            if ((error as any)?.code !== 'EXDEV') throw error
            await copyFile(source.path, temporary)
            await rename(temporary, path)
          })
        }
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => {})
        unavailable('put', error)
      }
    },

    stagingDirectory: stagingDirectory(join(root, '.staging')),

    stat: statKey,

    async get(key) {
      const info = await statKey(key)
      if (!info) return null
      return { body: Bun.file(pathOf(key)), ...info }
    },

    async ping() {
      try {
        await mkdir(root, { recursive: true })
        await access(root, constants.R_OK | constants.W_OK)
      } catch (error) {
        unavailable('ping', error)
      }
    },
  }
}
