// search_lexemes (migration 0027) holds the lexemes of the search copy with how many rows hold each:
// after any write it must equal what the copy holds. A search's prefixes are rewritten into those
// lexemes (wordTerms), which must match exactly the events the prefixes match.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { eventSearchQuery } from './search'
import { createTestDatabase, inRolledBackTransaction, type TestDatabase } from './testing'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** Lexemes whose count differs from the copy's, both directions. */
const drift = () =>
  database.rows<{ lexeme: string; kept: number | null; expected: number | null }>(sql`
    with expected as (
      select l as lexeme, count(*)::int as events from event_search, unnest(tsvector_to_array(lexemes)) as l group by l
    )
    select coalesce(k.lexeme, x.lexeme) as lexeme, k.events as kept, x.events as expected
    from search_lexemes k full join expected x on x.lexeme = k.lexeme
    where k.events is distinct from x.events`)

const countOf = async (lexeme: string) =>
  (await database.rows<{ events: number }>(sql`select events from search_lexemes where lexeme = ${lexeme}`))[0]?.events ?? 0

test('the seeded catalogue: every lexeme of the search copy, counted', async () => {
  const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from search_lexemes`)
  expect(n).toBeGreaterThan(50)
  expect(await drift()).toEqual([])
})

test('publish, edit, unpublish, delete, bulk statements and a rollback keep the counts exact', async () => {
  const [event] = await database.rows<{ id: string }>(sql`select id from events where status = 'pending' order by id limit 1`)
  expect(event).toBeDefined()
  expect(await countOf('zyxwvut')).toBe(0)

  await database.db.execute(sql`update events set status = 'published', title = 'Zyxwvut Serenade' where id = ${event.id}`)
  expect(await countOf('zyxwvut')).toBe(1)
  await database.db.execute(sql`update events set title = 'Qwertyuiop Serenade' where id = ${event.id}`)
  expect(await countOf('zyxwvut')).toBe(0)
  expect(await countOf('qwertyuiop')).toBe(1)
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)
  expect(await countOf('qwertyuiop')).toBe(0)
  await database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)
  expect(await drift()).toEqual([])

  await database.db.execute(sql`update events set short_description = short_description || ' kuliner' where status = 'published'`)
  await database.db.execute(sql`update events set status = 'pending' where status = 'published' and hashtext(id) % 3 = 0`)
  expect(await drift()).toEqual([])
  await inRolledBackTransaction(database, (tx) => tx.execute(sql`update events set title = 'Batal' where status = 'published'`))
  expect(await drift()).toEqual([])

  await database.db.execute(sql`delete from events where id = ${event.id}`)
  expect(await countOf('qwertyuiop')).toBe(0)
  expect(await drift()).toEqual([])
})

/** The ids a tsquery matches in the search copy, sorted. */
const matches = async (tsquery: ReturnType<typeof sql>) =>
  (await database.rows<{ id: string }>(sql`select event_id as id from event_search where lexemes @@ ${tsquery} order by 1`)).map(
    (r) => r.id,
  )

test('a rewritten search matches exactly the events its prefixes match', async () => {
  // events whose words share prefixes (pentas/pentasnya, festival/festivalan), a word no event holds
  const [a, b] = await database.rows<{ id: string }>(sql`select id from events where status = 'published' order by id limit 2`)
  await database.db.execute(sql`update events set title = 'Pentasnya Festivalan Kolosal' where id = ${a.id}`)
  await database.db.execute(sql`update events set title = 'Pentas Festival Kolosalia' where id = ${b.id}`)
  const [{ words }] = await database.rows<{ words: string[] }>(sql`
    select array_agg(w order by w) as words from (
      select distinct left(lexeme, greatest(2, length(lexeme) - 2)) as w from search_lexemes where lexeme ~ '^[a-z]+$' limit 60
    ) s`)
  const queries = [
    'pentas',
    'pen',
    'festival kolosal',
    'pentas festival',
    'kolosalia',
    'zzqx',
    'pentas zzqx',
    'merdka', // a typo: its stand-ins
    'dan di',
    'p',
    'festival 2026',
    ...words,
    ...words.slice(0, 20).map((w, i) => `${w} ${words[(i * 7) % words.length]}`),
  ]
  for (const q of queries) {
    const search = await eventSearchQuery(database, q)
    expect(search).not.toBeNull()
    const byPrefix = await matches(sql`to_tsquery('indonesian', ${search!.tsquery})`)
    const byLexemes = await matches(sql`${search!.match}::tsquery`)
    expect({ q, ids: byLexemes }).toEqual({ q, ids: byPrefix })
  }
  // the prefixes that stand for a few lexemes became those lexemes
  const pentas = await eventSearchQuery(database, 'pentas')
  expect(pentas!.match).toContain("'pentas'")
  expect(pentas!.match).not.toContain(':*')
  expect(await eventSearchQuery(database, '!!!')).toBeNull()
})

/** What each write announced (migration 0008's payloads), collected up to a marker sent after it. */
async function announcedBy(write: () => Promise<unknown>): Promise<(string[] | null)[]> {
  const payloads: string[] = []
  const unlisten = await database.listen('data_version', (payload) => void payloads.push(payload))
  try {
    await write()
    await database.rows(sql`select pg_notify('data_version', 'marker')`)
    const deadline = Date.now() + 3000
    while (!payloads.includes('marker') && Date.now() < deadline) await Bun.sleep(5)
    expect(payloads).toContain('marker')
    return payloads.filter((p) => p !== 'marker').map((p) => (p.startsWith('{') ? (JSON.parse(p).k as string[]) : null))
  } finally {
    await unlisten()
  }
}

/** The keys the events trigger announced (a new word's trigrams come in a notification of their own). */
const ofEvents = (announced: (string[] | null)[]) => announced.find((keys) => keys?.some((k) => k.startsWith('event:')))

test('a write announces w:<first 3 letters> of every lexeme of the event, before and after (migration 0029)', async () => {
  const [event] = await database.rows<{ id: string }>(sql`select id from events where status = 'pending' order by id desc limit 1`)
  const lexemeKeys = async () =>
    (
      await database.rows<{ key: string }>(sql`
        select distinct 'w:' || left(l, 3) as key from events, unnest(tsvector_to_array(search_document)) as l where id = ${event.id}`)
    ).map((r) => r.key)
  // pending: nothing of the search is public, no word key
  const pending = await announcedBy(() => database.db.execute(sql`update events set title = 'Gamelan Plutonik' where id = ${event.id}`))
  expect(pending.flat().filter((k) => k?.startsWith('w:'))).toEqual([])
  const published = ofEvents(await announcedBy(() => database.db.execute(sql`update events set status = 'published' where id = ${event.id}`)))
  const before = await lexemeKeys()
  expect(before).toContain('w:plu')
  expect(published).toEqual(expect.arrayContaining(before))
  // a new title: the keys of the words it lost and of those it gained
  const retitled = ofEvents(await announcedBy(() => database.db.execute(sql`update events set title = 'Orkestra Kuantum' where id = ${event.id}`)))
  expect(retitled).toEqual(expect.arrayContaining([...before, ...(await lexemeKeys())]))
  expect(retitled).toContain('w:kua')
  // unpublished: the keys of what it held
  const hidden = ofEvents(await announcedBy(() => database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`)))
  expect(hidden).toContain('w:kua')
})

