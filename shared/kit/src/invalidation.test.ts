import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { awaitReplicas, createListeningVersionSource, type ListeningVersionSource } from './invalidation'

let database: TestDatabase
const dialect = new PgDialect()
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** The database, counting the queries a version source sends through it. */
function counted() {
  const counter = { n: 0 }
  const wrapped = {
    ...database,
    rows: async <T>(query: any) => {
      counter.n++
      return database.rows<T>(query)
    },
  }
  return { db: wrapped, counter }
}

async function untilTrusted(source: ListeningVersionSource) {
  const deadline = Date.now() + 10_000
  await source.current()
  while (!source.trusted()) {
    if (Date.now() > deadline) throw new Error('never trusted')
    await Bun.sleep(20)
  }
}

const dbVersion = async () =>
  Number((await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`))[0].version)

describe('listening version source', () => {
  test('while trusted, answers without a query; a write acknowledged by every replica is seen by all at once', async () => {
    const a = counted()
    const b = counted()
    const replicaA = createListeningVersionSource(a.db, { service: 'test-a' })
    const replicaB = createListeningVersionSource(b.db, { service: 'test-b' })
    try {
      await Promise.all([untilTrusted(replicaA), untilTrusted(replicaB)])
      const before = await dbVersion()
      expect(await replicaA.current()).toBe(before)
      const queries = a.counter.n
      for (let i = 0; i < 50; i++) await replicaA.current()
      expect(a.counter.n).toBe(queries)

      // a writer: commit, then wait for every live replica
      await database.rows(sql`update settings set value = value || '.' where key = 'site_tagline'`)
      const started = performance.now()
      await awaitReplicas(database)
      expect(performance.now() - started).toBeLessThan(1000)
      const after = await dbVersion()
      expect(after).toBeGreaterThan(before)
      // the very next request on either replica, without asking the database
      const [qa, qb] = [a.counter.n, b.counter.n]
      expect(await replicaA.current()).toBe(after)
      expect(await replicaB.current()).toBe(after)
      expect(a.counter.n - qa + (b.counter.n - qb)).toBeLessThanOrEqual(2)
    } finally {
      await replicaA.close()
      await replicaB.close()
    }
    const [{ n }] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from cache_replicas where service like 'test-%'`,
    )
    expect(n).toBe(0)
  }, 30_000)

  test("a replica's acknowledgement is announced, so a waiting writer wakes without polling", async () => {
    const replica = createListeningVersionSource(database, { service: 'test-ack' })
    const announced: number[] = []
    const unlisten = await database.listen('data_version_ack', (payload) => void announced.push(Number(payload.split(':')[0])))
    try {
      await untilTrusted(replica)
      await database.rows(sql`update settings set value = value || '.' where key = 'site_tagline'`)
      const version = await dbVersion()
      await awaitReplicas(database)
      const deadline = Date.now() + 5000
      while (!announced.some((v) => v >= version) && Date.now() < deadline) await Bun.sleep(10)
      expect(announced.some((v) => v >= version)).toBe(true)
    } finally {
      await unlisten()
      await replica.close()
    }
  }, 30_000)

  test('a writer that read its own version waits for its acknowledgement, and looks only while others are behind', async () => {
    const replica = createListeningVersionSource(database, { service: 'test-known' })
    const sent: string[] = []
    const writer = { ...database, rows: <T>(query: SQL) => (sent.push(dialect.sqlToQuery(query).sql), database.rows<T>(query)) }
    try {
      await untilTrusted(replica)
      // the writer listens for acknowledgements from its first wait on
      await awaitReplicas(writer, undefined, await dbVersion())
      sent.length = 0
      // waiting for the write's version already as it commits (a writer that read it in its
      // transaction waits right after its commit, before a replica can have acknowledged it)
      const version = (await dbVersion()) + 1
      const started = performance.now()
      const waited = awaitReplicas(writer, undefined, version)
      await database.rows(sql`update settings set value = value || '.' where key = 'site_tagline'`)
      expect(await dbVersion()).toBe(version)
      await waited
      expect(performance.now() - started).toBeLessThan(1000)
      // the only live replica's acknowledgement said no other was behind: no query at all
      expect(sent).toEqual([])
      const [{ acked }] = await database.rows<{ acked: number }>(
        sql`select acked_version::int as acked from cache_replicas where id = ${replica.id}`,
      )
      expect(acked).toBeGreaterThanOrEqual(version)

      // another live replica that does not acknowledge: the same acknowledgement says one is
      // behind, so the writer looks (never the version itself) and waits for it, bounded
      await database.rows(sql`insert into cache_replicas (id, service, acked_version, seen_at) values ('mute', 'test', 0, now())`)
      await database.rows(sql`update settings set value = value || '.' where key = 'site_tagline'`)
      const next = await dbVersion()
      const muted = performance.now()
      await awaitReplicas(writer, undefined, next)
      expect(performance.now() - muted).toBeGreaterThan(2000)
      expect(sent.length).toBeGreaterThan(0)
      expect(sent.filter((text) => text.includes('data_versions'))).toEqual([])
      await database.rows(sql`delete from cache_replicas where id = 'mute'`)
      sent.length = 0

      // a version no replica acknowledges yet (a write still on its way): the writer keeps waiting
      // for it, bounded, instead of answering at once
      const ahead = performance.now()
      await awaitReplicas(writer, undefined, version + 1_000)
      expect(performance.now() - ahead).toBeGreaterThan(2000)
    } finally {
      await replica.close()
    }
  }, 30_000)

  test('before its listener is proven, a replica reads the version per request', async () => {
    const c = counted()
    const replica = createListeningVersionSource(c.db, { service: 'test-c', heartbeatMs: 60_000 })
    try {
      await database.rows(sql`update settings set value = value || '.' where key = 'site_tagline'`)
      expect(await replica.current()).toBe(await dbVersion())
    } finally {
      await replica.close()
    }
  })
})

describe('awaitReplicas', () => {
  test('ignores replicas not seen for seconds, waits a bounded time for a live one that does not acknowledge', async () => {
    await database.rows(
      sql`insert into cache_replicas (id, service, acked_version, seen_at) values ('gone', 'test', 0, now() - interval '1 minute')`,
    )
    let started = performance.now()
    await awaitReplicas(database)
    expect(performance.now() - started).toBeLessThan(500)

    await database.rows(sql`insert into cache_replicas (id, service, acked_version, seen_at) values ('stuck', 'test', 0, now())`)
    started = performance.now()
    await awaitReplicas(database)
    const waited = performance.now() - started
    // longer than a replica's trust lasts, so a stuck one can no longer answer from its cache
    expect(waited).toBeGreaterThan(2000)
    expect(waited).toBeLessThan(4000)
    await database.rows(sql`delete from cache_replicas where service = 'test'`)
  }, 30_000)
})
