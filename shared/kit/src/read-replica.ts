// Public reads on a streaming replica (DATABASE_READ_URL), without ever answering older data than
// the writes whose answers a client already has.
//
// Every public write bumps `data_versions` in its own transaction and NOTIFYs the new version on
// the primary; a writer answers only after every cache replica has applied that version
// (invalidation.ts). So when a write's answer has arrived, this process's version source already
// knows its version. The replica holds the write's rows exactly when its own `data_versions` row
// has reached that version (same transaction, replayed atomically). A read therefore goes to the
// replica only while the replica is known to have replayed the newest version this process has
// seen; otherwise (the few milliseconds of replay after each write, or a replica that lags or is
// down) it goes to the primary, while a single poll watches the replica catch up.
//
// The choice is made when a query is built (`database.db` / `rows`), synchronously: the version
// arrives (onChange, in the notification handler) before the writer's answer can, and a cached
// answer computed meanwhile is not stored (the cache's own version check), so no entry keyed by a
// version is computed from replica data older than it.
import { sql } from 'drizzle-orm'
import type { Database } from '@app/db'
import type { Logger } from './request-log'
import type { VersionSource } from './response-cache'

export interface ReadDatabase extends Database {
  /** Reads sent to the replica and to the primary (the replica was behind) so far. */
  routed(): { replica: number; primary: number }
}

export interface ReadReplicaOptions {
  /** How often the replica's version is read while it is behind. */
  pollMs?: number
  logger?: Logger
}

/**
 * A Database for public reads: the replica while it has replayed every version `versions` has
 * seen, the primary otherwise. `versions` must report changes (`onChange`: the listening source).
 * Closing it closes the replica only.
 */
export function createReadDatabase(
  primary: Database,
  replica: Database,
  versions: VersionSource,
  options: ReadReplicaOptions = {},
): ReadDatabase {
  if (!versions.onChange) throw new Error('createReadDatabase needs a version source that reports changes')
  const pollMs = options.pollMs ?? 5
  // -1: nothing known yet, reads go to the primary until the replica proves it is current
  let known = -1
  let replayed = -1
  let polling: Promise<void> | undefined
  let closed = false
  const routed = { replica: 0, primary: 0 }

  const readReplicaVersion = async () => {
    const [row] = await replica.rows<{ version: string | number }>(sql`select version from data_versions where scope = 'public'`)
    replayed = Math.max(replayed, Number(row?.version ?? -1))
  }

  function watch() {
    polling ??= (async () => {
      try {
        while (!closed && replayed < known) {
          const failed = await readReplicaVersion().then(
            () => false,
            (error) => {
              options.logger?.warn('read replica unavailable', { error: String(error) })
              return true
            },
          )
          // a replica that is down is asked again each second; reads stay on the primary
          if (replayed < known) await Bun.sleep(failed ? 1000 : pollMs)
        }
      } finally {
        polling = undefined
      }
    })()
  }

  versions.onChange((version) => {
    if (version > known) known = version
    if (replayed < known) watch()
  })

  const current = () => {
    if (known >= 0 && replayed >= known) {
      routed.replica++
      return replica
    }
    routed.primary++
    if (known < 0) void versions.current().catch(() => {})
    watch()
    return primary
  }

  return {
    kind: replica.kind,
    url: replica.url,
    get db() {
      return current().db
    },
    rows: (query) => current().rows(query),
    ping: () => replica.ping(),
    listen: () => {
      throw new Error('LISTEN belongs on the primary')
    },
    pool: () => replica.pool(),
    routed: () => ({ ...routed }),
    async close() {
      closed = true
      await polling
      await replica.close()
    },
  }
}
