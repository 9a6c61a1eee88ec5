// bun run bench [-- --peer] [--reseed] [--events 100000] [--duration 10] [--warmup 3]
//               [--connections 32] [--q-connections 16] [--pgbench-time 10] [--only list,detail]
//
// One reproducible benchmark run (see bench/README.md):
//   1. PostgreSQL: DATABASE_URL, or a throwaway cluster (scripts/stack-lib.ts createCluster) given
//      the peer's settings with ALTER SYSTEM + restart; the bench catalogue is loaded with
//      bench/data.ts when missing (or --reseed), and VACUUMed until settled.
//   2. The catalog and news services (`bun services/<name>/src/main.ts`, so the pid we read
//      /proc of is the server itself) and Caddy in static mode in front (caddy/Caddyfile).
//   3. wrk per scenario, straight to the service and through Caddy, after a warm-up: rps,
//      p50/p99, errors (socket errors + status >= 400), the service's peak RSS (VmHWM, reset
//      through /proc/<pid>/clear_refs before each run) and CPU of service, Caddy, wrk, machine.
//   4. pgbench ceilings at the same concurrency: the SQL a straightforward implementation
//      issues (page + exact count, bench/sql/*.sql) and the SQL the service issues when warm.
//   5. --peer: the Directus peer (/work/shared/peer: setup.sh with KEEP_RUNNING=1, wrk on its
//      scenarios a/b/c/d, its own pgbench scripts, stop.sh), in the same run and report.
//   6. bench/results/<stamp>.json + .md + .svg (bench/chart.ts; also latest.svg), targets printed
//      with PASS/FAIL. Everything started here is stopped again, also on errors and Ctrl-C.
import type { Subprocess } from 'bun'
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { createDb, migrateDb } from '@app/db'
import { createCluster, freePort, repoRoot, stopProcess, type Cluster } from '../scripts/stack-lib'
import { writeChart } from './chart'
import { evaluateTargets, renderMarkdown, type BenchReport, type Ceiling, type HttpRun, type TargetResult } from './report'
import { datasetCounts } from './dataset'

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    peer: { type: 'boolean', default: false },
    reseed: { type: 'boolean', default: false },
    events: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'q-connections': { type: 'string', default: '16' },
    'pgbench-time': { type: 'string', default: '10' },
    only: { type: 'string' },
    'quiet-wait': { type: 'string', default: '30' },
    repeat: { type: 'string', default: '1' },
    'noisy-retries': { type: 'string', default: '2' },
    'skip-pgbench': { type: 'boolean', default: false },
  },
})

const EVENTS = Number(args.events)
const DURATION = Number(args.duration)
const WARMUP = Number(args.warmup)
const CONNECTIONS = Number(args.connections)
const Q_CONNECTIONS = Number(args['q-connections'])
const PGBENCH_TIME = Number(args['pgbench-time'])
const ONLY = args.only ? new Set(args.only.split(',')) : null
const QUIET_WAIT = Number(args['quiet-wait'])
const REPEAT = Math.max(1, Number(args.repeat))
const NOISY_RETRIES = Math.max(0, Number(args['noisy-retries']))
/** a run during which other processes used more than this (% of one core) counts as noisy */
const NOISY_OTHER_PCT = 25
let quietBudget = 300
const PEER_DIR = process.env.PEER_DIR || join(process.env.TMPDIR || '/tmp', 'peer')
const PEER_SCRIPTS = process.env.PEER_SCRIPTS || '/work/shared/peer'
const BENCH_DIR = join(repoRoot, 'bench')
const RESULTS_DIR = join(BENCH_DIR, 'results')
const WRK_SCRIPT = join(BENCH_DIR, 'wrk', 'report.lua')

// The throwaway cluster gets the peer's postgresql.conf additions (/work/shared/peer/lib.sh), so
// both are measured on the same database settings. createCluster adds fsync=off and
// max_connections=200 on the command line (irrelevant for these read-only runs).
const PG_SETTINGS: Record<string, string> = {
  shared_buffers: '512MB',
  effective_cache_size: '4GB',
  work_mem: '16MB',
  maintenance_work_mem: '256MB',
  synchronous_commit: 'off',
  jit: 'off',
}

