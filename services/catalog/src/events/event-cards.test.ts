// event_cards (migration 0032) holds the list card of each published event, written by SQL of its
// own: after any write it must equal the card the service writes from CARD_FIELDS, row for row.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql, type SQL } from 'drizzle-orm'
import { createTestDatabase, inRolledBackTransaction, type TestDatabase } from '@app/db/testing'
import { CARD_FIELDS, jsonOf } from './cards'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** Cards that differ from the service's own (kept: a row the table has that it should not). */
const drift = () =>
  database.rows<{ event_id: string; kept: boolean }>(sql`
    with expected as (
      select "events"."id" as event_id, ${jsonOf(CARD_FIELDS)} as card
      from events inner join categories on categories.id = events.category_id
      left join cities on cities.id = events.city_id
      where events.status = 'published'
    ), differ as (
      (select event_id, card, true as kept from event_cards except select event_id, card, true from expected)
      union all
      (select event_id, card, false from expected except select event_id, card, false from event_cards)
    )
    select event_id, kept from differ`)

const cardOf = async (id: string) =>
  (await database.rows<{ card: string }>(sql`select card from event_cards where event_id = ${id}`))[0]?.card

test('the seeded catalogue: the card of every published event, as the service writes it', async () => {
  const [{ n, published }] = await database.rows<{ n: number; published: number }>(
    sql`select (select count(*)::int from event_cards) as n, (select count(*)::int from events where status = 'published') as published`,
  )
  expect(n).toBeGreaterThan(10)
  expect(n).toBe(published)
  expect(await drift()).toEqual([])
})

test('publish, edit, rename a category and a city, unpublish, delete, bulk statements and a rollback keep it exact', async () => {
  const [event] = await database.rows<{ id: string; category_id: string; city_id: string }>(
    sql`select id, category_id, city_id from events where status = 'pending' and city_id is not null order by id limit 1`,
  )
  expect(event).toBeDefined()
  expect(await cardOf(event.id)).toBeUndefined()

  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect(JSON.parse((await cardOf(event.id))!).id).toBe(event.id)

  // each field of the card alone (a column the trigger did not watch would leave the card stale),
  // then one the card does not show
  const edits: [column: string, edit: SQL][] = [
    ['title', sql`title = 'Judul "Baru" \\ ß'`],
    ['slug', sql`slug = slug || '-baru'`],
    ['short_description', sql`short_description = 'Ringkas'`],
    ['poster_url', sql`poster_url = '/media/uploads/baru.webp'`],
    ['start_date', sql`start_date = start_date - 1`],
    ['end_date', sql`end_date = end_date + 1`],
    ['start_time', sql`start_time = '07:30'`],
    ['event_type', sql`event_type = 'hybrid'`],
    ['venue_name', sql`venue_name = 'Gedung'`],
    ['ticket_price_max', sql`ticket_price_max = ticket_price_max + 5000`],
    ['ticket_price_min', sql`ticket_price_min = ticket_price_min + 1000`],
    ['is_free', sql`is_free = not is_free`],
    ['organizer_name', sql`organizer_name = 'Panitia'`],
    ['category_id', sql`category_id = (select id from categories where id <> ${event.category_id} order by id limit 1)`],
    ['description', sql`description = 'Hanya di halaman detail'`],
  ]
  for (const [column, edit] of edits) {
    await database.db.execute(sql`update events set ${edit} where id = ${event.id}`)
    expect({ column, drift: await drift() }).toEqual({ column, drift: [] })
  }
  expect(JSON.parse((await cardOf(event.id))!)).toMatchObject({
    title: 'Judul "Baru" \\ ß',
    start_time: '07:30',
    event_type: 'hybrid',
  })
  const [{ category_id }] = await database.rows<{ category_id: string }>(
    sql`select category_id from events where id = ${event.id}`,
  )

  // a category and a city renamed: the cards of their events
  await database.db.execute(sql`update categories set name = 'Kategori Baru' where id = ${category_id}`)
  await database.db.execute(sql`update cities set name = 'Kota Baru', slug = 'kota-baru' where id = ${event.city_id}`)
  expect(JSON.parse((await cardOf(event.id))!)).toMatchObject({ category_name: 'Kategori Baru', city_slug: 'kota-baru' })
  expect(await drift()).toEqual([])
  // moved to no city (an online event)
  await database.db.execute(sql`update events set city_id = null where id = ${event.id}`)
  expect(JSON.parse((await cardOf(event.id))!).city_name).toBeNull()
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)
  expect(await cardOf(event.id)).toBeUndefined()
  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect(await cardOf(event.id)).toBeDefined()

  // many rows in one statement, then a rolled-back one
  await database.db.execute(sql`update events set start_date = start_date + 1 where status = 'published'`)
  expect(await drift()).toEqual([])
  await inRolledBackTransaction(database, (tx) => tx.execute(sql`update events set status = 'draft' where status = 'published'`))
  expect(await drift()).toEqual([])

  await database.db.execute(sql`delete from events where id = ${event.id}`)
  expect(await cardOf(event.id)).toBeUndefined()
  expect(await drift()).toEqual([])
})
