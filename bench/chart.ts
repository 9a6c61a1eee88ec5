// A bar chart (hand-written SVG, no dependencies) of a benchmark report: requests per second
// per scenario, straight to the service, through Caddy, the straightforward-SQL ceiling
// (pgbench transactions per second) and Directus, on a log scale.
//
//   bun run bench/chart.ts [bench/results/<stamp>.json]   (default: the newest report)
// writes bench/results/<stamp>.svg and copies it to bench/results/latest.svg. bench/run.ts
// calls writeChart() itself after every run.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { findCeiling, findRun, PEER_OF, SCENARIO_ORDER, type BenchReport } from './report'

const SERIES = [
  { key: 'direct', label: 'service, direct', color: '#2563eb' },
  { key: 'caddy', label: 'service, through Caddy', color: '#16a34a' },
  { key: 'ceiling', label: 'straightforward SQL ceiling (pgbench tps)', color: '#9ca3af' },
  { key: 'peer', label: 'Directus', color: '#dc2626' },
  { key: 'warm', label: "service's fallback version lookup (pgbench tps)", color: '#a855f7' },
] as const
type SeriesKey = (typeof SERIES)[number]['key']

const LABELS: Record<string, string> = {
  list: 'event list',
  filtered: 'filtered list, page 3',
  search: 'q search',
  detail: 'event detail',
  categories: 'categories',
  news: 'news list',
  health: '/health (trivial)',
  warm: 'version lookup',
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const fmt = (n: number) => (n >= 10000 ? `${+(n / 1000).toFixed(1)}k` : String(Math.round(n)))

export function renderChart(report: BenchReport): string {
  const rows: { name: string; bars: { key: SeriesKey; value: number }[] }[] = []
  for (const scenario of SCENARIO_ORDER) {
    const bars: { key: SeriesKey; value: number }[] = []
    const direct = findRun(report, scenario, 'direct')
    const caddy = findRun(report, scenario, 'caddy')
    const ceiling = findCeiling(report, scenario === 'search' ? 'search' : scenario)
    const peer = PEER_OF[scenario] ? findRun(report, PEER_OF[scenario], 'peer') : undefined
    if (direct) bars.push({ key: 'direct', value: direct.rps })
    if (caddy) bars.push({ key: 'caddy', value: caddy.rps })
    if (ceiling && ceiling.kind === 'straightforward') bars.push({ key: 'ceiling', value: ceiling.tps })
    if (peer) bars.push({ key: 'peer', value: peer.rps })
    if (bars.length) rows.push({ name: scenario, bars })
  }
  const warm = report.ceilings.find((c) => c.kind === 'service-warm')
  if (warm) rows.push({ name: 'warm', bars: [{ key: 'warm', value: warm.tps }] })

  const values = rows.flatMap((r) => r.bars.map((b) => b.value)).filter((v) => v > 0)
  const lo = Math.pow(10, Math.floor(Math.log10(Math.max(1, Math.min(...values, 10)))))
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...values, 10))))
  const used = new Set(rows.flatMap((r) => r.bars.map((b) => b.key)))
  const series = SERIES.filter((s) => used.has(s.key))

  const width = 980
  const left = 170
  const right = 70
  const plot = width - left - right
  const barH = 13
  const barGap = 3
  const rowGap = 16
  const top = 70 + Math.ceil(series.length / 3) * 18
  const rowHeight = (r: (typeof rows)[number]) => r.bars.length * (barH + barGap) - barGap
  const height = top + rows.reduce((h, r) => h + rowHeight(r) + rowGap, 0) + 40
  const xOf = (v: number) => left + (plot * (Math.log10(Math.max(v, lo)) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo))

  const out: string[] = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  )
  const events = report.database.dataset.events
  out.push(
    `<text x="20" y="22" font-size="15" font-weight="600" fill="#111827">Requests per second (log scale), higher is better</text>`,
    `<text x="20" y="40" fill="#4b5563">${escape(
      `${report.stamp}: ${report.machine.cores} cores, ${events ? events.toLocaleString('en-US') : '?'} events, wrk -c${report.settings.connections} (q search -c${report.settings.qConnections}), pgbench at the same concurrency`,
    )}</text>`,
  )
  series.forEach((s, i) => {
    const x = 20 + (i % 3) * 320
    const y = 56 + Math.floor(i / 3) * 18
    out.push(
      `<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${s.color}"/>`,
      `<text x="${x + 18}" y="${y}" fill="#374151">${escape(s.label)}</text>`,
    )
  })

  // grid: powers of ten, with 2 and 5 in between
  const gridBottom = height - 34
  for (let decade = lo; decade < hi * 1.0001; decade *= 10)
    for (const mult of [1, 2, 5]) {
      const v = decade * mult
      if (v > hi * 1.0001) continue
      const x = xOf(v)
      out.push(
        `<line x1="${x.toFixed(1)}" y1="${top - 8}" x2="${x.toFixed(1)}" y2="${gridBottom}" stroke="${mult === 1 ? '#d1d5db' : '#f0f1f3'}"/>`,
      )
      if (mult === 1 || plot / Math.log10(hi / lo) > 160)
        out.push(`<text x="${x.toFixed(1)}" y="${gridBottom + 16}" text-anchor="middle" fill="#6b7280">${fmt(v)}</text>`)
    }

  let y = top
  for (const row of rows) {
    const h = rowHeight(row)
    out.push(
      `<text x="${left - 10}" y="${(y + h / 2 + 4).toFixed(1)}" text-anchor="end" fill="#111827">${escape(LABELS[row.name] ?? row.name)}</text>`,
    )
    row.bars.forEach((bar, i) => {
      const color = SERIES.find((s) => s.key === bar.key)!.color
      const by = y + i * (barH + barGap)
      const x1 = xOf(bar.value)
      out.push(
        `<rect x="${left}" y="${by}" width="${Math.max(1, x1 - left).toFixed(1)}" height="${barH}" fill="${color}"><title>${escape(
          `${SERIES.find((s) => s.key === bar.key)!.label}: ${Math.round(bar.value)}`,
        )}</title></rect>`,
        `<text x="${(x1 + 4).toFixed(1)}" y="${by + barH - 2}" fill="#374151">${fmt(bar.value)}</text>`,
      )
    })
    y += h + rowGap
  }
  out.push(`</svg>`)
  return out.join('\n') + '\n'
}

/** Writes <dir>/<stamp>.svg and copies it to <dir>/latest.svg; returns the first path. */
export function writeChart(report: BenchReport, dir: string): string {
  const file = join(dir, `${report.stamp}.svg`)
  writeFileSync(file, renderChart(report))
  copyFileSync(file, join(dir, 'latest.svg'))
  return file
}

if (import.meta.main) {
  const resultsDir = resolve(import.meta.dir, 'results')
  const given = Bun.argv[2]
  const path = given
    ? resolve(given)
    : join(
        resultsDir,
        readdirSync(resultsDir)
          .filter((f) => /^\d{4}-\d{2}-\d{2}-\d{6}\.json$/.test(f))
          .sort()
          .at(-1) ?? '',
      )
  if (!path.endsWith('.json')) {
    console.error('no report JSON found: bun run bench/chart.ts bench/results/<stamp>.json')
    process.exit(2)
  }
  const report = JSON.parse(readFileSync(path, 'utf8')) as BenchReport
  const file = writeChart(report, dirname(path))
  console.log(`${file} (and ${join(dirname(path), 'latest.svg')}) from ${basename(path)}`)
}