const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`)
const fail = (message: string): never => {
  throw new BenchError(message)
}
class BenchError extends Error {}

// ------------------------------------------------------------------ cleanup

const cleanups: { name: string; fn: () => Promise<unknown> }[] = []
let cleaning: Promise<void> | null = null
function onCleanup(name: string, fn: () => Promise<unknown>) {
  cleanups.push({ name, fn })
}
/** Child processes running right now (wrk, pgbench, bench/data.ts, the peer's setup.sh). */
const running = new Set<Subprocess>()
function track<T extends Subprocess>(proc: T): T {
  running.add(proc)
  void proc.exited.then(() => running.delete(proc))
  return proc
}
function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    for (const proc of running) proc.kill('SIGTERM')
    while (cleanups.length) {
      const { name, fn } = cleanups.pop()!
      try {
        await fn()
      } catch (error) {
        console.error(`[bench] cleanup "${name}" failed: ${(error as Error).message}`)
      }
    }
  })()
  return cleaning
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    console.error(`\n[bench] ${signal}: stopping everything this run started`)
    void cleanupAll().finally(() => process.exit(130))
  })

// ------------------------------------------------------------------ small helpers

function requireTools() {
  const tools: [string, string][] = [
    ['wrk', 'apt-get install wrk'],
    ['pgbench', 'apt-get install postgresql-client (or postgresql)'],
    ['caddy', 'apt-get install caddy'],
  ]
  if (args.peer)
    tools.push(['node', 'apt-get install nodejs npm'], ['npm', 'apt-get install npm'], ['curl', 'apt-get install curl'])
  const missing = tools.filter(([tool]) => !Bun.which(tool))
  if (missing.length)
    fail(
      `missing tools (this script installs nothing):\n` +
        missing.map(([tool, how]) => `  ${tool}: ${how}`).join('\n') +
        `\n(apt-get update first; a throwaway PostgreSQL cluster also needs the server: apt-get install postgresql)`,
    )
}

function run(cmd: string[], options: { env?: Record<string, string | undefined> } = {}): { ok: boolean; out: string } {
  const proc = Bun.spawnSync(cmd, { env: options.env as Record<string, string>, stdout: 'pipe', stderr: 'pipe' })
  return { ok: proc.success, out: (proc.stdout.toString() + proc.stderr.toString()).trim() }
}

function firstLine(text: string) {
  return text.split('\n').find((l) => l.trim()) ?? ''
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, alive?: () => boolean) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    if (alive && !alive()) fail(`${what} exited while starting`)
    await Bun.sleep(100)
  }
  fail(`${what} not ready within ${timeoutMs / 1000} s`)
}

const httpOk = (url: string) => async () => (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok

const CLK_TCK = Number(run(['getconf', 'CLK_TCK']).out) || 100

/** user + system CPU seconds of a process so far (null when it is gone). */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
  } catch {
    return null
  }
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
function machineTicks(): { busy: number; total: number; steal: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const n = values.map(Number)
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0)
  const idle = n[3] + n[4]
  // steal: time the hypervisor gave our virtual CPUs to someone else
  return { busy: total - idle, total, steal: n[7] ?? 0 }
}

/** user + system CPU seconds of a process and its children (the postmaster and its backends). */
function treeCpu(rootPid: number): Map<number, number> {
  const seconds = new Map<number, number>()
  const own = cpuSeconds(rootPid)
  if (own === null) return seconds
  seconds.set(rootPid, own)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) === rootPid) seconds.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / CLK_TCK)
    } catch {
      // gone meanwhile
    }
  }
  return seconds
}
function treeCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0)
  return total
}

/** The postmaster pid of a local server (null when it cannot be found, e.g. a remote one). */
async function postmasterPid(databaseUrl: string): Promise<number | null> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const [{ dir }] = await sql<{ dir: string }[]>`select current_setting('data_directory') as dir`
    const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
    return pid > 0 && existsSync(`/proc/${pid}`) ? pid : null
  } catch {
    return null
  } finally {
    await sql.end()
  }
}
let POSTMASTER: number | null = null

/** Committed + rolled back transactions of the database so far (pg_stat_database; flushed by
 * backends about once a second, so a 10 s delta is good to ~10%). */
let XACTS: (() => Promise<number>) | null = null
function watchTransactions(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  onCleanup('transaction counter', () => sql.end({ timeout: 2 }))
  XACTS = async () =>
    Number(
      (
        await sql<{ n: string }[]>`
          select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`
      )[0].n,
    )
}

function statusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) : null
  } catch {
    return null
  }
}

/** Resets VmHWM to the current RSS (echo 5 > /proc/<pid>/clear_refs); false where not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits

// ------------------------------------------------------------------ wrk and pgbench

/**
 * The machine is shared (other test suites may be running): before a measurement, wait until
 * the machine has been mostly idle for a second (at most --quiet-wait s per run, 300 s per
 * bench run in total). Returns the busy share seen last (% of one core; 100 = a whole core).
 */
async function waitQuiet(): Promise<number> {
  const deadline = Date.now() + Math.min(QUIET_WAIT, quietBudget) * 1000
  const started = Date.now()
  let busy = 0
  for (;;) {
    const t0 = machineTicks()
    await Bun.sleep(1000)
    const t1 = machineTicks()
    busy = round((100 * cpus().length * (t1.busy - t0.busy)) / Math.max(1, t1.total - t0.total), 0)
    if (busy <= 25 || Date.now() >= deadline) break
  }
  const waited = (Date.now() - started) / 1000 - 1
  quietBudget = Math.max(0, quietBudget - waited)
  if (waited >= 1) log(`  waited ${Math.round(waited)} s for other load to settle (machine ${busy}% busy before the run)`)
  return busy
}

interface ProcWatch {
  name: string
  pid: number
}

async function wrk(
  url: string,
  connections: number,
  seconds: number,
  watch: ProcWatch[] = [],
): Promise<Omit<HttpRun, 'scenario' | 'target' | 'label'>> {
  const busyBefore = watch.length ? await waitQuiet() : null
  const peaks = watch.map((w) => ({ ...w, reset: resetPeak(w.pid), cpu0: cpuSeconds(w.pid) }))
  const m0 = machineTicks()
  const pg0 = POSTMASTER ? treeCpu(POSTMASTER) : null
  const x0 = XACTS ? await XACTS().catch(() => null) : null
  const load0 = loadavg()[0]
  const started = performance.now()
  const proc = track(
    Bun.spawn(['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '2s', '--latency', '-s', WRK_SCRIPT, url], {
      stdout: 'pipe',
      stderr: 'pipe',
    }),
  )
  const killer = setTimeout(() => proc.kill('SIGKILL'), (seconds + 30) * 1000)
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  await proc.exited
  clearTimeout(killer)
  const wall = (performance.now() - started) / 1000
  const m1 = machineTicks()
  const pgSeconds = pg0 && POSTMASTER ? treeCpuDelta(pg0, treeCpu(POSTMASTER)) : null
  const x1 = XACTS && x0 !== null ? await XACTS().catch(() => null) : null
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '))
  if (!line) fail(`wrk gave no summary for ${url}:\n${out}\n${err}`)
  const s = JSON.parse(line!.slice('WRK_JSON '.length))
  const usage = proc.resourceUsage()
  const processes: Record<string, { cpuPct: number | null; peakRssMiB: number | null }> = {}
  for (const p of peaks) {
    const cpu1 = cpuSeconds(p.pid)
    const hwm = statusKiB(p.pid, 'VmHWM')
    processes[p.name] = {
      cpuPct: p.cpu0 !== null && cpu1 !== null ? round((100 * (cpu1 - p.cpu0)) / wall, 0) : null,
      peakRssMiB: hwm !== null ? round(hwm / 1024) : null,
    }
  }
  const socketErrors = s.connect + s.read + s.write + s.timeout
  const duration = s.duration_us / 1e6
  const wrkCpuPct = usage ? round((100 * (Number(usage.cpuTime.user) + Number(usage.cpuTime.system))) / 1e6 / wall, 0) : null
  // all cores together: 100% = one core busy
  const machineCpuPct = round((100 * cpus().length * (m1.busy - m0.busy)) / Math.max(1, m1.total - m0.total), 0)
  const postgresCpuPct = pgSeconds !== null ? round((100 * pgSeconds) / wall, 0) : null
  const stealPct = round((100 * cpus().length * (m1.steal - m0.steal)) / Math.max(1, m1.total - m0.total), 0)
  return {
    url,
    connections,
    seconds,
    requests: s.requests,
    rps: round(s.requests / duration, 0),
    bytesPerResponse: s.requests ? Math.round(s.bytes / s.requests) : 0,
    p50Ms: round(s.p50_us / 1000, 2),
    p90Ms: round(s.p90_us / 1000, 2),
    p99Ms: round(s.p99_us / 1000, 2),
    maxMs: round(s.max_us / 1000, 2),
    socketErrors,
    timeouts: s.timeout,
    non2xx: s.status,
    errors: socketErrors + s.status,
    processes,
    wrkCpuPct,
    postgresCpuPct,
    dbTransactionsPerSec: x0 !== null && x1 !== null ? round((x1 - x0) / wall, 0) : null,
    machineCpuPct,
    stealPct,
    // whatever else ran on the machine meanwhile (not ours, steal included): a noise indicator
    otherCpuPct:
      postgresCpuPct === null
        ? null
        : Math.max(
            0,
            round(
              machineCpuPct -
                (wrkCpuPct ?? 0) -
                postgresCpuPct -
                Object.values(processes).reduce((n, p) => n + (p.cpuPct ?? 0), 0),
              0,
            ),
          ),
    load1: [round(load0, 2), round(loadavg()[0], 2)],
    busyBeforePct: busyBefore,
    raw: out.replace(/^WRK_JSON .*\n?/m, '').trim(),
  }
}

type Measured = Omit<HttpRun, 'scenario' | 'target' | 'label'>

/**
 * `--repeat` measurements (median by rps is kept); a measurement during which other
 * processes took more than NOISY_OTHER_PCT of a core is retried up to `--noisy-retries`
 * times (the least disturbed attempt is kept) and flagged noisy when it stays so.
 */
async function measure(
  url: string,
  connections: number,
  watch: ProcWatch[],
  describe: (r: Measured) => string,
): Promise<Measured> {
  const kept: Measured[] = []
  let attempts = 0
  for (let i = 0; i < REPEAT; i++) {
    let best: Measured | null = null
    for (let retry = 0; retry <= NOISY_RETRIES; retry++) {
      attempts++
      const result = await wrk(url, connections, DURATION, watch)
      log(`  ${describe(result)}`)
      if (!best || (result.otherCpuPct ?? 0) < (best.otherCpuPct ?? 0)) best = result
      if ((result.otherCpuPct ?? 0) <= NOISY_OTHER_PCT) break
      if (retry < NOISY_RETRIES) log(`  noisy (other processes used ${result.otherCpuPct}% of a core): measuring again`)
    }
    kept.push(best!)
  }
  const sorted = [...kept].sort((a, b) => a.rps - b.rps)
  const median = sorted[Math.floor((sorted.length - 1) / 2)]
  return {
    ...median,
    attempts,
    repeats: kept.length > 1 ? kept.map((r) => r.rps) : undefined,
    noisy: (median.otherCpuPct ?? 0) > NOISY_OTHER_PCT,
  }
}

async function pgbench(
  file: string,
  url: string,
  clients: number,
  defines: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ tps: number; latencyMs: number; failed: number; transactions: number; raw: string }> {
  const base = ['pgbench', '-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-f', file]
  for (const [k, v] of Object.entries(defines)) base.push('-D', `${k}=${v}`)
  const spawnEnv = { ...process.env, ...env } as Record<string, string>
  // warm-up (plans, buffers), then the measured run
  await track(
    Bun.spawn([...base, '-T', String(Math.min(3, WARMUP || 3)), url], { env: spawnEnv, stdout: 'ignore', stderr: 'ignore' }),
  ).exited
  await waitQuiet()
  const proc = track(Bun.spawn([...base, '-T', String(PGBENCH_TIME), url], { env: spawnEnv, stdout: 'pipe', stderr: 'pipe' }))
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  const code = await proc.exited
  const text = `${out}\n${err}`
  const tps = /^tps = ([\d.]+)/m.exec(text)
  if (code !== 0 || !tps) fail(`pgbench ${file} failed:\n${text}`)
  return {
    tps: round(Number(tps![1]), 0),
    latencyMs: round(Number(/^latency average = ([\d.]+) ms/m.exec(text)?.[1] ?? NaN), 2),
    failed: Number(/^number of failed transactions: (\d+)/m.exec(text)?.[1] ?? 0),
    transactions: Number(/^number of transactions actually processed: (\d+)/m.exec(text)?.[1] ?? 0),
    raw: out.trim(),
  }
}

// ------------------------------------------------------------------ database

async function settle(sql: postgres.Sql, tables: string): Promise<{ pages: number; visible: number; attempts: number }> {
  let last = { pages: 0, visible: 0 }
  for (let attempt = 1; attempt <= 20; attempt++) {
    await sql.unsafe(`VACUUM (ANALYZE) ${tables}`)
    const [row] = await sql<{ pages: number; visible: number }[]>`
      select relpages as pages, relallvisible as visible from pg_class where oid = 'events'::regclass`
    last = row
    if (row.visible * 100 >= row.pages * 99) return { ...row, attempts: attempt }
    await Bun.sleep(1000)
  }
  log(`warning: only ${last.visible} of ${last.pages} events pages are all-visible`)
  return { ...last, attempts: 20 }
}

async function prepareDatabase(workDir: string) {
  let databaseUrl = process.env.DATABASE_URL
  let cluster: Cluster | null = null
  if (!databaseUrl) {
    log('no DATABASE_URL: starting a throwaway PostgreSQL cluster')
    cluster = await createCluster(workDir)
    if (!cluster)
      fail('DATABASE_URL is not set and no PostgreSQL server binaries (initdb) were found: apt-get install postgresql')
    onCleanup('postgres cluster', () => cluster!.destroy())
    databaseUrl = cluster!.url
    const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} })
    for (const [name, value] of Object.entries(PG_SETTINGS)) await admin.unsafe(`ALTER SYSTEM SET ${name} = '${value}'`)
    await admin.end()
    await cluster!.stop()
    await cluster!.start()
    log(
      `throwaway cluster at ${databaseUrl} (${Object.entries(PG_SETTINGS)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')})`,
    )
  } else log(`using DATABASE_URL (its server's own settings; recorded in the report)`)

  const database = await createDb(databaseUrl)
  try {
    await migrateDb(database)
  } finally {
    await database.close()
  }

  const sql = postgres(databaseUrl!, { max: 1, onnotice: () => {} })
  try {
    const counts = async () =>
      (
        await sql<{ events: number; news: number; musik: number; jaksel: number }[]>`
          select (select count(*)::int from events) as events,
                 (select count(*)::int from news_articles) as news,
                 (select count(*)::int from categories where slug = 'musik') as musik,
                 (select count(*)::int from cities where slug = 'jakarta-selatan') as jaksel`
      )[0]
    const have = await counts()
    const present = have.events === EVENTS && have.news > 0 && have.musik === 1 && have.jaksel === 1
    let dataSeconds: number | null = null
    if (!present || args.reseed) {
      if (have.events > 0 && !present && !args.reseed && process.env.DATABASE_URL)
        fail(
          `the database at DATABASE_URL holds ${have.events} events, not the bench catalogue of ${EVENTS}: ` +
            `bench:data replaces the catalogue tables, so pass --reseed if that is what you want`,
        )
      log(`loading the bench catalogue (bench/data.ts --events ${EVENTS}; had ${have.events} events)`)
      const started = performance.now()
      const proc = track(
        Bun.spawn(['bun', join(BENCH_DIR, 'data.ts'), '--events', String(EVENTS)], {
          cwd: repoRoot,
          env: { ...process.env, DATABASE_URL: databaseUrl } as Record<string, string>,
          stdout: 'inherit',
          stderr: 'inherit',
        }),
      )
      if ((await proc.exited) !== 0) fail('bench/data.ts failed')
      dataSeconds = round((performance.now() - started) / 1000)
    } else log(`bench catalogue present (${have.events} events)`)
    const settled = await settle(sql, 'categories, cities, tags, events, event_tags, news_articles')

    const settings = Object.fromEntries(
      await Promise.all(
        [...Object.keys(PG_SETTINGS), 'fsync', 'max_connections', 'server_version'].map(
          async (name) => [name, (await sql.unsafe(`SHOW ${name}`))[0][name]] as const,
        ),
      ),
    )
    const dataset = await datasetCounts(sql)
    // scenario parameters, as the peer picks its own (bench.sh)
    const city = 'jakarta-selatan'
    const category = 'musik'
    const [{ slug }] = await sql<{ slug: string }[]>`
      select slug from events where status = 'published'
      order by created_at desc, id desc offset 500 limit 1`
    return { databaseUrl: databaseUrl!, cluster, settings, dataset, dataSeconds, settled, params: { city, category, slug } }
  } finally {
    await sql.end()
  }
}

