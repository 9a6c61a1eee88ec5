// Search people can use (issue 14.2): what q matches, synonyms as data, sort=relevance, suggest.
// Expectations are computed from the demo data with SQL, never hard-coded.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { get } from '@app/kit/testing'
import { inRolledBackTransaction } from '@app/db/testing'
import { createTestCatalog } from '../testing'
import { suggestQueries } from './service'

let ctx: Awaited<ReturnType<typeof createTestCatalog>>
beforeAll(async () => {
  ctx = await createTestCatalog()
}, 60_000)
afterAll(async () => {
  await ctx?.database.close()
})

type Item = { slug: string; title: string; city_slug: string | null; category_slug: string }
const list = async (query: string) => {
  const res = await get(ctx.app, `/api/events?limit=100&${query}`)
  expect(res.status).toBe(200)
  return { items: res.body.data as Item[], total: res.body.pagination.total as number }
}
const rows = <T>(query: ReturnType<typeof sql>) => ctx.database.rows<T>(query)

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
/** The plan's nodes of `query`, explained on `tx` (a transaction that may change planner settings). */
async function planNodes(tx: any, query: ReturnType<typeof sql>): Promise<PlanNode[]> {
  const result: any = await tx.execute(sql`explain (format json) ${query}`)
  const json = (Array.isArray(result) ? result : result.rows)[0]['QUERY PLAN']
  const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)]
  return walk((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan)
}

describe('q matches venue, city, province, category and tag names too', () => {
  test('a category word and a city name together: events of that category in that city', async () => {
    const [pair] = await rows<{ category: string; city: string; citySlug: string; categorySlug: string }>(sql`
      select ca.name as category, ci.name as city, ci.slug as "citySlug", ca.slug as "categorySlug"
      from events e join categories ca on ca.id = e.category_id join cities ci on ci.id = e.city_id
      where e.status = 'published' and ca.name !~ '[^A-Za-z]' and ci.name !~ '[^A-Za-z]'
      group by 1, 2, 3, 4 order by count(*) desc, 1, 2 limit 1`)
    const { items } = await list(`q=${encodeURIComponent(`${pair.category} ${pair.city}`)}`)
    const expected = await rows<{ slug: string }>(sql`
      select e.slug from events e join categories ca on ca.id = e.category_id join cities ci on ci.id = e.city_id
      where e.status = 'published' and ca.slug = ${pair.categorySlug} and ci.slug = ${pair.citySlug}`)
    expect(expected.length).toBeGreaterThan(0)
    // every event of that category in that city is found (others may match through their text)
    for (const { slug } of expected) expect(items.map((i) => i.slug)).toContain(slug)
  })

  test('a tag name finds the events carrying it; a venue word finds its events', async () => {
    const [tag] = await rows<{ name: string; slug: string }>(sql`
      select t.name, t.slug from tags t join event_tags et on et.tag_id = t.id join events e on e.id = et.event_id
      where e.status = 'published' and t.name ~ '^[A-Za-z]{5,}$' group by t.name, t.slug order by count(*) desc limit 1`)
    const tagged = await rows<{ slug: string }>(sql`
      select e.slug from events e join event_tags et on et.event_id = e.id join tags t on t.id = et.tag_id
      where e.status = 'published' and t.slug = ${tag.slug}`)
    const { items } = await list(`q=${encodeURIComponent(tag.name)}`)
    for (const { slug } of tagged) expect(items.map((i) => i.slug)).toContain(slug)

    const [venue] = await rows<{ venue: string; slug: string }>(sql`
      select venue_name as venue, slug from events where status = 'published' and venue_name ~ '^[A-Za-z]+ [A-Za-z]{6,}'
      order by slug limit 1`)
    const word = venue.venue.split(' ')[1]
    expect((await list(`q=${encodeURIComponent(word)}`)).items.map((i) => i.slug)).toContain(venue.slug)
  })

  test('a province finds events of its cities', async () => {
    const [row] = await rows<{ province: string; slug: string }>(sql`
      select ci.province, e.slug from events e join cities ci on ci.id = e.city_id
      where e.status = 'published' and ci.province ~ '^[A-Za-z ]+$' and ci.province <> ci.name order by e.slug limit 1`)
    expect((await list(`q=${encodeURIComponent(row.province)}`)).items.map((i) => i.slug)).toContain(row.slug)
  })

  test('pending events stay invisible to the wider search', async () => {
    const [pending] = await rows<{ title: string; slug: string }>(
      sql`select title, slug from events where status <> 'published' limit 1`,
    )
    expect((await list(`q=${encodeURIComponent(pending.title)}`)).items.map((i) => i.slug)).not.toContain(pending.slug)
  })
})

