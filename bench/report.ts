// The benchmark report: its JSON shape, the issue's targets (PASS/FAIL) and the Markdown page.
// Used by bench/run.ts; bench/chart.ts draws the SVG from the same JSON.

export interface HttpRun {
  scenario: string
  /** direct = straight to the service, caddy = through the gateway, peer = Directus */
  target: 'direct' | 'caddy' | 'peer'
  label: string
  url: string
  connections: number
  seconds: number
  requests: number
  rps: number
  /** response size on the wire, headers included */
  bytesPerResponse: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  /** wrk socket errors: connect + read + write + timeout */
  socketErrors: number
  timeouts: number
  /** responses with a status >= 400 (wrk's "Non-2xx or 3xx responses") */
  non2xx: number
  errors: number
  /** per watched process: CPU % of one core during the run, peak RSS (VmHWM) in MiB */
  processes: Record<string, { cpuPct: number | null; peakRssMiB: number | null }>
  wrkCpuPct: number | null
  /** the PostgreSQL server (postmaster and backends), when it runs on this machine */
  postgresCpuPct: number | null
  /** ~transactions (= queries, autocommit) per second the database ran during the run */
  dbTransactionsPerSec: number | null
  /** every core together, 100 = one core busy */
  machineCpuPct: number
  /** CPU time the hypervisor gave to other guests (part of "other") */
  stealPct?: number
  /** machine minus everything above: other processes on the machine (noise) */
  otherCpuPct: number | null
  load1: number[]
  /** how busy the machine was (other processes) just before the run, % of one core */
  busyBeforePct: number | null
  /** wrk runs made for this figure (repeats and retries of noisy runs) */
  attempts?: number
  /** rps of each repeat when --repeat > 1 */
  repeats?: number[]
  /** other processes took more than 25% of a core during the kept run */
  noisy?: boolean
  raw: string
}

export interface Ceiling {
  name: string
  /** the scenario it bounds ('warm' for the service's per-request SQL) */
  scenario: string
  kind: 'straightforward' | 'service-warm' | 'peer'
  file: string
  clients: number
  tps: number
  latencyMs: number
  failed: number
  transactions: number
  raw: string
}

export interface TargetResult {
  name: string
  measured: string
  threshold: string
  verdict: 'PASS' | 'FAIL' | 'n/a'
}

export interface BenchReport {
  stamp: string
  startedAt: string
  finishedAt?: string
  command: string
  commit: string | null
  machine: {
    cores: number
    cpuModel: string
    memoryGiB: number
    kernel: string
    bun: string
    pgbench: string | null
    caddy: string | null
    wrk: string | null
    load1AtStart: number
    load1AtEnd?: number
  }
  settings: {
    wrk: string
    pgbench: string
    connections: number
    qConnections: number
    durationSeconds: number
    warmupSeconds: number
    pgbenchSeconds: number
  }
  database: {
    throwaway: boolean
    settings: Record<string, string>
    dataset: Record<string, number>
    dataSeconds: number | null
    visibility: { pages: number; visible: number; attempts: number } | null
  }
  params: {
    city: string
    category: string
    slug: string
    q: string
    filteredTotal: number | null
    qTotal: number | null
    listTotal: number | null
  }
  idleRssMiB?: Record<string, number>
  http: HttpRun[]
  ceilings: Ceiling[]
  peer: {
    requested: boolean
    error: string | null
    setupSeconds?: number
    directus?: string
    node?: string
    postgres?: string
    idleRssMiB?: number | null
    params?: { city: string; category: string; slug: string }
  }
  targets: TargetResult[]
}

/** 150 MB, as the issue says it (decimal megabytes), in MiB. */
export const RSS_LIMIT_MIB = 150e6 / 1024 / 1024

export const SCENARIO_ORDER = ['list', 'filtered', 'search', 'detail', 'categories', 'news', 'health']
export const PEER_OF: Record<string, string> = { list: 'a', filtered: 'b', detail: 'c', health: 'd' }

export function findRun(report: BenchReport, scenario: string, target: HttpRun['target']) {
  return report.http.find((r) => r.scenario === scenario && r.target === target)
}
export function findCeiling(report: BenchReport, name: string) {
  return report.ceilings.find((c) => c.name === name)
}

const x = (n: number) => `${n >= 10 ? n.toFixed(1) : n.toFixed(2)}x`
const pct = (n: number) => `${Math.round(n * 100)}%`

const noisyNote = (...runs: (HttpRun | undefined)[]) =>
  runs.some((r) => r?.noisy) ? ' (noisy run: other processes were busy)' : ''