// ------------------------------------------------------------------ processes

interface Started {
  name: string
  url: string
  pid: number
  proc: Subprocess
  logFile: string
}

function spawnLogged(name: string, cmd: string[], env: Record<string, string>, workDir: string): Started & { port: number } {
  const logFile = join(workDir, `${name}.log`)
  const proc = Bun.spawn(cmd, {
    cwd: repoRoot,
    env,
    stdin: 'ignore',
    stdout: openSync(logFile, 'a'),
    stderr: openSync(logFile, 'a'),
  })
  onCleanup(name, () => stopProcess(proc))
  return { name, url: '', pid: proc.pid, proc, logFile, port: 0 }
}

const tail = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n')
  } catch {
    return ''
  }
}

async function startService(name: 'catalog' | 'news', databaseUrl: string, workDir: string): Promise<Started> {
  const port = freePort()
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(workDir, 'home'),
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(workDir, 'data'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    TRUSTED_PROXIES: '127.0.0.1,::1',
  }
  mkdirSync(env.HOME, { recursive: true })
  // `bun <file>` (not `bun run`): the spawned pid is the server itself, whose /proc we read
  const started = spawnLogged(name, ['bun', `services/${name}/src/main.ts`], env, workDir)
  const url = `http://127.0.0.1:${port}`
  await waitFor(name, httpOk(`${url}/ready`), 60_000, () => started.proc.exitCode === null).catch((error) => {
    throw new BenchError(`${(error as Error).message}\n${tail(started.logFile)}`)
  })
  const cmdline = readFileSync(`/proc/${started.pid}/cmdline`, 'utf8').split('\0').join(' ')
  if (!/\bbun\b/.test(cmdline) || !cmdline.includes(`services/${name}/src/main.ts`))
    fail(`pid ${started.pid} is not the ${name} server itself: ${cmdline}`)
  return { ...started, url }
}

