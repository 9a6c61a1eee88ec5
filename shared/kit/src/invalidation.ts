// Exact cache invalidation across replicas without a database query per request.
//
// Every write bumps `data_versions` and NOTIFYs the new version at commit (migration 0005).
// A replica LISTENs, applies a notified version locally (its cached answers are dropped) and
// acknowledges it in `cache_replicas`. A writer, after its commit, waits until every live
// replica has acknowledged its version before it answers the client, so the next request to
// any replica sees the write.
//
// A replica answers from its cache without asking the database only while it *trusts* its
// listening connection: each heartbeat (every second) notifies the replica itself, and
// receiving that ping proves every earlier commit's notification has arrived (notifications
// come in commit order). Trust lasts TRUST_MS from when the ping was sent; without it the
// replica reads the version per request, as createVersionSource does. A writer waits at most
// TRUST_MS + a margin: a replica too slow to acknowledge has stopped trusting by then.
import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '@app/db'
import type { Logger } from './request-log'
import { createVersionSource, type VersionSource } from './response-cache'

const CHANNEL = 'data_version'
/** Each replica's acknowledgement is announced here, so writers wake at once instead of polling. */
const ACK_CHANNEL = 'data_version_ack'
const HEARTBEAT_MS = 1000
const TRUST_MS = 2000
// a replica whose last heartbeat is older than this is not waited for (its trust has lapsed)
const LIVE_SECONDS = 3
const WRITER_WAIT_MS = TRUST_MS + 500
/** How long a writer that knows its version waits for its acknowledgement before it looks anyway. */
const FIRST_ACK_WAIT_MS = 50

export interface ListeningVersionSource extends VersionSource {
  readonly id: string
  /** True while answers may come from the cache without reading the version. */
  trusted(): boolean
  close(): Promise<void>
}

export function createListeningVersionSource(
  database: Database,
  options: { service: string; logger?: Logger; heartbeatMs?: number; trustMs?: number },
): ListeningVersionSource {
  const id = `${options.service}-${Bun.randomUUIDv7()}`
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS
  const trustMs = options.trustMs ?? TRUST_MS
  const polling = createVersionSource(database)
  let version = -1
  let trustedUntil = 0
  let closed = false
  let unlisten: (() => Promise<void>) | undefined
  let timer: Timer | undefined
  let pingSeq = 0
  const pingsSent = new Map<number, number>()

  // the acknowledgement also wakes the writers waiting for it (awaitReplicas), in one round trip,
  // telling them how many other live replicas had not acknowledged that version yet: "<version>:0"
  // spares a writer its look at cache_replicas (a round trip that waits its turn under load)
  const ack = () =>
    database.rows(sql`
      with acked as (
        insert into cache_replicas (id, service, acked_version, seen_at) values (${id}, ${options.service}, ${version}, now())
        on conflict (id) do update set acked_version = greatest(cache_replicas.acked_version, excluded.acked_version), seen_at = now()
        returning acked_version)
      select pg_notify(${ACK_CHANNEL}, acked_version::text || ':' || (${behindOf(sql`acked.acked_version`, id)})) from acked`)

  const listeners: ((version: number, keys: string[] | null) => void)[] = []
  function apply(next: number, keys: string[] | null = null) {
    if (next <= version) return
    for (const listener of listeners) listener(next, keys)
    version = next
  }

  function onNotify(payload: string) {
    if (payload.startsWith('ping:')) {
      const [, replica, seq] = payload.split(':')
      if (replica !== id) return
      const sentAt = pingsSent.get(Number(seq))
      pingsSent.delete(Number(seq))
      if (sentAt !== undefined) trustedUntil = Math.max(trustedUntil, sentAt + trustMs)
      return
    }
    // "<version>" (anything may have changed) or {"v": <version>, "k": [<keys>]} (migration 0008)
    let next: number
    let keys: string[] | null = null
    if (payload.startsWith('{')) {
      try {
        const parsed = JSON.parse(payload) as { v: number; k?: string[] }
        next = Number(parsed.v)
        if (Array.isArray(parsed.k)) keys = parsed.k.map(String)
      } catch {
        return
      }
    } else next = Number(payload)
    if (!Number.isFinite(next) || next <= version) return
    apply(next, keys)
    ack().catch((error) => options.logger?.warn('cache ack failed', { error: String(error) }))
  }

  async function heartbeat() {
    const sentAt = performance.now()
    const seq = ++pingSeq
    pingsSent.set(seq, sentAt)
    // forget pings that never came back
    for (const [s] of pingsSent) if (s < seq - 10) pingsSent.delete(s)
    // while notifications are trusted they carry every version with its keys; reading the
    // version here would race them and drop the whole cache for a write already on its way
    const read = await polling.current(sentAt)
    if (performance.now() >= trustedUntil) apply(read)
    await ack()
    await database.rows(sql`select pg_notify(${CHANNEL}, ${`ping:${id}:${seq}`})`)
  }

  let starting: Promise<void> | undefined
  function start() {
    starting ??= (async () => {
      unlisten = await database.listen(CHANNEL, onNotify, () => {
        // (re)connected: notifications may have been missed, trust only after the next ping
        trustedUntil = 0
        void heartbeat().catch(() => {})
      })
      const tick = () => {
        if (closed) return
        heartbeat()
          .catch((error) => options.logger?.warn('cache heartbeat failed', { error: String(error) }))
          .finally(() => {
            if (!closed) timer = setTimeout(tick, heartbeatMs)
          })
      }
      tick()
    })().catch((error) => {
      starting = undefined
      options.logger?.warn('cache listener failed to start', { error: String(error) })
    })
    return starting
  }

  return {
    id,
    trusted: () => performance.now() < trustedUntil,
    onChange: (listener) => {
      listeners.push(listener)
    },
    async current(arrivedAt = performance.now()) {
      if (!closed) void start()
      if (performance.now() < trustedUntil) return version
      const read = await polling.current(arrivedAt)
      apply(read)
      return version
    },
    async close() {
      closed = true
      trustedUntil = 0
      clearTimeout(timer)
      await starting
      await unlisten?.().catch(() => {})
      await database.rows(sql`delete from cache_replicas where id = ${id}`).catch(() => {})
    },
  }
}