describe('synonyms and spellings, as data', () => {
  test('jogja finds what yogyakarta finds, and the other way round', async () => {
    const jogja = await list('q=jogja')
    const yogya = await list('q=yogyakarta')
    expect(jogja.total).toBeGreaterThan(0)
    expect(jogja.items.map((i) => i.slug).sort()).toEqual(yogya.items.map((i) => i.slug).sort())
  })

  test('a synonym added to the table works at once, without code', async () => {
    const [city] = await rows<{ name: string }>(sql`
      select ci.name from cities ci join events e on e.city_id = ci.id where e.status = 'published' and ci.name ~ '^[A-Za-z]+$'
      group by ci.name order by ci.name limit 1`)
    const nickname = 'kotaujisinonim'
    expect((await list(`q=${nickname}`)).total).toBe(0)
    await rows(
      sql`insert into search_synonyms (term, group_name) values (${nickname}, 'uji'), (${city.name.toLowerCase()}, 'uji')`,
    )
    try {
      const found = await list(`q=${nickname}`)
      expect(found.total).toBe((await list(`q=${encodeURIComponent(city.name)}`)).total)
      expect(found.total).toBeGreaterThan(0)
    } finally {
      await rows(sql`delete from search_synonyms where group_name = 'uji'`)
    }
  })

  test('typos still match (dictionary of words, not a scan of events)', async () => {
    const [city] = await rows<{ name: string }>(sql`
      select ci.name from cities ci join events e on e.city_id = ci.id where e.status = 'published' and ci.name ~ '^[A-Za-z]{7,}$'
      group by ci.name order by count(*) desc, ci.name limit 1`)
    const name = city.name.toLowerCase()
    const typo = name.slice(0, 3) + name.slice(4)
    const exact = await list(`q=${name}`)
    const misspelt = await list(`q=${typo}`)
    for (const slug of exact.items.map((i) => i.slug)) expect(misspelt.items.map((i) => i.slug)).toContain(slug)
  })
})

describe('sort=relevance', () => {
  test('only with q: 400 without it', async () => {
    for (const query of ['sort=relevance', 'sort=relevance&q=%20%20']) {
      const res = await get(ctx.app, `/api/events?${query}`)
      expect(res.status).toBe(400)
      expect(res.body.error).toContain('relevance')
    }
  })

  test('a title match ranks above a match in the venue, city, category or description only', async () => {
    // a word some published titles carry and some other published events have only outside the title
    const [row] = await rows<{ word: string }>(sql`
      with words as (
        select distinct lower(x) as word from events e, regexp_split_to_table(e.title, '[^A-Za-z]+') x
        where e.status = 'published' and length(x) >= 5)
      select word from words where exists (
        select 1 from events e where e.status = 'published' and e.title !~* ('\\m' || word)
          and (e.short_description || ' ' || e.description || ' ' || e.venue_name) ~* ('\\m' || word))
      order by word limit 1`)
    expect(row).toBeDefined()
    const { items } = await list(`q=${row.word}&sort=relevance`)
    expect(items.length).toBeGreaterThan(1)
    expect(new RegExp(`\\b${row.word}`, 'i').test(items[0].title)).toBe(true)
    expect(items.some((i) => !new RegExp(`\\b${row.word}`, 'i').test(i.title))).toBe(true)
  })

  test('every other sort still works with q', async () => {
    const byDate = await list('q=festival&sort=start_date_asc')
    const dates = byDate.items.map((i) => (i as unknown as { start_date: string }).start_date)
    expect(dates).toEqual([...dates].sort())
  })
})