async function startCaddy(upstreams: { catalog: string; news: string }, workDir: string): Promise<Started> {
  const port = freePort()
  const home = join(workDir, 'caddy-home')
  mkdirSync(home, { recursive: true })
  // nothing listens on port 9 (discard): the media/admin/docs routes are not measured
  const dead = '127.0.0.1:9'
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    GATEWAY_PORT: String(port),
    UPSTREAMS_MODE: 'static',
    CATALOG_UPSTREAMS: upstreams.catalog,
    NEWS_UPSTREAMS: upstreams.news,
    MEDIA_UPSTREAMS: dead,
    ADMIN_UPSTREAMS: dead,
    DOCS_UPSTREAM: dead,
    MEDIA_FILES_UPSTREAMS: dead,
    MEDIA_FILES_PREFIX: '/media',
  }
  const started = spawnLogged(
    'caddy',
    ['caddy', 'run', '--config', join(repoRoot, 'caddy/Caddyfile'), '--adapter', 'caddyfile'],
    env,
    workDir,
  )
  const url = `http://127.0.0.1:${port}`
  await waitFor('caddy', httpOk(`${url}/api/categories`), 30_000, () => started.proc.exitCode === null).catch((error) => {
    throw new BenchError(`${(error as Error).message}\n${tail(started.logFile)}`)
  })
  // the Caddy-proxied trivial endpoint; Caddy's active health checks need a moment
  await waitFor('caddy /health', httpOk(`${url}/health`), 10_000).catch(async () => {
    const status = await fetch(`${url}/health`).then(
      (r) => r.status,
      () => 0,
    )
    throw new BenchError(
      status === 404
        ? 'the gateway has no /health route (caddy/Caddyfile: `handle /health { import catalog_upstream }`): ask the lead'
        : `caddy /health answers ${status}\n${tail(started.logFile)}`,
    )
  })
  return { ...started, url }
}