test('a new dictionary word announces its trigrams; a known one nothing; a payload too long gives up word keys first', async () => {
  const [event] = await database.rows<{ id: string }>(sql`select id from events where status = 'published' order by id limit 1`)
  const fresh = await announcedBy(() => database.db.execute(sql`insert into search_words (word) values ('zorblaxian') on conflict do nothing`))
  const [{ trigrams }] = await database.rows<{ trigrams: string[] }>(sql`select show_trgm('zorblaxian') as trigrams`)
  expect(fresh).toEqual([trigrams.map((t) => `tri:${t}`).sort()])
  expect(await announcedBy(() => database.db.execute(sql`insert into search_words (word) values ('zorblaxian') on conflict do nothing`))).toEqual([])
  // a description of 3,000 words of as many first letters: its word keys would not fit in a notification
  const letters = (n: number) => [n % 26, Math.floor(n / 26) % 26, Math.floor(n / 676) % 26].map((c) => String.fromCharCode(97 + c)).join('')
  const words = Array.from({ length: 3000 }, (_, i) => `${letters(i * 5)}ara`).join(' ')
  const long = await announcedBy(() => database.db.execute(sql`update events set description = ${words} where id = ${event.id}`))
  const eventKeys = ofEvents(long)
  expect(eventKeys).toContain('search:all')
  expect(eventKeys).toContain(`event:${event.id}`)
  expect(eventKeys!.filter((k) => k.startsWith('w:') || k.startsWith('tri:'))).toEqual([])
})