export function evaluateTargets(report: BenchReport): TargetResult[] {
  const targets: TargetResult[] = []
  const verdict = (ok: boolean | null): TargetResult['verdict'] => (ok === null ? 'n/a' : ok ? 'PASS' : 'FAIL')

  for (const [scenario, label] of [
    ['list', 'default list'],
    ['filtered', 'filtered list'],
  ]) {
    const run = findRun(report, scenario, 'direct')
    const ceiling = findCeiling(report, scenario)
    const ratio = run && ceiling ? run.rps / ceiling.tps : null
    targets.push({
      name: `${label} vs straightforward-SQL ceiling`,
      measured: ratio === null ? 'not measured' : `${run!.rps} rps / ${ceiling!.tps} tps = ${x(ratio)}${noisyNote(run)}`,
      threshold: '>= 3x',
      verdict: verdict(ratio === null ? null : ratio >= 3),
    })
  }
  {
    const run = findRun(report, 'detail', 'direct')
    const ceiling = findCeiling(report, 'detail')
    const ratio = run && ceiling ? run.rps / ceiling.tps : null
    targets.push({
      name: 'detail vs its SQL ceiling',
      measured: ratio === null ? 'not measured' : `${run!.rps} rps / ${ceiling!.tps} tps = ${pct(ratio)}${noisyNote(run)}`,
      threshold: '>= 50%',
      verdict: verdict(ratio === null ? null : ratio >= 0.5),
    })
  }
  for (const [scenario, label] of [
    ['list', 'default list'],
    ['filtered', 'filtered list'],
    ['detail', 'detail'],
  ]) {
    const run = findRun(report, scenario, 'direct')
    const peer = findRun(report, PEER_OF[scenario], 'peer')
    const ratio = run && peer ? run.rps / Math.max(peer.rps, 1) : null
    targets.push({
      name: `${label} vs Directus (${PEER_OF[scenario]})`,
      measured:
        ratio === null
          ? report.peer.requested
            ? `peer not measured${report.peer.error ? `: ${report.peer.error.split('\n')[0]}` : ''}`
            : 'run with --peer'
          : `${run!.rps} / ${peer!.rps} rps = ${x(ratio)}${noisyNote(run, peer)}`,
      threshold: '>= 10x',
      verdict: verdict(ratio === null ? null : ratio >= 10),
    })
  }
  const trivial = findRun(report, 'health', 'caddy')
  for (const scenario of SCENARIO_ORDER.filter((s) => s !== 'health')) {
    const run = findRun(report, scenario, 'caddy')
    if (!run) continue
    const ratio = trivial ? run.rps / trivial.rps : null
    targets.push({
      name: `${scenario} through Caddy vs Caddy-proxied /health`,
      measured:
        ratio === null
          ? 'trivial endpoint not measured'
          : `${run.rps} / ${trivial!.rps} rps = ${pct(ratio)}${noisyNote(run, trivial)}`,
      threshold: '>= 70%',
      verdict: verdict(ratio === null ? null : ratio >= 0.7),
    })
  }
  for (const target of ['direct', 'caddy'] as const) {
    const run = findRun(report, 'search', target)
    if (!run) continue
    targets.push({
      name: `q search p99 (${target}, ${run.connections} connections)`,
      measured: `${run.p99Ms} ms${noisyNote(run)}`,
      threshold: '< 50 ms',
      verdict: verdict(run.p99Ms < 50),
    })
  }
  const ours = report.http.filter((r) => r.target !== 'peer')
  if (ours.length) {
    const errors = ours.reduce((n, r) => n + r.errors, 0)
    const failed = report.ceilings.filter((c) => c.kind !== 'peer').reduce((n, c) => n + c.failed, 0)
    targets.push({
      name: 'errors (all wrk runs of our API)',
      measured: `${errors} (socket ${ours.reduce((n, r) => n + r.socketErrors, 0)}, status >= 400 ${ours.reduce((n, r) => n + r.non2xx, 0)}); pgbench failed ${failed}`,
      threshold: '0',
      verdict: verdict(errors === 0),
    })
  }
  for (const service of ['catalog', 'news']) {
    const peaks = ours.map((r) => r.processes[service]?.peakRssMiB).filter((v): v is number => typeof v === 'number')
    if (!peaks.length) continue
    const peak = Math.max(...peaks)
    targets.push({
      name: `${service} peak RSS under load`,
      measured: `${peak} MiB`,
      threshold: `< 150 MB (${RSS_LIMIT_MIB.toFixed(1)} MiB)`,
      verdict: verdict(peak < RSS_LIMIT_MIB),
    })
  }
  return targets
}

// ------------------------------------------------------------------ Markdown

/** rps, marked when noisy, with every repeat when --repeat > 1 (the median is the figure) */
const rpsCell = (r: HttpRun) => `${r.rps}${r.repeats ? ` (${r.repeats.join(' / ')})` : ''}${r.noisy ? ' (noisy)' : ''}`