// ------------------------------------------------------------------ scenarios

interface Scenario {
  name: string
  label: string
  service: 'catalog' | 'news'
  path: string
  connections: number
  /** bench/sql file of the straightforward-SQL ceiling */
  sql?: string
  /** the Directus scenario it compares with */
  peer?: string
  expectItems?: boolean
}

function scenarios(params: { city: string; category: string; slug: string; q: string }): Scenario[] {
  const all: Scenario[] = [
    {
      name: 'list',
      label: 'event list (default)',
      service: 'catalog',
      path: '/api/events',
      connections: CONNECTIONS,
      sql: 'list',
      peer: 'a',
      expectItems: true,
    },
    {
      name: 'filtered',
      label: 'kota + kategori + sort, page 3',
      service: 'catalog',
      path: `/api/events?kota=${params.city}&kategori=${params.category}&sort=start_date_asc&page=3`,
      connections: CONNECTIONS,
      sql: 'filtered',
      peer: 'b',
      expectItems: true,
    },
    {
      name: 'weekend',
      label: 'waktu=akhir-pekan + kota',
      service: 'catalog',
      path: `/api/events?waktu=akhir-pekan&kota=${params.city}`,
      connections: CONNECTIONS,
    },
    {
      name: 'facets',
      label: 'facets=1 + kota',
      service: 'catalog',
      path: `/api/events?facets=1&kota=${params.city}`,
      connections: CONNECTIONS,
      expectItems: true,
    },
    {
      name: 'search',
      label: `q search (q=${params.q})`,
      service: 'catalog',
      path: `/api/events?q=${params.q}`,
      connections: Q_CONNECTIONS,
      sql: 'search',
      expectItems: true,
    },
    {
      name: 'detail',
      label: 'event detail by slug',
      service: 'catalog',
      path: `/api/events/${params.slug}`,
      connections: CONNECTIONS,
      sql: 'detail',
      peer: 'c',
    },
    {
      name: 'categories',
      label: 'categories',
      service: 'catalog',
      path: '/api/categories',
      connections: CONNECTIONS,
      sql: 'categories',
      expectItems: true,
    },
    {
      name: 'news',
      label: 'news list',
      service: 'news',
      path: '/api/news',
      connections: CONNECTIONS,
      sql: 'news',
      expectItems: true,
    },
    {
      name: 'health',
      label: 'trivial endpoint (/health)',
      service: 'catalog',
      path: '/health',
      connections: CONNECTIONS,
      peer: 'd',
    },
  ]
  return ONLY ? all.filter((s) => ONLY.has(s.name)) : all
}

