// event_counts (migration 0022) holds the totals of lists filtered by category, city, format and
// price: after any write it must equal a count of the published events, cell by cell.
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

/** Cells whose kept count differs from a count of the events (zero cells may stay). */
const drift = () =>
  database.rows<{
    category_id: string
    city_id: string
    event_type: string
    is_free: boolean
    kept: number
    counted: number
  }>(sql`
    with counted as (
      select category_id, coalesce(city_id, '') as city_id, event_type::text as event_type, is_free, count(*)::int as n
      from events where status = 'published' group by 1, 2, 3, 4
    )
    select coalesce(k.category_id, c.category_id) as category_id, coalesce(k.city_id, c.city_id) as city_id,
           coalesce(k.event_type, c.event_type) as event_type, coalesce(k.is_free, c.is_free) as is_free,
           coalesce(k.n, 0) as kept, coalesce(c.n, 0) as counted
    from event_counts k full join counted c using (category_id, city_id, event_type, is_free)
    where coalesce(k.n, 0) <> coalesce(c.n, 0)`)

const total = async () => (await database.rows<{ n: number }>(sql`select coalesce(sum(n), 0)::int as n from event_counts`))[0].n

test('the seeded catalogue: every cell equals a count of its published events', async () => {
  expect(await total()).toBeGreaterThan(10)
  expect(await drift()).toEqual([])
})

test('publish, move, reformat, reprice, unpublish and delete keep every cell exact', async () => {
  const [event] = await database.rows<{ id: string }>(sql`select id from events where status = 'pending' order by id limit 1`)
  expect(event).toBeDefined()
  const before = await total()

  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect(await total()).toBe(before + 1)
  expect(await drift()).toEqual([])

  const [city] = await database.rows<{ id: string }>(sql`select id from cities order by id desc limit 1`)
  const [category] = await database.rows<{ id: string }>(sql`select id from categories order by id desc limit 1`)
  await database.db.execute(sql`update events set city_id = ${city.id}, category_id = ${category.id} where id = ${event.id}`)
  await database.db.execute(sql`update events set event_type = 'online', city_id = null where id = ${event.id}`)
  await database.db.execute(sql`update events set is_free = not is_free where id = ${event.id}`)
  // an edit of something else changes no cell
  await database.db.execute(sql`update events set title = title || ' (diperbarui)' where id = ${event.id}`)
  expect(await total()).toBe(before + 1)
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)
  expect(await total()).toBe(before)
  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  await database.db.execute(sql`delete from events where id = ${event.id}`)
  expect(await total()).toBe(before)
  expect(await drift()).toEqual([])
})

test('bulk statements and a rolled-back transaction keep every cell exact', async () => {
  await database.db.execute(sql`update events set status = 'pending' where status = 'published' and hashtext(id) % 3 = 0`)
  await database.db.execute(sql`update events set is_free = not is_free where hashtext(id) % 2 = 0`)
  expect(await drift()).toEqual([])
  const before = await total()
  await database.db
    .transaction(async (tx) => {
      await tx.execute(sql`update events set status = 'published' where status = 'pending'`)
      throw new Error('rolled back')
    })
    .catch(() => {})
  expect(await total()).toBe(before)
  expect(await drift()).toEqual([])
})

test('a new event inserted published counts at once; a truncate empties the counts', async () => {
  const [ref] = await database.rows<{ category_id: string; city_id: string }>(
    sql`select category_id, city_id from events where city_id is not null limit 1`,
  )
  const before = await total()
  await database.db.execute(sql`
    insert into events (id, title, slug, start_date, end_date, event_type, city_id, category_id, organizer_name, status)
    values ('counts-test-1', 'Hitung Satu', 'hitung-satu', current_date, current_date, 'offline', ${ref.city_id}, ${ref.category_id}, 'Penguji', 'published'),
           ('counts-test-2', 'Hitung Dua', 'hitung-dua', current_date, current_date, 'hybrid', ${ref.city_id}, ${ref.category_id}, 'Penguji', 'draft')`)
  expect(await total()).toBe(before + 1)
  expect(await drift()).toEqual([])
  await database.db.execute(sql`truncate events cascade`)
  expect(await total()).toBe(0)
  expect(await drift()).toEqual([])
})
