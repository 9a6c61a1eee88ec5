// bun bench/realistic/misses.ts <base URL> <kind> [count]
//
// Where a cache miss spends its time: asks a running service for the first `count` distinct URLs
// of a scenario's list (urls.ts, the bench's seed), one at a time, so each is a miss measured
// alone; prints the latency percentiles, the slowest URLs and the mean per URL shape (which
// parameters it has). Needs DATABASE_URL (the bench data) to draw the URLs.
import { loadBenchData, urls, type UrlKind } from './urls'

const [base, kind, countArg] = Bun.argv.slice(2)
if (!base || !kind) {
  console.error('usage: bun bench/realistic/misses.ts <base URL> <detail|lists|search|...> [count]')
  process.exit(2)
}
const data = await loadBenchData(process.env.DATABASE_URL!)
const distinct = [...new Set(urls(kind as UrlKind, data, 60000, 20261123))].slice(0, Number(countArg ?? 500))
const timings: { url: string; ms: number; cache: string }[] = []
for (const url of distinct) {
  const t0 = performance.now()
  const res = await fetch(base + url, { headers: { 'accept-encoding': 'gzip' }, signal: AbortSignal.timeout(10_000) })
  await res.arrayBuffer()
  timings.push({ url, ms: performance.now() - t0, cache: res.headers.get('x-cache') ?? '-' })
}
// MISSES_JSON=<file>: every URL's latency, to compare two builds URL by URL
if (process.env.MISSES_JSON) await Bun.write(process.env.MISSES_JSON, JSON.stringify(timings))
const sorted = timings.map((t) => t.ms).sort((a, b) => a - b)
const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1)
const total = sorted.reduce((a, b) => a + b, 0)
console.log(
  `${timings.length} distinct ${kind} URLs: mean ${(total / timings.length).toFixed(2)} ms, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)}`,
)
console.log('slowest:')
for (const t of [...timings].sort((a, b) => b.ms - a.ms).slice(0, 15))
  console.log(`  ${t.ms.toFixed(1)} ms  ${t.cache}  ${t.url}`)
const shapes = new Map<string, number[]>()
for (const t of timings) {
  const params = [...new URL(t.url, 'http://x').searchParams.keys()].sort().join('+') || '(none)'
  shapes.set(params, [...(shapes.get(params) ?? []), t.ms])
}
console.log('by shape (share of the total time):')
for (const [shape, ms] of [...shapes].sort((a, b) => b[1].reduce((x, y) => x + y) - a[1].reduce((x, y) => x + y)).slice(0, 15)) {
  const sum = ms.reduce((a, b) => a + b, 0)
  console.log(`  ${((100 * sum) / total).toFixed(1)}%  n=${ms.length}  mean ${(sum / ms.length).toFixed(1)} ms  ${shape}`)
}