async function sanityCheck(url: string, expectItems = false): Promise<{ total?: number; bytes: number }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  const text = await response.text()
  if (response.status !== 200) fail(`${url}: HTTP ${response.status}: ${text.slice(0, 300)}`)
  const body = JSON.parse(text)
  if (body.success !== true) fail(`${url}: success is not true: ${text.slice(0, 300)}`)
  if (expectItems && !(Array.isArray(body.data) && body.data.length > 0)) fail(`${url}: the list is empty`)
  return { total: body.pagination?.total, bytes: text.length }
}

// ------------------------------------------------------------------ the Directus peer

async function runPeer(report: BenchReport, params: { city: string; category: string }) {
  const setup = join(PEER_SCRIPTS, 'setup.sh')
  if (!existsSync(setup)) fail(`peer scripts not found at ${PEER_SCRIPTS} (PEER_SCRIPTS=...)`)
  log(`peer: KEEP_RUNNING=1 bash ${setup} (PEER_DIR=${PEER_DIR}; the first run npm-installs Directus, ~5 min)`)
  onCleanup('peer (stop.sh)', async () => {
    log('peer: stop.sh')
    const stop = Bun.spawn(['bash', join(PEER_SCRIPTS, 'stop.sh')], {
      env: { ...process.env, PEER_DIR } as Record<string, string>,
      stdout: 'inherit',
      stderr: 'inherit',
    })
    await stop.exited
  })
  const started = performance.now()
  const proc = track(
    Bun.spawn(['bash', setup], {
      env: { ...process.env, PEER_DIR, KEEP_RUNNING: '1' } as Record<string, string>,
      stdout: 'inherit',
      stderr: 'inherit',
    }),
  )
  if ((await proc.exited) !== 0) fail('peer setup.sh failed')
  report.peer.setupSeconds = round((performance.now() - started) / 1000)

  const host = process.env.DIRECTUS_HOST || '127.0.0.1'
  const base = `http://${host}:${process.env.DIRECTUS_PORT || '8055'}`
  const pid = Number(readFileSync(join(PEER_DIR, 'directus.pid'), 'utf8').trim())
  const pgUser = process.env.PG_USER || 'directus'
  const pgPassword = process.env.PG_PASSWORD || 'directus'
  const pgUrl = `postgres://${pgUser}:${pgPassword}@${process.env.PGHOST_ADDR || '127.0.0.1'}:${process.env.PGPORT_NUM || '55432'}/${process.env.PG_DB || 'directus'}`
  const sql = postgres(pgUrl, { max: 1, onnotice: () => {} })
  let slug: string
  try {
    await settle(sql, 'categories, cities, events')
    ;[{ slug }] = await sql<{ slug: string }[]>`
      select slug from events where status = 'published' order by created_at desc offset 500 limit 1`
    const [{ version }] = await sql<{ version: string }[]>`select current_setting('server_version') as version`
    report.peer.postgres = version
  } finally {
    await sql.end()
  }
  const fields = 'fields=*,city.name,city.slug,category.name,category.slug'
  const urls: Record<string, string> = {
    a: `${base}/items/events?limit=12&sort=-created_at&${fields}&filter[status][_eq]=published&meta=filter_count`,
    b: `${base}/items/events?limit=12&sort=start_date&page=3&${fields}&filter[status][_eq]=published&filter[city][slug][_eq]=${params.city}&filter[category][slug][_eq]=${params.category}&meta=filter_count`,
    c: `${base}/items/events?filter[slug][_eq]=${slug}&fields=*,city.*,category.*`,
    d: `${base}/server/ping`,
  }
  const labels: Record<string, string> = {
    a: 'a: list + count',
    b: 'b: city + category, page 3',
    c: 'c: detail by slug',
    d: 'd: /server/ping',
  }
  for (const [key, url] of Object.entries(urls)) {
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) })
    const text = await response.text()
    if (response.status !== 200) fail(`peer ${key}: HTTP ${response.status} for ${url}`)
    if (key !== 'd' && !(JSON.parse(text).data?.length > 0)) fail(`peer ${key} returned no rows`)
  }
  report.peer.directus = JSON.parse(readFileSync(join(PEER_DIR, 'directus/node_modules/directus/package.json'), 'utf8')).version
  report.peer.node = run(['node', '--version']).out
  report.peer.params = { city: params.city, category: params.category, slug }
  watchTransactions(pgUrl)
  // its own PostgreSQL cluster ($PEER_DIR/pg), for the Postgres CPU column
  try {
    const pm = Number(readFileSync(join(process.env.PGDATA_DIR || join(PEER_DIR, 'pg'), 'postmaster.pid'), 'utf8').split('\n')[0])
    POSTMASTER = pm > 0 && existsSync(`/proc/${pm}`) ? pm : null
  } catch {
    POSTMASTER = null
  }
  const idle = statusKiB(pid, 'VmRSS')
  report.peer.idleRssMiB = idle !== null ? round(idle / 1024) : null
  for (const [key, url] of Object.entries(urls)) {
    log(`peer ${labels[key]}: warm-up ${WARMUP}s, wrk -c${CONNECTIONS} -d${DURATION}s`)
    await wrk(url, CONNECTIONS, WARMUP)
    const result = await measure(
      url,
      CONNECTIONS,
      [{ name: 'directus', pid }],
      (r) =>
        `${r.rps} rps, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, directus peak ` +
        `${r.processes.directus?.peakRssMiB} MiB; CPU %: directus ${r.processes.directus?.cpuPct}, postgres ` +
        `${r.postgresCpuPct ?? '?'}, wrk ${r.wrkCpuPct}, other ${r.otherCpuPct ?? '?'}`,
    )
    report.http.push({ scenario: key, target: 'peer', label: labels[key], ...result })
  }
  if (!args['skip-pgbench'])
    for (const [key, file] of [
      ['a', 'pgbench_list.sql'],
      ['b', 'pgbench_list_filtered.sql'],
      ['c', 'pgbench_detail.sql'],
    ]) {
      log(`peer pgbench ${file} -c${CONNECTIONS}`)
      const result = await pgbench(
        join(PEER_SCRIPTS, file),
        pgUrl,
        CONNECTIONS,
        { city: params.city, category: params.category, slug },
        {},
      )
      report.ceilings.push({
        name: `peer-${key}`,
        scenario: key,
        kind: 'peer',
        file: `${PEER_SCRIPTS}/${file}`,
        clients: CONNECTIONS,
        ...result,
      })
      log(`  ${result.tps} tps`)
    }
}

