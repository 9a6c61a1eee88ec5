// Soak: mixed traffic through the gateway of the local stack at a steady rate for a while,
// then checks that nothing degraded: zero errors other than designed 429s, p99 of the last
// window within 1.5x the first (every request but login's password hash), RSS of every service
// without a growth trend, no database connection left busy or above the pools' size. `bun run soak -- --minutes 10` (CI: 60 s).
import type { Subprocess } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { freePort, repoRoot, startStack, stopProcess, type ServiceProcess } from '../../scripts/stack-lib'
import { DEFAULT_READ_POOL } from '@app/kit'

const ADMIN = { username: 'soakadmin', password: 'kata-sandi-uji-soak-2026' }
const POOL_MAX = 10 // createDb's default pool size per process

export interface SoakResult {
  seconds: number
  requests: number
  byStatus: Record<string, number>
  errors: { kind: string; status: number; path: string }[]
  p99FirstMs: number
  p99LastMs: number
  windowSeconds: number
  /** per kind of request: p50 and p99 (ms) in the first and the last window */
  byKind: Record<string, { first: [number, number]; last: [number, number] }>
  rss: { name: string; samplesMiB: number[]; slopeMiBPerMin: number; meanMiB: number }[]
  connections: { total: number; busy: number; busyStatements?: string[]; limit: number }
  loadAverage: number[]
}

// every step of the mix, in order, repeated; reads use a fresh URL each time
type Step = 'read' | 'detail' | 'search' | 'news' | 'categories' | 'submit' | 'upload' | 'login' | 'moderate'
const MIX: Step[] = ['read', 'search', 'detail', 'news', 'read', 'categories', 'submit', 'search', 'upload', 'read', 'moderate', 'news', 'login']

const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)

const quantile = (values: number[], q: number) => {
  if (!values.length) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]
}
const p99 = (values: number[]) => quantile(values, 0.99)

/** Each value replaced by the median of three neighbouring values (at the ends: the first or last three). */
export function medianOfThree(values: number[]): number[] {
  if (values.length < 3) return values
  return values.map((_, i) => {
    const from = Math.min(Math.max(i - 1, 0), values.length - 3)
    return values.slice(from, from + 3).sort((a, b) => a - b)[1]
  })
}

