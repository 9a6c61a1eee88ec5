// event_title_words (migration 0025) holds each word of each published title, for suggestions:
// after any write it must equal the words of the published titles, row for row.
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

/** Rows the table has and the titles do not, or the other way round. */
const drift = () =>
  database.rows<{ word: string; event_id: string; kept: boolean }>(sql`
    with expected as (
      select w as word, e.id as event_id from events e, unnest(title_words(e.title)) as w where e.status = 'published'
    )
    select coalesce(k.word, x.word) as word, coalesce(k.event_id, x.event_id) as event_id, k.word is not null as kept
    from event_title_words k full join expected x on x.word = k.word and x.event_id = k.event_id
    where k.word is null or x.word is null`)

const wordsOf = async (id: string) =>
  (await database.rows<{ word: string }>(sql`select word from event_title_words where event_id = ${id} order by word`)).map(
    (r) => r.word,
  )

test('words as suggestions compare them: unaccented, lower case, split at anything but letters and digits', async () => {
  const [row] = await database.rows<{ words: string[] }>(
    sql`select title_words('Pentas Café-Musik  MERDEKA 2026, merdeka!') as words`,
  )
  expect([...row.words].sort()).toEqual(['2026', 'cafe', 'merdeka', 'musik', 'pentas'])
})

test('the seeded catalogue: one row per word of every published title', async () => {
  const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from event_title_words`)
  expect(n).toBeGreaterThan(20)
  expect(await drift()).toEqual([])
})

test('publish, rename, unpublish, delete, bulk statements and a rollback keep it exact', async () => {
  const [event] = await database.rows<{ id: string }>(sql`select id from events where status = 'pending' order by id limit 1`)
  expect(event).toBeDefined()
  expect(await wordsOf(event.id)).toEqual([])

  await database.db.execute(
    sql`update events set status = 'published', title = 'Gelar Wayang Kulit Semalam' where id = ${event.id}`,
  )
  expect(await wordsOf(event.id)).toEqual(['gelar', 'kulit', 'semalam', 'wayang'])

  await database.db.execute(sql`update events set title = 'Gelar Keroncong Semalam' where id = ${event.id}`)
  expect(await wordsOf(event.id)).toEqual(['gelar', 'keroncong', 'semalam'])
  // an edit of anything else leaves it
  await database.db.execute(sql`update events set venue_name = 'Pendopo' where id = ${event.id}`)
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)
  expect(await wordsOf(event.id)).toEqual([])
  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect(await wordsOf(event.id)).toEqual(['gelar', 'keroncong', 'semalam'])

  // many rows in one statement, then a rolled-back one
  await database.db.execute(
    sql`update events set title = title || ' Edisi Khusus' where status = 'published' and id <= ${event.id}`,
  )
  expect(await drift()).toEqual([])
  await inRolledBackTransaction(database, (tx) => tx.execute(sql`update events set title = 'Batal' where status = 'published'`))
  expect(await drift()).toEqual([])

  await database.db.execute(sql`delete from events where id = ${event.id}`)
  expect(await wordsOf(event.id)).toEqual([])
  expect(await drift()).toEqual([])
})
