// The realistic bench's report: JSON (everything), Markdown (the tables), SVG (rps and p99 per
// scenario), under bench/results/realistic-<stamp>.* and realistic-latest.*.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CpuUse } from './cpu'

export interface RunResult {
  name: string
  label: string
  rps: number
  p50Ms: number
  p99Ms: number
  errors: number
  timeouts: number
  hitRate: number | null
  bytesPerAnswer: number
  peakRssMiB: number
  load1: number[]
  /** where the CPU went during the measured run (absent in reports before the eighteenth round) */
  cpu?: CpuUse
  writes?: {
    perSec: number
    done: number
    failures: number
    submitP50Ms: number | null
    submitP99Ms: number | null
    approveP99Ms: number | null
  }
}

export interface Report {
  date: string
  machine: { cpus: number; memGiB: number; load1: number }
  events: number
  duration: number
  connections: number
  runs: RunResult[]
  ceilings: Record<string, number>
  submitIdleP99Ms: number | null
  submitLoadedP99Ms: number | null
  targets: { name: string; result: { ok: boolean; value: string } | null }[]
}

function markdown(r: Report): string {
  const rows = r.runs.map(
    (x) =>
      `| ${x.label} | ${x.rps.toLocaleString('en')} | ${x.p50Ms} | ${x.p99Ms} | ${x.errors} | ${x.hitRate ?? '-'} | ${x.peakRssMiB} | ${
        x.writes
          ? `${x.writes.perSec}/s: submit p50 ${x.writes.submitP50Ms} / p99 ${x.writes.submitP99Ms} ms, approve p99 ${x.writes.approveP99Ms} ms`
          : ''
      } |`,
  )
  // the parts watched, in a fixed order; a part no run measured is left out
  const parts = ['catalog', 'catalog thread', 'postgres', 'caddy', 'admin', 'wrk'].filter((part) =>
    r.runs.some((x) => x.cpu?.cores[part] !== undefined && x.cpu.cores[part] !== null),
  )
  const cpuRows = r.runs
    .filter((x) => x.cpu)
    .map(
      (x) =>
        `| ${x.label} | ${parts.map((part) => x.cpu!.usPerRequest[part] ?? '-').join(' | ')} | ${parts
          .map((part) => x.cpu!.cores[part] ?? '-')
          .join(' / ')} / ${x.cpu!.cores.idle} |`,
    )
  const cpu = cpuRows.length
    ? [
        `Where the CPU went (from /proc around each measured run): microseconds of CPU per request, and cores used ` +
          `(${parts.join(' / ')} / idle) of the machine's ${r.machine.cpus}. The catalog answers from one JavaScript ` +
          'thread ("catalog thread", part of the catalog\'s total): near 1 core it is the bound, whatever the database has left.',
        '',
        `| scenario | ${parts.map((part) => `${part} us/request`).join(' | ')} | cores (${parts.join(' / ')} / idle) |`,
        `|---|${parts.map(() => '---|').join('')}---|`,
        ...cpuRows,
        '',
      ]
    : []
  const targets = r.targets.map(
    (t) => `| ${t.result === null ? 'SKIP' : t.result.ok ? 'PASS' : 'FAIL'} | ${t.name} | ${t.result?.value ?? 'not measured'} |`,
  )
  return [
    `# Realistic bench ${r.date}`,
    '',
    `${r.events.toLocaleString('en')} published events; wrk -t1 -c${r.connections}, ${r.duration} s per scenario after a warm-up; ` +
      `${r.machine.cpus} cores, load average ${r.machine.load1.toFixed(2)} at the end (the machine is shared).`,
    '',
    '| scenario | rps | p50 ms | p99 ms | errors | cache hit rate | peak RSS MiB | writes |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...cpu,
    `Submission p99: idle ${r.submitIdleP99Ms} ms, under the mixed load ${r.submitLoadedP99Ms} ms.`,
    '',
    'pgbench -c8 ceilings (random parameters, the SQL the service sends; scripts in bench/results/ceiling-*.sql):',
    '',
    ...Object.entries(r.ceilings).map(([k, v]) => `- ${k}: ${v.toLocaleString('en')} tps`),
    '',
    '| result | target | measured |',
    '|---|---|---|',
    ...targets,
    '',
  ].join('\n')
}

function svg(r: Report): string {
  const width = 840
  const barH = 22
  const top = 40
  const left = 340
  const max = Math.max(...r.runs.map((x) => x.rps), 1)
  const bars = r.runs
    .map((x, i) => {
      const y = top + i * (barH + 8)
      const w = Math.max(2, ((width - left - 190) * x.rps) / max)
      return [
        `<text x="${left - 8}" y="${y + 15}" text-anchor="end" font-size="12">${x.label.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`,
        `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${x.name.startsWith('fixed') ? '#9aa5b1' : '#2f6fdb'}"/>`,
        `<text x="${left + w + 6}" y="${y + 15}" font-size="12">${x.rps.toLocaleString('en')} rps · p99 ${x.p99Ms} ms</text>`,
      ].join('')
    })
    .join('\n')
  const height = top + r.runs.length * (barH + 8) + 20
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="12" y="24" font-size="15" font-weight="bold">Requests per second by scenario (${r.events.toLocaleString('en')} events, ${r.date.slice(0, 10)}; grey: fixed URL, best case)</text>
${bars}
</svg>
`
}

/** Writes the report files; returns their paths. */
export function renderReport(report: Report, dir: string): string[] {
  const stamp = report.date.replace(/[:]/g, '').replace(/\..*/, '').replace('T', '-')
  const files: [string, string][] = [
    [`realistic-${stamp}.json`, `${JSON.stringify(report, null, 2)}\n`],
    [`realistic-${stamp}.md`, markdown(report)],
    [`realistic-${stamp}.svg`, svg(report)],
    ['realistic-latest.svg', svg(report)],
    ['realistic-latest.md', markdown(report)],
  ]
  for (const [name, text] of files) writeFileSync(join(dir, name), text)
  return files.map(([name]) => join(dir, name))
}