/** Least-squares slope of y over x. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length
  if (n < 2) return 0
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my)
    den += (xs[i] - mx) ** 2
  }
  return den ? num / den : 0
}

function rssMiB(pid: number): number {
  try {
    const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

export async function runSoak(options: { seconds: number; concurrency?: number; pauseMs?: number; log?: (line: string) => void }): Promise<SoakResult> {
  const log = options.log ?? (() => {})
  const s3Dir = mkdtempSync(join(tmpdir(), 'soak-s3-'))
  const s3Port = freePort()
  let s3: Subprocess | undefined
  let stack: Awaited<ReturnType<typeof startStack>> | undefined
  try {
    s3 = Bun.spawn(['bun', 'test/faults/s3-server.ts', String(s3Port), s3Dir], { cwd: repoRoot, stdout: 'pipe', stderr: 'inherit' })
    const reader = (s3.stdout as ReadableStream<Uint8Array>).getReader()
    await Promise.race([reader.read(), Bun.sleep(30_000)])
    reader.releaseLock()
    stack = await startStack({
      gatewayPort: freePort(),
      catalogReplicas: 2,
      mediaReplicas: 2,
      s3: { endpoint: `http://127.0.0.1:${s3Port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'uploads' },
      adminUsername: ADMIN.username,
      adminPassword: ADMIN.password,
      // the limits stay on (a 429 is a designed answer); raised so writes continue all along
      env: { SUBMIT_LIMIT_PER_HOUR: '100000', UPLOAD_LIMIT_PER_MINUTE: '100000', CHECK_FILE_LIMIT_PER_MINUTE: '100000' },
    })
    const gw = stack.gateway
    log(`stack up at ${gw}; soaking ${options.seconds} s`)
    const categoryId = ((await (await fetch(`${gw}/api/categories?limit=1`)).json()) as any).data[0].id
    const slugs = (((await (await fetch(`${gw}/api/events?limit=100`)).json()) as any).data as any[]).map((e) => e.slug)
    let cookie = ''
    const pending: string[] = []
    const processes: ServiceProcess[] = [
      ...stack.services.catalog,
      stack.services.news,
      stack.services.admin,
      ...stack.services.media,
    ]

    const records: { at: number; ms: number; kind: Step; status: number; path: string }[] = []
    const started = performance.now()
    const endAt = started + options.seconds * 1000
    let n = 0
    const runId = `s${process.pid}`
    const send = async (step: Step, i: number): Promise<{ path: string; status: number }> => {
      const go = async (path: string, init?: RequestInit) => {
        const res = await fetch(`${gw}${path}`, { ...init, signal: AbortSignal.timeout(15_000) })
        const body = (await res.json().catch(() => null)) as any
        return { path, status: res.status, body }
      }
      const json = (body: unknown, extra: Record<string, string> = {}) => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extra },
        body: JSON.stringify(body),
      })
      switch (step) {
        case 'read':
          return go(`/api/events?page=${2 + (i % 400)}&limit=${1 + (i % 11)}&sort=${['created_at_desc', 'start_date_asc'][i % 2]}`)
        case 'detail':
          return go(`/api/events/${slugs[i % slugs.length]}`)
        case 'search':
          return go(`/api/events?q=${encodeURIComponent(['jazz', 'festival', 'lari', 'pameran', 'konser', 'seni'][i % 6] + (i % 50))}`)
        case 'news':
          return go(`/api/news?page=${1 + (i % 300)}`)
        case 'categories':
          return go(`/api/categories?q=${'abcdefghijklmnopqrstu'[i % 21]}&page=${1 + (i % 3)}`)
        case 'submit': {
          const r = await go(
            '/api/events/submit',
            json({
              title: `Acara Soak ${runId} ${i}`,
              category_id: categoryId,
              start_date: '2031-08-01',
              start_time: '18:00',
              organizer_name: 'Tim Soak',
              contact_email: 'soak@example.id',
              tags: `Soak, Uji ${i % 20}`,
            }),
          )
          if (r.status === 201) pending.push(r.body.event.id)
          return r
        }
        case 'upload': {
          const form = new FormData()
          form.append('file', new File([PNG], 'p.png', { type: 'image/png' }))
          return go('/api/upload', { method: 'POST', body: form })
        }
        case 'login': {
          const res = await fetch(`${gw}/api/admin/login`, { ...json(ADMIN), signal: AbortSignal.timeout(15_000) })
          await res.arrayBuffer()
          if (res.ok) cookie = res.headers.get('set-cookie')!.split(';')[0]
          return { path: '/api/admin/login', status: res.status }
        }
        case 'moderate': {
          const id = pending.shift()
          if (!cookie || !id) return go(`/api/admin/events?status=pending&page=${1 + (i % 5)}`, { headers: { cookie } })
          return i % 2
            ? go(`/api/admin/events/${id}/approve`, json(undefined, { cookie }))
            : go(`/api/admin/events/${id}/reject`, json({ reason: 'Uji soak' }, { cookie }))
        }
      }
    }
    const worker = async () => {
      while (performance.now() < endAt && n < 1_000_000) {
        const i = n++
        const step = MIX[i % MIX.length]
        const at = performance.now()
        const r = await send(step, i).catch(() => ({ path: step, status: 0 }))
        records.push({ at: at - started, ms: performance.now() - at, kind: step, status: r.status, path: r.path })
        await Bun.sleep(options.pauseMs ?? 40)
      }
    }
    // log in before the loop so moderation has a session from the start
    await send('login', 0)

    const samples: { t: number; rss: number[] }[] = []
    const sampleEvery = Math.max(2000, (options.seconds * 1000) / 30)
    const sampler = (async () => {
      while (performance.now() < endAt) {
        samples.push({ t: (performance.now() - started) / 60_000, rss: processes.map((p) => rssMiB(p.proc.pid)) })
        await Bun.sleep(sampleEvery)
      }
    })()
    await Promise.all([...Array.from({ length: options.concurrency ?? 4 }, worker), sampler])
    const seconds = (performance.now() - started) / 1000

    const windowMs = Math.min(60_000, (options.seconds * 1000) / 3)
    const firstRecords = records.filter((r) => r.at < windowMs)
    const lastRecords = records.filter((r) => r.at >= seconds * 1000 - windowMs)
    // the steadiness check leaves out login: its time is a deliberately slow password hash (about
    // 250 ms of CPU), so its p99 is the whole mix's p99 and would measure only how busy the
    // shared machine is at that moment; it is shown by kind below
    const first = firstRecords.filter((r) => r.kind !== 'login').map((r) => r.ms)
    const last = lastRecords.filter((r) => r.kind !== 'login').map((r) => r.ms)
    const byKind: SoakResult['byKind'] = {}
    for (const kind of new Set(MIX)) {
      const of = (list: typeof records) => list.filter((r) => r.kind === kind).map((r) => r.ms)
      const pair = (ms: number[]): [number, number] => [quantile(ms, 0.5), quantile(ms, 0.99)]
      byKind[kind] = { first: pair(of(firstRecords)), last: pair(of(lastRecords)) }
    }
    const byStatus: Record<string, number> = {}
    for (const r of records) byStatus[`${r.kind} ${r.status}`] = (byStatus[`${r.kind} ${r.status}`] ?? 0) + 1
    const designed = (s: number) => s === 200 || s === 201 || s === 429
    // after a warm-up quarter, the trend of each process's RSS
    const settled = samples.slice(Math.floor(samples.length / 4))
    const rss = processes.map((p, k) => {
      // each sample as the median of it and its neighbours: the admin process's password hash
      // holds 64 MiB for a moment (one sample in five shows it), a spike, not a trend; a leak
      // moves the medians as much as the samples
      const ys = medianOfThree(settled.map((s) => s.rss[k]))
      return {
        name: p.name,
        samplesMiB: samples.map((s) => Math.round(s.rss[k] * 10) / 10),
        slopeMiBPerMin: slope(
          settled.map((s) => s.t),
          ys,
        ),
        meanMiB: ys.reduce((a, b) => a + b, 0) / Math.max(1, ys.length),
      }
    })

    // give the pools a moment to return what the last requests held
    await Bun.sleep(1000)
    const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} })
    const [conn] = await sql<{ total: number }[]>`
      select count(*)::int as total from pg_stat_activity where application_name = 'event-catalog'`
    // A statement the services run on their own (the cache's heartbeat, the list index's refresh)
    // may be caught in flight; one a request left behind stays: busy is the same statement (or
    // open transaction) in each of five looks over 2 s
    let busy: { pid: number; state: string; started: string; query: string }[] = []
    for (let look = 0; look < 5; look++) {
      const seen = await sql<typeof busy>`
        select pid, state, coalesce(query_start::text, '') as started, left(query, 120) as query
        from pg_stat_activity
        where application_name = 'event-catalog' and state <> 'idle' and query not ilike 'listen%'`
      busy = look === 0 ? seen : seen.filter((s) => busy.some((b) => b.pid === s.pid && b.started === s.started))
      if (!busy.length) break
      await Bun.sleep(500)
    }
    await sql.end({ timeout: 5 })
    // each process: its pool plus one dedicated LISTEN connection; a catalog process also its read pool
    const limit = (processes.length + 1) * (POOL_MAX + 1) + stack.services.catalog.length * DEFAULT_READ_POOL
    return {
      seconds,
      requests: records.length,
      byStatus,
      errors: records.filter((r) => !designed(r.status)).map(({ kind, status, path }) => ({ kind, status, path })),
      p99FirstMs: p99(first),
      p99LastMs: p99(last),
      windowSeconds: windowMs / 1000,
      byKind,
      rss,
      connections: {
        total: conn.total,
        busy: busy.length,
        busyStatements: busy.map((b) => `${b.state}: ${b.query}`),
        limit,
      },
      loadAverage: loadavg(),
    }
  } finally {
    await stack?.stop()
    if (s3) await stopProcess(s3)
    rmSync(s3Dir, { recursive: true, force: true })
  }
}

/** The checks, as a list of failures (empty: the soak passed). */
export function soakFailures(r: SoakResult): string[] {
  const failures: string[] = []
  if (r.errors.length) failures.push(`${r.errors.length} errors: ${JSON.stringify(r.errors.slice(0, 5))}`)
  // 1.5x, with 25 ms of slack: on a shared 2-core machine a few ms of scheduler noise would
  // otherwise decide a 10 ms p99
  if (r.p99LastMs > r.p99FirstMs * 1.5 + 25) failures.push(`p99 ${r.p99LastMs.toFixed(1)} ms in the last window, ${r.p99FirstMs.toFixed(1)} ms in the first`)
  for (const p of r.rss) {
    // growth projected over the whole run. From 5 minutes on: at most 10% of its RSS or 8 MiB.
    // A shorter run is still warming up (JIT, the byte-bounded response caches filling): there
    // only a gross leak (half its RSS again) fails; the samples are printed either way.
    const growth = p.slopeMiBPerMin * (r.seconds / 60)
    const allowed = r.seconds >= 300 ? Math.max(8, p.meanMiB * 0.1) : p.meanMiB * 0.5
    if (growth > allowed) failures.push(`${p.name}: RSS grows ${p.slopeMiBPerMin.toFixed(2)} MiB/min`)
  }
  if (r.connections.busy > 0)
    failures.push(
      `${r.connections.busy} database connections still busy after the soak (${r.connections.busyStatements?.join('; ')})`,
    )
  if (r.connections.total > r.connections.limit) failures.push(`${r.connections.total} database connections, pools allow ${r.connections.limit}`)
  return failures
}

