import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

const STALE_MS = 60 * 60 * 1000

/**
 * A staging directory made on first use; files a crashed process left there more than an hour
 * ago are removed then.
 */
export function stagingDirectory(directory: string): () => Promise<string> {
  let ready: Promise<string> | undefined
  return () =>
    (ready ??= (async () => {
      await mkdir(directory, { recursive: true })
      const now = Date.now()
      for (const name of await readdir(directory).catch(() => [] as string[])) {
        const path = join(directory, name)
        const info = await stat(path).catch(() => undefined)
        if (info && now - info.mtimeMs > STALE_MS) await rm(path, { force: true, recursive: true }).catch(() => {})
      }
      return directory
    })().catch((error) => {
      ready = undefined
      throw error
    }))
}
