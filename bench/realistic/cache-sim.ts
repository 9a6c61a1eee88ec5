// bun bench/realistic/cache-sim.ts <base URL> <kind[,kind...]> [requests] [budgets MiB, e.g. 32,64] [list length] [window shares, e.g. 0.02,0.1]
//
// What hit rate a cache budget can give, apart from the machine: replays a scenario's requests
// through the service's own response cache (shared/kit/src/response-cache.ts, with the real
// answers, fetched once per distinct URL from a running service) in two orders:
// - `bench`: the bench's list (BENCH_URL_COUNT URLs, or `list length`) walked from its start,
//   round again when the replay is longer, as bench/wrk/urls.lua walks it (with the 60,000 URLs
//   of the lists before the sixteenth round a scenario went round 2-3 times);
// - `zipf`: one list as long as the replay, drawn the same way (urls.ts, same seed), walked
//   once: every request a fresh draw, as real traffic is.
// Prints the hit rate over the last three quarters (the first quarter warms the cache, as the
// bench's warm-up does), the entries held, the cache's own byte count, how many answers left
// its window for the main part or for good, and the gzip forms made. Plain requests, like wrk's.
// Several kinds (`detail,lists,mix`) are replayed one after the other through one cache, as the
// bench runs its scenarios: what the last one left in the cache is what the next one meets. The answers carry no
// change keys, so an entry here is ~0.8 KB smaller than the service's (a detail's seven keys):
// more of them fit than in the service. Needs DATABASE_URL (the bench data) to draw the URLs.
import { createResponseCache } from '@app/kit'
import { BENCH_URL_COUNT, loadBenchData, urls, type UrlKind } from './urls'

const [base, kind, requestsArg, budgetsArg, listArg, windowsArg] = Bun.argv.slice(2)
if (!base || !kind) {
  console.error(
    'usage: bun bench/realistic/cache-sim.ts <base URL> <detail|lists|search|mix> [requests] [budgets MiB] [list length] [window shares]',
  )
  process.exit(2)
}
const REQUESTS = Number(requestsArg ?? 150_000)
const BUDGETS = (budgetsArg ?? '32,64').split(',').map(Number)
const BENCH_LIST = Number(listArg ?? BENCH_URL_COUNT)
/** the window's share of the budget (the cache's default: 0.02) */
const WINDOWS = (windowsArg ?? '0.02').split(',').map(Number)
const SEED = 20261123

const data = await loadBenchData(process.env.DATABASE_URL!)
const kinds = kind.split(',') as UrlKind[]
/** per order, each kind's requests in turn */
const orders: Record<string, string[][]> = {
  bench: kinds.map((k) => {
    const benchList = urls(k, data, BENCH_LIST, SEED)
    return Array.from({ length: REQUESTS }, (_, i) => benchList[i % benchList.length])
  }),
  zipf: kinds.map((k) => urls(k, data, REQUESTS, SEED)),
}
// one body per distinct URL, as the service answers it (16 at a time)
const bodies = new Map<string, { status: number; json: string }>()
const pending = [...new Set(Object.values(orders).flat(2))]
console.log(`fetching ${pending.length} distinct ${kind} answers from ${base}`)
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (let url = pending.pop(); url; url = pending.pop()) {
      const response = await fetch(base + url, { signal: AbortSignal.timeout(10_000) })
      bodies.set(url, { status: response.status, json: await response.text() })
    }
  }),
)

for (const [order, lists] of Object.entries(orders))
  for (const mib of BUDGETS)
    for (const share of WINDOWS) {
      const cache = createResponseCache({
        versions: { current: async () => 1 },
        maxBytes: mib * 1024 * 1024,
        windowBytes: share * mib * 1024 * 1024,
      })
      for (const [at, list] of lists.entries()) {
        const distinct = new Set(list.slice(REQUESTS / 4)).size
        const before = cache.stats()
        let hits = 0
        for (let i = 0; i < list.length; i++) {
          const url = list[i]
          const response = await cache.respond(new Request(`http://sim${url}`), url, async () => bodies.get(url)!)
          if (i >= REQUESTS / 4 && response.headers.get('x-cache') === 'hit') hits++
        }
        const stats = cache.stats()
        const since = (name: 'admitted' | 'rejected' | 'compressed' | 'unasked') => stats[name] - before[name]
        console.log(
          `${order.padEnd(5)} ${kinds[at].padEnd(6)} ${String(mib).padStart(4)} MiB window ${share}: hit rate ${(hits / (REQUESTS * 0.75)).toFixed(3)}` +
            ` (${distinct} distinct URLs among the measured requests)` +
            `, ${stats.entries} entries, ${(stats.bytes / 1048576).toFixed(1)} MiB counted, admitted ${since('admitted')}` +
            ` rejected ${since('rejected')}, gzip forms made ${since('compressed')}, cooled unasked and dropped ${since('unasked')}`,
        )
      }
    }