export function report(r: SoakResult): string {
  const lines = [
    `soak: ${r.requests} requests in ${r.seconds.toFixed(0)} s (${(r.requests / r.seconds).toFixed(1)}/s), load average ${r.loadAverage.map((l) => l.toFixed(2)).join(' ')}`,
    `answers: ${JSON.stringify(r.byStatus)}`,
    `errors (not 2xx/429): ${r.errors.length}`,
    `p99 (all but login) first ${r.windowSeconds.toFixed(0)} s: ${r.p99FirstMs.toFixed(1)} ms; last ${r.windowSeconds.toFixed(0)} s: ${r.p99LastMs.toFixed(1)} ms (ratio ${(r.p99LastMs / Math.max(0.1, r.p99FirstMs)).toFixed(2)})`,
    'p50 / p99 (ms) by kind, first window -> last:',
    ...Object.entries(r.byKind).map(
      ([kind, k]) => `  ${kind.padEnd(10)} ${k.first.map((v) => v.toFixed(0)).join(' / ')} -> ${k.last.map((v) => v.toFixed(0)).join(' / ')}`,
    ),
    `database connections after: ${r.connections.total} (busy ${r.connections.busy}, pools allow ${r.connections.limit})`,
    'RSS samples (MiB) and slope after warm-up (of the medians of three):',
    ...r.rss.map((p) => `  ${p.name.padEnd(10)} slope ${p.slopeMiBPerMin.toFixed(2).padStart(6)} MiB/min  ${p.samplesMiB.join(' ')}`),
  ]
  return lines.join('\n')
}

if (import.meta.main) {
  const args = process.argv.slice(2)
  const minutes = Number(args[args.indexOf('--minutes') + 1] || 10)
  if (!(minutes > 0 && minutes <= 120)) {
    console.error('--minutes must be from 0 to 120')
    process.exit(1)
  }
  const result = await runSoak({ seconds: minutes * 60, log: (l) => console.log(`[soak] ${l}`) })
  const text = report(result)
  const failures = soakFailures(result)
  console.log(text)
  console.log(failures.length ? `FAILED:\n${failures.join('\n')}` : 'PASSED')
  if (args.includes('--record')) {
    const file = join(repoRoot, 'bench/results', `soak-${new Date().toISOString().slice(0, 16).replace(/[:T]/g, '')}.md`)
    await Bun.write(file, `# Soak, ${minutes} min\n\n\`bun run soak -- --minutes ${minutes}\`\n\n\`\`\`\n${text}\n${failures.length ? `FAILED:\n${failures.join('\n')}` : 'PASSED'}\n\`\`\`\n`)
    console.log(`recorded in ${file}`)
  }
  process.exit(failures.length ? 1 : 0)
}