// ------------------------------------------------------------------ main

function stampOf(date: Date) {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`
}

function machineInfo() {
  const version = (cmd: string[]) => firstLine(run(cmd).out) || null
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 1024 ** 3),
    kernel: release(),
    bun: Bun.version,
    pgbench: version(['pgbench', '--version']),
    caddy: version(['caddy', 'version']),
    // `wrk -v` prints its version and exits 1
    wrk: (version(['wrk', '-v']) ?? '').replace(/\s*Copyright.*$/, '') || null,
    load1AtStart: round(loadavg()[0], 2),
  }
}

async function main() {
  requireTools()
  const startedAt = new Date()
  const stamp = stampOf(startedAt)
  const workDir = mkdtempSync(join(tmpdir(), 'bench-run-'))
  onCleanup('work dir', async () => rmSync(workDir, { recursive: true, force: true }))
  const commit = run(['git', '-C', repoRoot, 'rev-parse', '--short', 'HEAD']).out
  const dirty = run(['git', '-C', repoRoot, 'status', '--porcelain']).out !== ''

  const report: BenchReport = {
    stamp,
    startedAt: startedAt.toISOString(),
    command: `bun run bench${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
    commit: commit ? `${commit}${dirty ? ' (with uncommitted changes)' : ''}` : null,
    machine: machineInfo(),
    settings: {
      wrk:
        `wrk -t1 -c${CONNECTIONS} -d${DURATION}s --latency --timeout 2s after a ${WARMUP}s warm-up (q search: -c${Q_CONNECTIONS})` +
        (REPEAT > 1 ? `, median of ${REPEAT}` : '') +
        `; a run with other processes above ${NOISY_OTHER_PCT}% of a core is retried up to ${NOISY_RETRIES} times`,
      pgbench: `pgbench -n -M prepared -j2 -T${PGBENCH_TIME} -c<same as wrk> after a 3s warm-up`,
      connections: CONNECTIONS,
      qConnections: Q_CONNECTIONS,
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      pgbenchSeconds: PGBENCH_TIME,
    },
    database: { throwaway: false, settings: {}, dataset: {}, dataSeconds: null, visibility: null },
    params: { city: '', category: '', slug: '', q: 'festival', filteredTotal: null, qTotal: null, listTotal: null },
    http: [],
    ceilings: [],
    peer: { requested: !!args.peer, error: null },
    targets: [],
  }

  log(`machine: ${report.machine.cores} cores, ${report.machine.memoryGiB} GiB, load ${report.machine.load1AtStart}`)
  const db = await prepareDatabase(workDir)
  report.database = {
    throwaway: db.cluster !== null,
    settings: db.settings,
    dataset: db.dataset,
    dataSeconds: db.dataSeconds,
    visibility: db.settled,
  }
  report.params = { ...report.params, ...db.params }
  const list = scenarios({ ...db.params, q: report.params.q })

  // ---- services + gateway
  const catalog = await startService('catalog', db.databaseUrl, workDir)
  const news = await startService('news', db.databaseUrl, workDir)
  const caddy = await startCaddy({ catalog: new URL(catalog.url).host, news: new URL(news.url).host }, workDir)
  POSTMASTER = await postmasterPid(db.databaseUrl)
  watchTransactions(db.databaseUrl)
  log(`catalog ${catalog.url} (pid ${catalog.pid}), news ${news.url} (pid ${news.pid}), caddy ${caddy.url} (pid ${caddy.pid})`)
  const services = { catalog, news }
  const idle = Object.fromEntries(Object.entries(services).map(([k, s]) => [k, round((statusKiB(s.pid, 'VmRSS') ?? 0) / 1024)]))
  report.idleRssMiB = { ...idle, caddy: round((statusKiB(caddy.pid, 'VmRSS') ?? 0) / 1024) }

  for (const s of list) {
    const direct = await sanityCheck(services[s.service].url + s.path, s.expectItems)
    await sanityCheck(caddy.url + s.path, s.expectItems)
    if (s.name === 'filtered') report.params.filteredTotal = direct.total ?? null
    if (s.name === 'search') report.params.qTotal = direct.total ?? null
    if (s.name === 'list') report.params.listTotal = direct.total ?? null
  }

  // ---- wrk: each scenario straight to the service, then through Caddy
  for (const s of list) {
    const service = services[s.service]
    for (const target of ['direct', 'caddy'] as const) {
      const url = (target === 'direct' ? service.url : caddy.url) + s.path
      log(`${s.name} ${target}: warm-up ${WARMUP}s, wrk -c${s.connections} -d${DURATION}s ${url}`)
      await wrk(url, s.connections, WARMUP)
      const watch = [{ name: s.service, pid: service.pid }, ...(target === 'caddy' ? [{ name: 'caddy', pid: caddy.pid }] : [])]
      const result = await measure(url, s.connections, watch, (r) => {
        const p = r.processes[s.service]
        return (
          `${r.rps} rps, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, ${s.service} peak ` +
          `${p?.peakRssMiB} MiB; CPU %: ${s.service} ${p?.cpuPct}` +
          (target === 'caddy' ? `, caddy ${r.processes.caddy?.cpuPct}` : '') +
          `, postgres ${r.postgresCpuPct ?? '?'}, wrk ${r.wrkCpuPct}, other ${r.otherCpuPct ?? '?'} (machine ${r.machineCpuPct} of ${cpus().length * 100}); ` +
          `~${r.dbTransactionsPerSec ?? '?'} db transactions/s`
        )
      })
      report.http.push({ scenario: s.name, target, label: s.label, ...result })
    }
  }
  for (const s of [caddy, news, catalog]) {
    await stopProcess(s.proc)
  }

  // ---- pgbench ceilings (services stopped: PostgreSQL + pgbench have the machine)
  if (!args['skip-pgbench']) {
    const defines = {
      city: db.params.city,
      category: db.params.category,
      slug: db.params.slug,
      tsquery: `${report.params.q}:*`,
      phrase: report.params.q,
    }
    const jobs: { name: string; scenario: string; kind: Ceiling['kind']; file: string; clients: number }[] = []
    for (const s of list)
      if (s.sql)
        jobs.push({
          name: s.sql,
          scenario: s.name,
          kind: 'straightforward',
          file: `bench/sql/${s.sql}.sql`,
          clients: s.connections,
        })
    jobs.push({ name: 'version', scenario: 'warm', kind: 'service-warm', file: 'bench/sql/version.sql', clients: CONNECTIONS })
    for (const job of jobs) {
      log(`pgbench ${job.file} -c${job.clients}`)
      const result = await pgbench(join(repoRoot, job.file), db.databaseUrl, job.clients, defines)
      report.ceilings.push({ ...job, ...result })
      log(`  ${result.tps} tps, ${result.latencyMs} ms average, ${result.failed} failed`)
    }
  }

  // ---- the Directus peer
  if (args.peer) {
    try {
      await runPeer(report, db.params)
    } catch (error) {
      report.peer.error = (error as Error).message
      log(`peer failed: ${(error as Error).message}`)
    } finally {
      // stop it now (the cleanup list would do it at the end too)
      const index = cleanups.findIndex((c) => c.name === 'peer (stop.sh)')
      if (index >= 0) await cleanups.splice(index, 1)[0].fn()
    }
  }

  report.machine.load1AtEnd = round(loadavg()[0], 2)
  report.finishedAt = new Date().toISOString()
  report.targets = evaluateTargets(report)
  await writeResults(report)
}

