import type { Storage } from '../storage'
import { keyOfUrl } from '../media-url'

/**
 * Whether a file URL from an upload resolves. The URL is never fetched: it is mapped back to a
 * storage key (400 for anything outside PUBLIC_MEDIA_URL) and the key is looked up.
 */
export async function checkFile(url: string, deps: { storage: Storage; publicMediaUrl: string }) {
  const key = keyOfUrl(deps.publicMediaUrl, url)
  const found = await deps.storage.stat(key)
  return {
    url,
    exists: found !== null,
    status: found ? (200 as const) : (404 as const),
    timestamp: new Date().toISOString(),
  }
}