describe('GET /api/search/suggest', () => {
  test('from the first letter: at most 10, each with its type and slug, all starting a word with it', async () => {
    for (const q of ['b', 'ja', 'kon', 'Festival']) {
      const res = await get(ctx.app, `/api/search/suggest?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(200)
      const data = res.body.data as { type: string; label: string; slug: string }[]
      expect(data.length).toBeGreaterThan(0)
      expect(data.length).toBeLessThanOrEqual(10)
      for (const s of data) {
        expect(['category', 'city', 'tag', 'event']).toContain(s.type)
        expect(s.slug).toMatch(/^[a-z0-9-]+$/)
        const words = s.label
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase()
          .split(/[^a-z0-9]+/)
        expect(words.some((w) => w.startsWith(q.toLowerCase()))).toBe(true)
      }
    }
  })

  test('a city typed in part is suggested as a city; event suggestions are published', async () => {
    const [city] = await rows<{ name: string; slug: string }>(sql`select name, slug from cities order by name limit 1`)
    const res = await get(ctx.app, `/api/search/suggest?q=${encodeURIComponent(city.name.slice(0, 4))}`)
    expect(res.body.data).toContainEqual({ type: 'city', label: city.name, slug: city.slug })
    const events = (res.body.data as { type: string; slug: string }[]).filter((s) => s.type === 'event')
    for (const e of events) expect((await get(ctx.app, `/api/events/${e.slug}`)).status).toBe(200)
  })

  test('a word inside a title, typed in part, suggests the event, alone or with another word; renamed, it does not', async () => {
    const [event] = await rows<{ id: string; slug: string; title: string }>(sql`
      select id, slug, title from events where status = 'published' order by id limit 1`)
    const suggested = async (q: string) =>
      ((await get(ctx.app, `/api/search/suggest?q=${encodeURIComponent(q)}`)).body.data as { type: string; slug: string }[])
        .filter((s) => s.type === 'event')
        .map((s) => s.slug)
    await rows(sql`update events set title = 'Malam Xylofonia Berbintang' where id = ${event.id}`)
    try {
      expect(await suggested('xylof')).toContain(event.slug)
      expect(await suggested('berbintang xylof')).toContain(event.slug)
      expect(await suggested('Xylofonia bintang')).not.toContain(event.slug)
      await rows(sql`update events set title = 'Malam Biasa Berbintang' where id = ${event.id}`)
      expect(await suggested('xylof')).not.toContain(event.slug)
      expect(await suggested('berbin')).toContain(event.slug)
    } finally {
      await rows(sql`update events set title = ${event.title} where id = ${event.id}`)
    }
  })

  test('event suggestions by a title word read a range of the title-word index, whatever the prefix', async () => {
    // with sequential scans priced out, one left on event_title_words means no index serves the range
    for (const q of ['fes', 'festival mus', 'b']) {
      const queries = suggestQueries(q)!
      const nodes = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`)
        return planNodes(tx, queries.events(10))
      })
      const onWords = nodes.filter(
        (n) => n['Relation Name'] === 'event_title_words' || n['Index Name']?.startsWith('event_title_words'),
      )
      // one or two letters: title prefixes only
      if (q === 'b') expect(onWords).toEqual([])
      else {
        expect(onWords.length).toBeGreaterThan(0)
        for (const n of onWords) expect(n['Index Name']).toBe('event_title_words_pkey')
      }
    }
  })

  test('with many title words and a common prefix the planner still walks the range, not the whole table', async () => {
    // at 100k events a scan of the table, stopped after enough matches, looked cheaper than the
    // range ('ter': 191 ms); reading the range in key order keeps it a range. Rolled back after.
    let nodes: PlanNode[] = []
    await inRolledBackTransaction(ctx.database, async (tx) => {
      await tx.execute(sql`
        insert into event_title_words (word, event_id)
        select case when g % 20 = 0 then 'festival' else md5(g::text) end, 'plan-' || g from generate_series(1, 100000) g`)
      await tx.execute(sql`analyze event_title_words`)
      nodes = await planNodes(tx, suggestQueries('fes')!.events(10))
    })
    const onWords = nodes.filter((n) => n['Relation Name'] === 'event_title_words')
    expect(onWords.length).toBeGreaterThan(0)
    for (const n of onWords) expect([n['Node Type'], n['Index Name']]).toEqual(['Index Only Scan', 'event_title_words_pkey'])
  })

  test('empty, overlong or hostile q: 400 envelope', async () => {
    for (const q of ['', 'x'.repeat(101), '%00']) {
      const res = await get(ctx.app, `/api/search/suggest?q=${q}`)
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
    }
    expect((await get(ctx.app, '/api/search/suggest')).status).toBe(400)
  })
})
