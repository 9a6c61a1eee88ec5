// bun bench/realistic/replay.ts <catalog URL> [count=30000] [every=200]
//
// The cache's hit rate under writes, independent of the machine's speed: replays the first
// `count` URLs of the seeded mix (8 clients) against a running catalog on DATABASE_URL, and after
// every `every` requests writes one event as the bench's writer draws them (category, city, two of
// the 300 most used tags, title words, a start within 180 days; inserted pending, tagged, then
// published, in SQL) and waits 150 ms for the notification. Prints the hit rate of the last two
// thirds by kind of URL; `every` 0 replays without writes. Its writes are deleted at the end.
// Two builds compared with it (a fresh process each) differ only by what a write drops.
import postgres from 'postgres'
import { loadBenchData, seeded, urls } from './urls'

const [base, countArg = '30000', everyArg = '200'] = Bun.argv.slice(2)
const databaseUrl = process.env.DATABASE_URL
if (!base || !databaseUrl) throw new Error('usage: DATABASE_URL=... bun bench/realistic/replay.ts <catalog URL> [count] [every]')
const data = await loadBenchData(databaseUrl)
const list = urls('mix', data, Number(countArg), 20261123)
const every = Number(everyArg) || list.length
const writes = Number(everyArg) > 0
const sql = postgres(databaseUrl, { max: 2 })
const [pool] = await sql<{ categories: string[]; cities: string[]; tags: string[] }[]>`
  select (select array_agg(id) from categories) as categories, (select array_agg(id) from cities) as cities,
    (select array_agg(tag_id) from (select tag_id from event_tags group by 1 order by count(*) desc limit 300) t) as tags`
const random = seeded(20261125)
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]
let serial = 0

async function write() {
  const id = Bun.randomUUIDv7()
  const startsIn = 1 + Math.floor(random() * 180)
  await sql`insert into events (id, title, slug, start_date, end_date, category_id, city_id, organizer_name, status, is_free, event_type)
    values (${id}, ${`${pick(data.words)} ${pick(data.words)} ${++serial}`}, ${`replay-${id}`}, current_date + ${startsIn}::int,
      current_date + ${startsIn}::int, ${pick(pool.categories)}, ${pick(pool.cities)}, 'Penulis Bench', 'pending', true, 'offline')`
  for (const tag of new Set([pick(pool.tags), pick(pool.tags)])) await sql`insert into event_tags (event_id, tag_id) values (${id}, ${tag})`
  await sql`update events set status = 'published', published_at = now() where id = ${id}`
}

const kindOf = (url: string) => (url.includes('q=') ? 'search' : url.includes('?') || url === '/api/events' ? 'list' : 'detail')
const byKind: Record<string, { hits: number; requests: number }> = {}
const warm = Math.floor(list.length / 3)
try {
  for (let from = 0; from < list.length; from += every) {
    const chunk = list.slice(from, from + every)
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < chunk.length) {
          const at = next++
          const res = await fetch(base + chunk[at], { headers: { 'accept-encoding': 'gzip' } })
          await res.arrayBuffer()
          if (from + at < warm) continue
          const kind = (byKind[kindOf(chunk[at])] ??= { hits: 0, requests: 0 })
          kind.requests++
          if (res.headers.get('x-cache') === 'hit') kind.hits++
        }
      }),
    )
    if (writes) await write().then(() => Bun.sleep(150))
  }
} finally {
  await sql`delete from events where organizer_name = 'Penulis Bench'`
  await sql.end()
}
const all = Object.values(byKind).reduce((a, k) => ({ hits: a.hits + k.hits, requests: a.requests + k.requests }), { hits: 0, requests: 0 })
const rate = (k: { hits: number; requests: number }) => (k.hits / k.requests).toFixed(3)
console.log(
  `${writes ? `a write every ${every} requests` : 'no writes'}: hit rate ${rate(all)} (${all.requests} requests); ` +
    Object.entries(byKind)
      .map(([kind, k]) => `${kind} ${rate(k)}`)
      .join(', '),
)