/** Live replicas (other than `except`) that have not acknowledged `version`. */
const behindOf = (version: SQL, except = '') => sql`
  select count(*)::int from cache_replicas
  where seen_at > now() - make_interval(secs => ${LIVE_SECONDS}) and acked_version < ${version} and id <> ${except}`

/**
 * Per database: resolves when a replica acknowledges (ACK_CHANNEL, whose payload is the version
 * and how many other live replicas were behind it) at least `version` (any version when not
 * given), or after `ms`: true when that acknowledgement says no other live replica was behind.
 * A waiting writer checks again when one arrives rather than after a timer, which under load
 * left it up to 50 ms behind an acknowledgement that had already come. Listened on the
 * database's one listening connection.
 */
const acknowledgements = new WeakMap<Database, Set<{ version: number; wake: (everyone: boolean) => void }>>()
function acknowledged(database: Database, version: number | undefined, ms: number): Promise<boolean> {
  let waiting = acknowledgements.get(database)
  if (!waiting) {
    const all = (waiting = new Set())
    const onAck = (payload?: string) => {
      // "<version>:<others behind>"; a bare version (a replica of an older build) says nothing of the others
      const [acked, behind] = (payload ?? '').split(':').map(Number)
      // a (re)connected listener may have missed some (no payload): waking is always safe
      for (const waiter of all)
        if (payload === undefined || !(acked < waiter.version)) waiter.wake(payload !== undefined && behind === 0)
    }
    void database.listen(ACK_CHANNEL, onAck, () => onAck()).catch(() => {})
    acknowledgements.set(database, waiting)
  }
  const { promise, resolve } = Promise.withResolvers<boolean>()
  const waiter = {
    version: version ?? Number.NEGATIVE_INFINITY,
    wake: (everyone: boolean) => {
      clearTimeout(timer)
      waiting.delete(waiter)
      resolve(everyone)
    },
  }
  const timer = setTimeout(() => waiter.wake(false), ms)
  waiting.add(waiter)
  return promise
}

/**
 * For writers, after their transaction committed: waits until every live cache replica has
 * acknowledged the current data version (normally a few milliseconds), at most ~2.5 s.
 * `committedVersion`: the version the writer's own transaction left (read inside it), which
 * spares the first round trip; the writer then waits for an acknowledgement of it first.
 */
export async function awaitReplicas(database: Database, logger?: Logger, committedVersion?: number): Promise<void> {
  let version: number
  let pause = 2
  if (committedVersion === undefined) {
    // the version and the first look at the acknowledgements in one round trip: under load every
    // round trip waits its turn, and the acknowledgements have often arrived already
    const [first] = await database.rows<{ version: string | number; behind: number }>(sql`
      select v.version, (${behindOf(sql`v.version`)}) as behind from data_versions v where v.scope = 'public'`)
    if (first.behind === 0) return
    version = Number(first.version)
  } else {
    // every round trip of a busy process waits for its event loop's turn (tens of ms under the
    // bench's mix): an acknowledgement of this very version first, then one look
    version = committedVersion
    pause = FIRST_ACK_WAIT_MS
  }
  const deadline = performance.now() + WRITER_WAIT_MS
  // acknowledgements normally arrive within a few ms; a replica that died keeps writers waiting
  // for the whole window, so the polling backs off rather than sending a query every 2 ms per
  // waiting writer (which, with a replica SIGKILLed under load, saturated the database); every
  // heartbeat's acknowledgement (one a second per replica) also wakes it
  for (;;) {
    // an acknowledgement wakes the writer, and when it was the last one missing that is all; the
    // timer (backing off) covers a missed notification
    if (await acknowledged(database, version, pause)) return
    pause = Math.min(pause * 2, 50)
    const [{ behind }] = await database.rows<{ behind: number }>(sql`select (${behindOf(sql`${version}`)}) as behind`)
    if (behind === 0) return
    if (performance.now() > deadline) {
      logger?.warn('cache replicas did not acknowledge a write in time', { behind, version })
      return
    }
  }
}