const cell = (v: unknown) => (v === null || v === undefined || Number.isNaN(v) ? '-' : String(v))
function table(header: string[], rows: unknown[][]) {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n')
}

export function renderMarkdown(report: BenchReport): string {
  const m = report.machine
  const d = report.database
  const p = report.params
  const out: string[] = []
  out.push(`# Benchmark ${report.stamp}`, '')
  out.push(
    `\`${report.command}\`${report.commit ? ` at ${report.commit}` : ''}, ${report.startedAt} to ${report.finishedAt ?? '?'}.`,
    '',
  )
  out.push('## Machine and settings', '')
  out.push(
    `- ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, Linux ${m.kernel}; load average (1 min) ${m.load1AtStart} at start, ${m.load1AtEnd ?? '?'} at the end`,
    `- Bun ${m.bun}; PostgreSQL ${d.settings.server_version ?? '?'} (${d.throwaway ? 'throwaway cluster' : 'DATABASE_URL'}: ` +
      Object.entries(d.settings)
        .filter(([k]) => k !== 'server_version')
        .map(([k, v]) => `${k}=${v}`)
        .join(', ') +
      `); ${m.pgbench ?? 'pgbench ?'}; Caddy ${m.caddy ?? '?'}; ${m.wrk ?? 'wrk ?'}`,
    `- ${report.settings.wrk}`,
    `- ${report.settings.pgbench}`,
    `- dataset: ${Object.entries(d.dataset)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}` +
      (d.dataSeconds !== null ? `; loaded by bench/data.ts in this run (${d.dataSeconds} s)` : '; loaded before this run') +
      (d.visibility ? `; events visibility map ${d.visibility.visible}/${d.visibility.pages} pages` : ''),
    `- parameters: kota=${p.city} kategori=${p.category} (${cell(p.filteredTotal)} matches), q=${p.q} (${cell(p.qTotal)} matches), ` +
      `detail slug ${p.slug} (the 501st newest published event), ${cell(p.listTotal)} published events`,
  )
  if (report.idleRssMiB)
    out.push(
      `- idle RSS before the runs: ${Object.entries(report.idleRssMiB)
        .map(([k, v]) => `${k} ${v} MiB`)
        .join(', ')}`,
    )
  out.push('')

  out.push('## Targets', '')
  out.push(
    table(
      ['target', 'measured', 'threshold', 'verdict'],
      report.targets.map((t) => [t.name, t.measured, t.threshold, `**${t.verdict}**`]),
    ),
    '',
  )

  out.push(`![requests per second](${report.stamp}.svg)`, '')

  out.push('## HTTP (wrk)', '')
  out.push(
    'rps = requests per second (with --repeat: the median run, every run in brackets; p50, p99 and the rest are from the median run); p50/p99 in ms; errors = socket errors (incl. 2 s timeouts) + responses with status >= 400; ' +
      'peak RSS = VmHWM of the service process during that run (reset before it); CPU in % of one core over the run: ' +
      'the service, Caddy, PostgreSQL (all its processes), wrk itself, other = everything else on the machine (not ours: ' +
      'noise; in brackets the part the hypervisor gave to other guests, "steal"), machine = all of it (200% = both cores busy). db queries / request = transactions the database ran ' +
      '(pg_stat_database, approximate) per HTTP request.',
    '',
  )
  const ordered = SCENARIO_ORDER.flatMap((s) => report.http.filter((r) => r.scenario === s && r.target !== 'peer'))
  out.push(
    table(
      [
        'scenario',
        'via',
        'conns',
        'rps',
        'p50',
        'p99',
        'errors',
        'bytes / response',
        'peak RSS MiB',
        'CPU % service',
        'Caddy',
        'Postgres',
        'wrk',
        'other (steal)',
        'machine',
        'db queries / request',
      ],
      ordered.map((r) => {
        const service = Object.keys(r.processes).find((k) => k !== 'caddy')
        return [
          r.label,
          r.target,
          r.connections,
          rpsCell(r),
          r.p50Ms,
          r.p99Ms,
          r.errors,
          r.bytesPerResponse,
          service ? r.processes[service]?.peakRssMiB : null,
          service ? r.processes[service]?.cpuPct : null,
          r.processes.caddy?.cpuPct ?? null,
          r.postgresCpuPct,
          r.wrkCpuPct,
          r.otherCpuPct === null ? null : `${r.otherCpuPct} (${r.stealPct ?? '-'})`,
          r.machineCpuPct,
          r.dbTransactionsPerSec !== null && r.rps > 0 ? (r.dbTransactionsPerSec / r.rps).toFixed(2) : null,
        ]
      }),
    ),
    '',
  )
  out.push('URLs (path after the service or gateway address):', '')
  for (const s of SCENARIO_ORDER) {
    const r = report.http.find((h) => h.scenario === s && h.target === 'direct')
    if (r) out.push(`- ${s}: \`${new URL(r.url).pathname}${new URL(r.url).search}\``)
  }
  out.push('')

  out.push('## SQL ceilings (pgbench)', '')
  out.push(
    'straightforward = what an implementation without a response cache issues per request: the page query plus an exact ' +
      '`count(*)` of the filter (bench/sql/*.sql); service-warm = the version lookup our service issues per request only when ' +
      'its invalidation listener is not trusted (with a trusted listener a cache hit issues no SQL: see "db queries / request" ' +
      'above). tps = transactions (= requests) per second.',
    '',
  )
  out.push(
    table(
      ['ceiling', 'kind', 'file', 'clients', 'tps', 'avg latency ms', 'failed', 'service rps (direct) / tps'],
      report.ceilings
        .filter((c) => c.kind !== 'peer')
        .map((c) => {
          const run = findRun(report, c.scenario, 'direct')
          return [c.name, c.kind, `\`${c.file}\``, c.clients, c.tps, c.latencyMs, c.failed, run ? x(run.rps / c.tps) : '-']
        }),
    ),
    '',
  )

  out.push('## Directus peer', '')
  if (!report.peer.requested) out.push('Not run (`bun run bench -- --peer`).', '')
  else if (report.peer.error && !report.http.some((r) => r.target === 'peer'))
    out.push('Failed: `' + report.peer.error.split('\n')[0] + '`', '')
  else {
    const peer = report.peer
    out.push(
      `Directus ${peer.directus} on Node ${peer.node}, PostgreSQL ${peer.postgres} (its own throwaway cluster and 100k-event seed, ` +
        `/work/shared/peer), same wrk settings; slug ${peer.params?.slug}; idle RSS ${cell(peer.idleRssMiB)} MiB` +
        (peer.setupSeconds !== undefined ? `; setup.sh took ${peer.setupSeconds} s` : '') +
        '.',
      '',
    )
    out.push(
      table(
        [
          'scenario',
          'rps',
          'p50',
          'p99',
          'errors',
          'peak RSS MiB',
          'CPU % node',
          'Postgres',
          'other',
          'db queries / request',
          'our direct rps',
          'ours / Directus',
        ],
        report.http
          .filter((r) => r.target === 'peer')
          .map((r) => {
            const ours = Object.entries(PEER_OF).find(([, v]) => v === r.scenario)?.[0]
            const own = ours ? findRun(report, ours, 'direct') : undefined
            return [
              r.label,
              rpsCell(r),
              r.p50Ms,
              r.p99Ms,
              r.errors,
              r.processes.directus?.peakRssMiB,
              r.processes.directus?.cpuPct,
              r.postgresCpuPct,
              r.otherCpuPct,
              r.dbTransactionsPerSec !== null && r.rps > 0 ? (r.dbTransactionsPerSec / r.rps).toFixed(2) : null,
              own?.rps,
              own ? x(own.rps / Math.max(1, r.rps)) : '-',
            ]
          }),
      ),
      '',
    )
    const peerCeilings = report.ceilings.filter((c) => c.kind === 'peer')
    if (peerCeilings.length)
      out.push(
        "Its own pgbench ceilings (the peer's SQL on its schema, same clients):",
        '',
        table(
          ['ceiling', 'file', 'clients', 'tps', 'avg latency ms'],
          peerCeilings.map((c) => [c.name, `\`${c.file}\``, c.clients, c.tps, c.latencyMs]),
        ),
        '',
      )
  }

  out.push('## How to read this', '')
  out.push(
    '- The service answers public GETs from an in-process cache that is exactly invalidated: every write bumps a ' +
      '`data_versions` row and NOTIFYs it; each replica LISTENs, drops its cache on a bump and acknowledges, and writers ' +
      'wait for the acknowledgements before answering (shared/kit/src/invalidation.ts). wrk repeats one URL, so after the ' +
      'warm-up every request is a cache hit: HTTP work only, no SQL, which is why the service can beat the ' +
      'straightforward-SQL ceiling by far.',
    '- The ceilings run PostgreSQL alone with pgbench on the same machine at the same concurrency, without any HTTP, ' +
      'JSON or application work: an implementation that issues that SQL per request cannot be faster than that.',
    '- "via caddy" is the same URL through the gateway; its target compares it with the Caddy-proxied `/health`, ' +
      'the framework ceiling through the same proxy.',
    '- The machine has 2 cores shared by wrk, the service, Caddy and PostgreSQL (and anything else running: see the ' +
      'load averages and the machine CPU column). Expect ~10% noise between runs.',
    '',
  )
  return out.join('\n')
}
