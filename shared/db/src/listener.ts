// LISTEN on PostgreSQL that survives the database going away and coming back.
//
// postgres.js's own `listen()` re-issues LISTEN once when its connection closes and, if that one
// attempt fails (the database is still down, as it is right after a restart began), forgets the
// channel: notifications stop for good and `onlisten` never runs again. Here the channels are
// ours: after every close of the dedicated connection they are LISTENed again, retried until it
// works, and every subscriber's `onListen` runs once they all are (so the cache invalidation
// knows notifications may have been missed and re-checks).
import postgres from 'postgres'

const RETRY_MS = 250

interface Subscriber {
  onNotify: (payload: string) => void
  onListen?: () => void
}

interface Channel {
  subscribers: Set<Subscriber>
  /** The first LISTEN of this channel (later subscribers wait for it). */
  ready: Promise<unknown>
}

export interface Listener {
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>
  end(): Promise<void>
}

const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`

/**
 * A dedicated connection (never idle-closed) for LISTEN. `options` are the pool's connection
 * options (timeouts, reconnect backoff, connection parameters).
 */
export function createListener(url: string, options: postgres.Options<{}>): Listener {
  const channels = new Map<string, Channel>()
  let ended = false
  // the connection closed since the channels were last LISTENed
  let lost = false
  let restoring: Promise<void> | undefined

  const sql = postgres(url, {
    ...options,
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    // not in postgres.js's option types, but what its own listen() uses
    onnotify: (channel: string, payload: string) => {
      for (const subscriber of channels.get(channel)?.subscribers ?? []) subscriber.onNotify(payload)
    },
    onclose: () => {
      if (ended || channels.size === 0) return
      lost = true
      restore()
    },
  } as postgres.Options<{}>)

  function restore() {
    restoring ??= (async () => {
      while (lost && !ended && channels.size > 0) {
        lost = false
        try {
          for (const channel of [...channels.keys()]) await sql.unsafe(`listen ${quoted(channel)}`)
        } catch {
          // refused, reset or timed out: the database is not back yet
          lost = true
          await Bun.sleep(RETRY_MS)
          continue
        }
        if (lost) continue
        for (const { subscribers } of channels.values())
          for (const subscriber of subscribers) {
            try {
              subscriber.onListen?.()
            } catch {
              // a subscriber's failure is its own
            }
          }
      }
    })().finally(() => {
      restoring = undefined
      // closed again after the loop's last check (nothing to restore without channels: calling
      // restore() then would loop on microtasks for ever)
      if (lost && !ended && channels.size > 0) restore()
    })
  }

  return {
    async listen(name, onNotify, onListen) {
      const subscriber: Subscriber = { onNotify, onListen }
      let channel = channels.get(name)
      if (channel) {
        channel.subscribers.add(subscriber)
        await channel.ready
      } else {
        const subscribers = new Set([subscriber])
        const ready = sql.unsafe(`listen ${quoted(name)}`)
        channel = { subscribers, ready }
        channels.set(name, channel)
        try {
          await ready
        } catch (error) {
          if (channels.get(name) === channel) channels.delete(name)
          throw error
        }
      }
      onListen?.()
      const own = channel
      return async () => {
        own.subscribers.delete(subscriber)
        if (own.subscribers.size > 0 || channels.get(name) !== own) return
        channels.delete(name)
        await sql.unsafe(`unlisten ${quoted(name)}`)
      }
    },
    async end() {
      ended = true
      await sql.end({ timeout: 5 })
    },
  }
}
