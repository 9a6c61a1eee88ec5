// URL lists drawn from the bench data with a fixed seed: what a real audience asks for.
// Each list is a sequence (not a set): wrk walks it in order from a random start, so the
// frequencies (Zipf over slugs, popular filters) are those of the list.
import postgres from 'postgres'

/** mulberry32: a small seeded generator, so two runs on the same data ask the same URLs. */
export function seeded(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Zipf(s) over ranks 1..n by inverse transform on the cumulative weights. */
function zipf(random: () => number, n: number, s = 1.0) {
  const cumulative = new Float64Array(n)
  let sum = 0
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1) ** s
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

export interface BenchData {
  slugs: string[]
  cities: string[]
  categories: string[]
  tags: string[]
  words: string[]
}

export async function loadBenchData(databaseUrl: string): Promise<BenchData> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    // hashed order: a stable "popularity" ranking that is not the insertion order
    const slugs = (await sql`select slug from events where status = 'published' order by md5(slug)`).map((r) => r.slug)
    const cities = (await sql`select slug from cities order by slug`).map((r) => r.slug)
    const categories = (await sql`select slug from categories where is_active order by slug`).map((r) => r.slug)
    const tags = (
      await sql`select t.slug from tags t join event_tags et on et.tag_id = t.id group by t.slug order by count(*) desc, t.slug limit 300`
    ).map((r) => r.slug)
    // words of at least 3 titles: not the one-off serials the bench's own writes put in titles
    const words = (
      await sql`select w from events, regexp_split_to_table(lower(title), '[^a-z0-9]+') w
                where status = 'published' and length(w) >= 4 group by w having count(*) >= 3
                order by count(*) desc, w limit 400`
    ).map((r) => r.w)
    return { slugs, cities, categories, tags, words }
  } finally {
    await sql.end({ timeout: 5 })
  }
}

const SORTS = ['created_at_desc', 'start_date_asc', 'start_date_desc', 'price_asc', 'title_asc']
const FORMATS = ['offline', 'online', 'hybrid']

/** One typo: a letter dropped, doubled or swapped with its neighbour. */
function typo(word: string, random: () => number): string {
  const i = 1 + Math.floor(random() * (word.length - 2))
  const kind = Math.floor(random() * 3)
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1)
  if (kind === 1) return word.slice(0, i) + word[i] + word.slice(i)
  return word.slice(0, i - 1) + word[i] + word[i - 1] + word.slice(i + 1)
}

/**
 * How many URLs a scenario's list holds: more than a scenario asks for (10k rps for its warm-up
 * and measured seconds), so every request is a fresh draw. Until the sixteenth round a list held
 * 60,000 and a scenario walked it round two or three times: the second time round, every URL was
 * one the cache had just answered, so a faster scenario found a higher hit rate than a slower one
 * on the same traffic (the mix against the mix with writes), and a cache big enough for the list's
 * distinct URLs looked like it held real traffic (bench/realistic/cache-sim.ts: 0.96 against 0.81
 * for 48 MiB of details).
 */
export const BENCH_URL_COUNT = 300_000

export type UrlKind = 'detail' | 'lists' | 'search' | 'mix' | 'weekend' | 'suggest'

/** `count` paths of one kind, from `seed`. */
export function urls(kind: UrlKind, data: BenchData, count: number, seed: number): string[] {
  const random = seeded(seed)
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]
  const slugRank = zipf(random, data.slugs.length)
  const wordRank = zipf(random, data.words.length, 0.8)
  const cityRank = zipf(random, data.cities.length, 0.8)
  const detail = () => `/api/events/${data.slugs[slugRank()]}`
  const list = () => {
    const params = new URLSearchParams()
    // each filter present with a realistic probability; popular cities asked more often
    if (random() < 0.5) params.set('kota', data.cities[cityRank()])
    if (random() < 0.4) params.set('kategori', pick(data.categories))
    if (random() < 0.15) params.set('tag', pick(data.tags))
    if (random() < 0.2) params.set('format', pick(FORMATS))
    if (random() < 0.2) params.set('gratis', random() < 0.5 ? '1' : '0')
    if (random() < 0.6) params.set('sort', pick(SORTS))
    // most people stay on the first pages
    const page = random() < 0.7 ? 1 : 2 + Math.floor(random() * 4)
    if (page > 1) params.set('page', String(page))
    if (random() < 0.2) params.set('limit', String(pick([12, 24, 50])))
    const query = params.toString()
    return `/api/events${query ? `?${query}` : ''}`
  }
  const search = () => {
    let q = data.words[wordRank()]
    if (random() < 0.35) q += ` ${data.words[wordRank()]}`
    if (random() < 0.25)
      q = q
        .split(' ')
        .map((w) => (w.length > 4 && random() < 0.7 ? typo(w, random) : w))
        .join(' ')
    const params = new URLSearchParams({ q })
    if (random() < 0.2) params.set('kota', data.cities[cityRank()])
    if (random() < 0.3) params.set('page', String(1 + Math.floor(random() * 3)))
    return `/api/events?${params}`
  }
  const weekend = () => `/api/events?waktu=akhir-pekan&kota=${data.cities[cityRank()]}${random() < 0.3 ? '&page=2' : ''}`
  const suggest = () => {
    const word = data.words[wordRank()]
    return `/api/search/suggest?q=${encodeURIComponent(word.slice(0, 1 + Math.floor(random() * word.length)))}`
  }
  const make: Record<UrlKind, () => string> = {
    detail,
    lists: list,
    search,
    weekend,
    suggest,
    mix: () => {
      const x = random()
      return x < 0.6 ? detail() : x < 0.9 ? list() : search()
    },
  }
  return Array.from({ length: count }, make[kind])
}