/** The repository's prettier style for the written files (best effort: unformatted if it fails). */
async function pretty(text: string, file: string): Promise<string> {
  try {
    const prettier = await import('prettier')
    return await prettier.format(text, { ...((await prettier.resolveConfig(file)) ?? {}), filepath: file })
  } catch {
    return text
  }
}

async function writeResults(report: BenchReport) {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const base = join(RESULTS_DIR, report.stamp)
  writeFileSync(`${base}.json`, await pretty(JSON.stringify(report, null, 2) + '\n', `${base}.json`))
  writeFileSync(`${base}.md`, await pretty(renderMarkdown(report), `${base}.md`))
  const svg = writeChart(report, RESULTS_DIR)
  console.log('\n' + targetsText(report.targets))
  const noisy = report.http.filter((r) => r.noisy)
  if (noisy.length)
    console.log(
      `\nwarning: ${noisy.length} measurement(s) stayed noisy (other processes busy): ` +
        noisy.map((r) => `${r.scenario}/${r.target}`).join(', ') +
        ' -- re-run on a quieter machine before trusting those figures',
    )
  console.log(`\nreport: ${base}.md\n        ${base}.json\n        ${svg} (and bench/results/latest.svg)`)
}

function targetsText(targets: TargetResult[]) {
  const rows = targets.map((t) => [t.verdict, t.name, t.measured, t.threshold])
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)))
  return [
    'targets:',
    ...rows.map((r) => `  ${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`),
  ].join('\n')
}

try {
  await main()
} catch (error) {
  // after Ctrl-C the interrupted child's failure is expected: say nothing more
  if (!cleaning) console.error(`\n[bench] ${error instanceof BenchError ? error.message : (error as Error).stack}`)
  process.exitCode = 1
} finally {
  await cleanupAll()
}
