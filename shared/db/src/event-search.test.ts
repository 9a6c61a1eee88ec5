// event_search (migration 0021) is what a public search reads: it must hold exactly the published
// events, with their current document, city, category and date, whatever wrote them.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from './testing'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** Rows of event_search that differ from what events says they should be (both directions). */
const drift = () =>
  database.rows<{ event_id: string }>(sql`
    (select id as event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type::text, is_free, strip(search_document) as lexemes from events where status = 'published'
     except
     select event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type, is_free, lexemes from event_search)
    union all
    (select event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type, is_free, lexemes from event_search
     except
     select id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type::text, is_free, strip(search_document) from events where status = 'published')`)

const copyOf = async (id: string) =>
  (
    await database.rows<{ lexemes: string; city_id: string | null }>(
      sql`select lexemes::text, city_id from event_search where event_id = ${id}`,
    )
  )[0]

test('the seeded catalogue: one row per published event, equal to its document', async () => {
  const [{ published, copied }] = await database.rows<{ published: number; copied: number }>(sql`
    select (select count(*)::int from events where status = 'published') as published,
           (select count(*)::int from event_search) as copied`)
  expect(published).toBeGreaterThan(10)
  expect(copied).toBe(published)
  expect(await drift()).toEqual([])
})

test('publish, edit, retag, move, rename, unpublish and delete keep the copy exact', async () => {
  const [event] = await database.rows<{ id: string; category_id: string }>(
    sql`select id, category_id from events where status = 'pending' order by id limit 1`,
  )
  expect(event).toBeDefined()
  expect(await copyOf(event.id)).toBeUndefined()

  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect(await copyOf(event.id)).toBeDefined()

  await database.db.execute(sql`update events set title = 'Zyxwvut Serenade' where id = ${event.id}`)
  expect((await copyOf(event.id)).lexemes).toContain("'zyxwvut'")

  // a tag link and a renamed city change the document through their own triggers (0016)
  const [tag] = await database.rows<{ id: string }>(sql`select id from tags order by id limit 1`)
  await database.db.execute(sql`update tags set name = 'Qwertyuiop' where id = ${tag.id}`)
  await database.db.execute(sql`insert into event_tags (event_id, tag_id) values (${event.id}, ${tag.id}) on conflict do nothing`)
  expect((await copyOf(event.id)).lexemes).toContain("'qwertyuiop'")

  const [city] = await database.rows<{ id: string }>(sql`select id from cities order by id desc limit 1`)
  await database.db.execute(sql`update events set city_id = ${city.id} where id = ${event.id}`)
  expect((await copyOf(event.id)).city_id).toBe(city.id)
  // the list filters the copy also holds (migration 0023)
  await database.db.execute(sql`update events set event_type = 'hybrid', is_free = not is_free where id = ${event.id}`)
  expect(await drift()).toEqual([])
  await database.db.execute(sql`update cities set name = 'Asdfghjkl' where id = ${city.id}`)
  expect((await copyOf(event.id)).lexemes).toContain("'asdfghjkl'")
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)
  expect(await copyOf(event.id)).toBeUndefined()

  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  await database.db.execute(sql`delete from events where id = ${event.id}`)
  expect(await copyOf(event.id)).toBeUndefined()
  expect(await drift()).toEqual([])
})

test('a bulk statement over many events keeps every row exact', async () => {
  await database.db.execute(sql`update events set status = 'pending' where status = 'published' and hashtext(id) % 3 = 0`)
  await database.db.execute(sql`update events set short_description = short_description || ' kuliner' where status = 'published'`)
  // the list orders' keys the copy carries
  await database.db.execute(
    sql`update events set start_date = start_date + 1, ticket_price_min = ticket_price_min + 1000 where hashtext(id) % 2 = 0`,
  )
  await database.db.execute(sql`update events set title = title || ' Baru' where hashtext(id) % 5 = 0`)
  expect(await drift()).toEqual([])
})
