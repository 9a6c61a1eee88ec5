// event_tag_order (migration 0026) holds one row per tag of each published event with the keys of
// every list order: after any write it must equal what events and event_tags say, row for row.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, inRolledBackTransaction, type TestDatabase } from './testing'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** Rows that differ between the table and a read of events and event_tags. */
const drift = () =>
  database.rows<{ tag_id: string; event_id: string; kept: boolean }>(sql`
    with expected as (
      select et.tag_id, e.id as event_id, e.created_at, e.start_date, e.ticket_price_min, e.title, e.end_date
      from event_tags et join events e on e.id = et.event_id where e.status = 'published'
    ), differ as (
      (select *, true as kept from event_tag_order except select *, true from expected)
      union all
      (select *, false from expected except select *, false from event_tag_order)
    )
    select tag_id, event_id, kept from differ`)

const rowsOf = (id: string) =>
  database.rows<{ tag_id: string; title: string }>(
    sql`select tag_id, title from event_tag_order where event_id = ${id} order by tag_id`,
  )

test('the seeded catalogue: one row per tag of every published event', async () => {
  const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from event_tag_order`)
  expect(n).toBeGreaterThan(10)
  expect(await drift()).toEqual([])
})

test('publish, retitle, re-date, reprice, tag links, unpublish, delete, bulk statements and a rollback keep it exact', async () => {
  const [event] = await database.rows<{ id: string }>(sql`select id from events where status = 'pending' order by id limit 1`)
  const tags = await database.rows<{ id: string }>(sql`select id from tags order by id limit 3`)
  expect(event).toBeDefined()
  expect(tags.length).toBe(3)
  await database.db.execute(sql`delete from event_tags where event_id = ${event.id}`)
  await database.db.execute(
    sql`insert into event_tags (event_id, tag_id) values (${event.id}, ${tags[0].id}), (${event.id}, ${tags[1].id})`,
  )
  // pending: nothing
  expect(await rowsOf(event.id)).toEqual([])

  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect((await rowsOf(event.id)).map((r) => r.tag_id)).toEqual([tags[0].id, tags[1].id].sort())

  await database.db.execute(
    sql`update events set title = 'Judul Baru', start_date = start_date + 1, ticket_price_min = 12345 where id = ${event.id}`,
  )
  expect((await rowsOf(event.id)).map((r) => r.title)).toEqual(['Judul Baru', 'Judul Baru'])
  expect(await drift()).toEqual([])
  // the end date alone (the order of the tag's related-events branch, migration 0030)
  await database.db.execute(sql`update events set end_date = end_date + 3 where id = ${event.id}`)
  expect(await drift()).toEqual([])

  // links: one added, one removed, one moved to another tag
  await database.db.execute(sql`insert into event_tags (event_id, tag_id) values (${event.id}, ${tags[2].id})`)
  await database.db.execute(sql`delete from event_tags where event_id = ${event.id} and tag_id = ${tags[0].id}`)
  await database.db.execute(
    sql`update event_tags set tag_id = ${tags[0].id} where event_id = ${event.id} and tag_id = ${tags[1].id}`,
  )
  expect((await rowsOf(event.id)).map((r) => r.tag_id)).toEqual([tags[0].id, tags[2].id].sort())
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)
  expect(await rowsOf(event.id)).toEqual([])
  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect((await rowsOf(event.id)).length).toBe(2)

  // many rows in one statement, then a rolled-back one
  await database.db.execute(sql`update events set created_at = created_at - interval '1 day' where status = 'published'`)
  expect(await drift()).toEqual([])
  await inRolledBackTransaction(database, (tx) => tx.execute(sql`update events set status = 'draft' where status = 'published'`))
  expect(await drift()).toEqual([])

  // a deleted event takes its links, and its rows, along
  await database.db.execute(sql`delete from events where id = ${event.id}`)
  expect(await rowsOf(event.id)).toEqual([])
  expect(await drift()).toEqual([])
})
