// bun run bench:real [-- --duration 15 --warmup 5 --connections 32 --only detail,search --pgbench-time 10 --url-count 300000]
// KEEP_BENCH_DIR=1 keeps the work dir (the services' logs) after the run.
//
// Realistic traffic on the bench catalogue (issue 11): DATABASE_URL must hold `bun run bench:data`.
// Starts the catalog and admin services as their own processes and Caddy in front, then per
// scenario (scenarios.ts, as data): a warm-up, then wrk over the scenario's URL list (urls.ts,
// fixed seed) with writes (submit + approve through the API) at the scenario's rate meanwhile.
// Records rps, p50/p99, errors, cache hit rate (x-cache), peak RSS of the catalog process, the
// writes' own latency; pgbench ceilings with random parameters from the service's own SQL
// (ceilings.ts); checks the targets; writes bench/results/realistic-<stamp>.{json,md,svg}.
// Everything it starts is stopped again, also on errors and Ctrl-C.
import type { Subprocess } from 'bun'
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { eventSearchQuery, migrateDb, createDb } from '@app/db'
import { freePort, repoRoot, stopProcess } from '../../scripts/stack-lib'
import { findPublishedEvent, listEvents, prepareSearch } from '../../services/catalog/src/events/service'
import { relatedEvents } from '../../services/catalog/src/events/related'
import { captureQueries, pgbench, pgbenchScript } from './ceilings'
import { cpuSnapshot, cpuUse } from './cpu'
import { renderReport, type RunResult, type Report } from './report'
import { SCENARIOS, TARGETS, type Measured, type Scenario } from './scenarios'
import { BENCH_URL_COUNT, loadBenchData, seeded, urls, type BenchData } from './urls'

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    'pgbench-time': { type: 'string', default: '10' },
    'url-count': { type: 'string', default: String(BENCH_URL_COUNT) },
  },
})
const DURATION = Number(args.duration)
const WARMUP = Number(args.warmup)
const CONNECTIONS = Number(args.connections)
const ONLY = args.only ? new Set(args.only.split(',')) : null
const DATABASE_URL = process.env.DATABASE_URL
if (!DATABASE_URL) {
  console.error('bench:real needs DATABASE_URL pointing at a database filled by `bun run bench:data`')
  process.exit(2)
}
const log = (line: string) => console.log(`[bench:real ${new Date().toISOString().slice(11, 19)}] ${line}`)
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits
const workDir = mkdtempSync(join(tmpdir(), 'bench-real-'))
const started: Subprocess[] = []
let stopping: Promise<void> | undefined
const stopAll = () =>
  (stopping ??= (async () => {
    for (const proc of started.reverse()) await stopProcess(proc).catch(() => {})
    if (!process.env.KEEP_BENCH_DIR) rmSync(workDir, { recursive: true, force: true })
  })())
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAll().finally(() => process.exit(130)))

function spawn(name: string, cmd: string[], env: Record<string, string>) {
  const logFile = join(workDir, `${name}.log`)
  const proc = Bun.spawn(cmd, {
    cwd: repoRoot,
    env,
    stdin: 'ignore',
    stdout: openSync(logFile, 'a'),
    stderr: openSync(logFile, 'a'),
  })
  started.push(proc)
  return { proc, logFile }
}

async function waitOk(url: string, what: string, proc: Subprocess, logFile: string) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) break
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await Bun.sleep(200)
  }
  throw new Error(`${what} did not start:\n${readFileSync(logFile, 'utf8').slice(-2000)}`)
}

// a new admin per run: the services create it from ADMIN_USERNAME/ADMIN_PASSWORD when it does not exist
const ADMIN_USER = `bench-${Date.now().toString(36)}`
const ADMIN_PASSWORD = `bench-${crypto.randomUUID()}`
/** Writes sent and not measured before the idle submissions are timed. */
const IDLE_WARMUP_WRITES = 5

async function startService(name: 'catalog' | 'admin') {
  const port = freePort()
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: workDir,
    DATABASE_URL: DATABASE_URL!,
    DATA_DIR: join(workDir, 'data'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    SUBMIT_LIMIT_PER_HOUR: '1000000',
    TRUSTED_PROXIES: '127.0.0.1,::1',
    ADMIN_USERNAME: ADMIN_USER,
    ADMIN_PASSWORD,
    // the images' heap sizing (Dockerfile), so the bench measures the process as it is shipped
    BUN_JSC_forceRAMSize: '134217728',
    MIMALLOC_PURGE_DELAY: '10',
    // JavaScriptCore and allocator options (BUN_JSC_*, MIMALLOC_*), RESPONSE_CACHE_MB,
    // LIST_INDEX and DATABASE_READ_POOL given to the bench override it (an A/B of one setting on
    // the same data)
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([key]) =>
          key.startsWith('BUN_JSC_') ||
          key.startsWith('MIMALLOC_') ||
          ['RESPONSE_CACHE_MB', 'LIST_INDEX', 'DATABASE_READ_POOL'].includes(key),
      ) as [string, string][],
    ),
  }
  // `bun <file>`: the spawned pid is the server itself, whose /proc we read
  const { proc, logFile } = spawn(
    name,
    ['bun', ...(process.env.BENCH_BUN_FLAGS ?? '').split(' ').filter(Boolean), `services/${name}/src/main.ts`],
    env,
  )
  const url = `http://127.0.0.1:${port}`
  await waitOk(`${url}/ready`, name, proc, logFile)
  if (name === 'catalog' && env.LIST_INDEX !== 'false') await listIndexLoaded(url)
  return { url, pid: proc.pid, port }
}

/**
 * Until the catalog's list index has loaded (`list_index_events` > 0): at 1M events that takes
 * ~30 s, and the first scenario would otherwise measure the load besides the service.
 */
async function listIndexLoaded(url: string) {
  const deadline = Date.now() + 300_000
  for (;;) {
    const metrics = await fetch(`${url}/metrics`).then((r) => r.text())
    if (Number(/^list_index_events(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1] ?? 0) > 0) return
    if (Date.now() > deadline) throw new Error('the list index did not load within 5 minutes')
    await Bun.sleep(500)
  }
}

async function startGateway(catalog: string, admin: string) {
  const port = freePort()
  const dead = '127.0.0.1:9'
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: workDir,
    XDG_CONFIG_HOME: join(workDir, 'caddy-config'),
    XDG_DATA_HOME: join(workDir, 'caddy-data'),
    GATEWAY_PORT: String(port),
    UPSTREAMS_MODE: 'static',
    CATALOG_UPSTREAMS: catalog,
    ADMIN_UPSTREAMS: admin,
    NEWS_UPSTREAMS: dead,
    MEDIA_UPSTREAMS: dead,
    DOCS_UPSTREAM: dead,
    MEDIA_FILES_UPSTREAMS: dead,
    MEDIA_FILES_PREFIX: '/media',
    // Go runtime settings given to the bench (GOMAXPROCS, GOGC) reach Caddy, as BUN_JSC_* reach
    // the services: an A/B of one setting on the same data
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => key === 'GOMAXPROCS' || key === 'GOGC') as [string, string][],
    ),
  }
  const { proc, logFile } = spawn('caddy', ['caddy', 'run', '--config', 'caddy/Caddyfile', '--adapter', 'caddyfile'], env)
  const url = `http://127.0.0.1:${port}`
  await waitOk(`${url}/api/categories`, 'caddy', proc, logFile)
  await waitOk(`${url}/api/events?limit=1`, 'caddy catalog route', proc, logFile)
  return { url, pid: proc.pid }
}

/** Peak RSS since the last reset (VmHWM), MiB. */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5')

async function wrk(base: string, urlFile: string, seconds: number, acceptEncodings: string[] = []) {
  const proc = Bun.spawn(
    ['wrk', '-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '2s', '-s', join(repoRoot, 'bench/wrk/urls.lua'), base],
    { env: { ...process.env, URLS: urlFile, ACCEPT_ENCODINGS: acceptEncodings.join('|') }, stdout: 'pipe', stderr: 'pipe' },
  )
  const killer = setTimeout(() => proc.kill('SIGKILL'), (seconds + 30) * 1000)
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  await proc.exited
  clearTimeout(killer)
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '))
  if (!line) throw new Error(`wrk gave no summary:\n${out}\n${err}`)
  // wrk's own CPU (it shares the machine with what it measures)
  const cpuSeconds = Number(proc.resourceUsage()?.cpuTime.total ?? 0n) / 1e6
  const summary: Record<string, number> = JSON.parse(line.slice(9))
  summary.cpuSeconds = cpuSeconds
  return summary
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return null
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))], 1)
}

/** What the bench's writes are drawn from: every active category and city, the data's most used tags and title words. */
interface WritePool {
  categories: string[]
  cities: string[]
  tags: string[]
  words: string[]
}

/**
 * Submits an event and approves it through the API; the two latencies in ms. Each write is drawn
 * (fixed seed) as submissions come: any category and city, one to three of the data's tags, a
 * title of its words, a start within the next 180 days; so over a run the approvals touch every
 * part of the catalogue, not one category and city over and over (as until the twelfth round).
 */
function writer(catalog: string, admin: string, cookie: string, pool: WritePool) {
  const random = seeded(20261125)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
  let serial = 0
  return async () => {
    const start = new Date(Date.now() + (1 + Math.floor(random() * 180)) * 86_400_000).toISOString().slice(0, 10)
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(pool.tags)))]
    const t0 = performance.now()
    const res = await fetch(`${catalog}/api/events/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `${pick(pool.words)} ${pick(pool.words)} ${pick(pool.words)} ${++serial}`,
        category_id: pick(pool.categories),
        city_id: pick(pool.cities),
        start_date: start,
        organizer_name: 'Penulis Bench',
        contact_email: 'bench@example.id',
        tags: tags.join(', '),
      }),
      signal: AbortSignal.timeout(10_000),
    })
    const submitMs = performance.now() - t0
    if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
    const { event } = (await res.json()) as { event: { id: string } }
    const t1 = performance.now()
    const approved = await fetch(`${admin}/api/admin/events/${event.id}/approve`, {
      method: 'POST',
      headers: { cookie },
      signal: AbortSignal.timeout(10_000),
    })
    if (approved.status !== 200) throw new Error(`approve answered ${approved.status}: ${await approved.text()}`)
    return { submitMs, approveMs: performance.now() - t1 }
  }
}

/** Runs `write` at `perSecond` until `stop()`; collects latencies and failures. */
function writeLoop(write: () => Promise<{ submitMs: number; approveMs: number }>, perSecond: number) {
  const submit: number[] = []
  const approve: number[] = []
  let failures = 0
  const inFlight = new Set<Promise<void>>()
  const timer = setInterval(() => {
    if (inFlight.size > 50) return void failures++
    const p = write()
      .then((r) => void (submit.push(r.submitMs), approve.push(r.approveMs)))
      .catch((error) => {
        failures++
        log(`  write failed: ${(error as Error).message.slice(0, 200)}`)
      })
      .finally(() => inFlight.delete(p))
    inFlight.add(p)
  }, 1000 / perSecond)
  return async () => {
    clearInterval(timer)
    await Promise.all(inFlight)
    return { submit, approve, failures }
  }
}

async function ceilings(data: BenchData): Promise<Record<string, number>> {
  const sql = postgres(DATABASE_URL!, { max: 1, onnotice: () => {} })
  const database = await createDb(DATABASE_URL!, { max: 2 })
  const out: Record<string, number> = {}
  const seconds = Number(args['pgbench-time'])
  try {
    const n = 2000
    const slugs = data.slugs.slice(0, n)
    // the related query's parameters too: the event's category, city and tags (as the array literal it sends)
    const details = await sql`select e.slug, e.id, e.category_id as cat, coalesce(e.city_id, '') as city,
        '{' || coalesce((select string_agg(tag_id, ',' order by tag_id) from event_tags where event_id = e.id), '') || '}' as tags
      from events e where e.slug in ${sql(slugs)}`
    await sql`drop table if exists bench_params_detail, bench_params_list, bench_params_search`
    await sql`create table bench_params_detail (n int primary key, slug text, id text, cat text, city text, tags text)`
    await sql`insert into bench_params_detail ${sql(details.map((r, i) => ({ n: i + 1, slug: r.slug, id: r.id, cat: r.cat, city: r.city, tags: r.tags })))}`
    await sql`create table bench_params_list (n int primary key, city text, cat text)`
    const combos = Array.from({ length: 500 }, (_, i) => ({
      n: i + 1,
      city: data.cities[i % data.cities.length],
      cat: data.categories[(i * 7) % data.categories.length],
    }))
    await sql`insert into bench_params_list ${sql(combos)}`
    await sql`create table bench_params_search (n int primary key, word text, tsq text, match text, old text)`
    const words = data.words.slice(0, 300)
    const searchRows: { n: number; word: string; tsq: string; match: string; old: string }[] = []
    for (const [i, word] of words.entries()) {
      const search = await eventSearchQuery(database, word)
      searchRows.push({ n: i + 1, word, tsq: search?.tsquery ?? word, match: search?.match ?? '', old: `${word}:*` })
    }
    await sql`insert into bench_params_search ${sql(searchRows)}`

    // a sample with a city and tags, so every read of the related query is in the script
    const sample = details.find((r) => r.city && r.tags !== '{}') ?? details[0]
    const detailSql = await captureQueries(DATABASE_URL!, async (db) => {
      const found = await findPublishedEvent(db, sample.slug)
      await relatedEvents(db, found!.relatedTo, Date.now())
    })
    const page = { page: 1, limit: 12, offset: 0 }
    const listSql = await captureQueries(DATABASE_URL!, (db) =>
      listEvents(db, { kota: combos[0].city, kategori: combos[0].cat, sort: 'start_date_asc' } as never, page),
    )
    const searchSql = await captureQueries(DATABASE_URL!, async (db) =>
      listEvents(db, await prepareSearch(db, { q: searchRows[0].word } as never), page),
    )
    const oldSearch = [
      {
        query: `SELECT e.id, e.title, e.slug FROM events e JOIN categories ca ON ca.id = e.category_id LEFT JOIN cities ci ON ci.id = e.city_id
                WHERE e.status = 'published' AND (e.search_vector @@ to_tsquery('indonesian', $1) OR $2 <% e.search_text)
                ORDER BY e.created_at DESC, e.id DESC LIMIT 12`,
        params: [searchRows[0].old, searchRows[0].word],
      },
      {
        query: `SELECT count(*)::int FROM events e WHERE e.status = 'published'
                AND (e.search_vector @@ to_tsquery('indonesian', $1) OR $2 <% e.search_text)`,
        params: [searchRows[0].old, searchRows[0].word],
      },
    ]
    const scripts = {
      detail: pgbenchScript(detailSql, 'bench_params_detail', details.length, {
        slug: sample.slug,
        id: sample.id,
        cat: sample.cat,
        city: sample.city,
        tags: sample.tags,
      }),
      list: pgbenchScript(listSql, 'bench_params_list', combos.length, { city: combos[0].city, cat: combos[0].cat }),
      search: pgbenchScript(searchSql, 'bench_params_search', searchRows.length, {
        word: searchRows[0].word,
        tsq: searchRows[0].tsq,
        match: searchRows[0].match,
      }),
      'search-old': pgbenchScript(oldSearch, 'bench_params_search', searchRows.length, {
        old: searchRows[0].old,
        word: searchRows[0].word,
      }),
    }
    mkdirSync(join(workDir, 'sql'), { recursive: true })
    for (const [name, script] of Object.entries(scripts)) {
      out[name] = await pgbench(DATABASE_URL!, script, join(workDir, 'sql', `${name}.sql`), 8, seconds)
      writeFileSync(join(repoRoot, 'bench/results', `ceiling-${name}.sql`), script)
      log(`ceiling ${name}: ${out[name]} tps (pgbench -c8, random parameters)`)
    }
  } finally {
    await sql`drop table if exists bench_params_detail, bench_params_list, bench_params_search`.catch(() => {})
    await sql.end({ timeout: 5 })
    await database.close()
  }
  return out
}

async function main() {
  const database = await createDb(DATABASE_URL!, { max: 2 })
  await migrateDb(database)
  await database.close()
  const data = await loadBenchData(DATABASE_URL!)
  if (data.slugs.length < 1000) throw new Error('run `bun run bench:data -- --events 100000` first')
  log(`${data.slugs.length} published events, ${data.words.length} search words; work dir ${workDir}`)

  const catalog = await startService('catalog')
  const admin = await startService('admin')
  const gateway = await startGateway(`127.0.0.1:${catalog.port}`, `127.0.0.1:${admin.port}`)
  const login = await fetch(`${admin.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USER, password: ADMIN_PASSWORD }),
  })
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]
  if (login.status !== 200 || !cookie) throw new Error(`admin login answered ${login.status}`)
  const sql = postgres(DATABASE_URL!, { max: 1, onnotice: () => {} })
  // tags by name, as a submission names them (the data's most used ones)
  const [pool] = await sql<{ categories: string[]; cities: string[]; tags: string[] }[]>`
    select array(select id from categories where is_active order by slug) as categories,
      array(select id from cities order by slug) as cities,
      array(select name from tags where slug = any(${data.tags}) order by slug) as tags`
  await sql.end()
  const write = writer(catalog.url, admin.url, cookie, { ...pool, words: data.words })

  // the writes' own latency on an idle service, warm: the first few after a start pay for JIT
  // and the statements' first planning (~200 ms against ~30), and the p99 of 30 samples is their
  // largest, so until the fourteenth round that one cold write set the idle figure the loaded
  // p99 was divided by
  for (let i = 0; i < IDLE_WARMUP_WRITES; i++) await write()
  const idle: number[] = []
  for (let i = 0; i < 30; i++) idle.push((await write()).submitMs)
  const submitIdleP99Ms = percentile(idle, 99)
  log(`submission idle: p50 ${percentile(idle, 50)} ms, p99 ${submitIdleP99Ms} ms`)

  const urlCount = Number(args['url-count'])
  const files: Record<string, string> = {}
  const fileFor = (scenario: Scenario) => {
    const kind = typeof scenario.urls === 'string' ? scenario.urls : `fixed-${scenario.urls.fixed}`
    if (!files[kind]) {
      const list =
        typeof scenario.urls === 'string'
          ? urls(scenario.urls, data, urlCount, 20261123)
          : [scenario.urls.fixed === 'list' ? '/api/events' : `/api/events/${data.slugs[0]}`]
      files[kind] = join(workDir, `${kind}.txt`)
      writeFileSync(files[kind], `${list.join('\n')}\n`)
    }
    return files[kind]
  }

  const runs: RunResult[] = []
  const submitLoaded: number[] = []
  for (const scenario of SCENARIOS) {
    if (ONLY && !ONLY.has(scenario.name)) continue
    const base = scenario.viaGateway ? gateway.url : catalog.url
    const file = fileFor(scenario)
    await wrk(base, file, WARMUP, scenario.acceptEncodings)
    resetPeak(catalog.pid)
    const stopWrites = scenario.writesPerSec ? writeLoop(write, scenario.writesPerSec) : null
    const load0 = loadavg()[0]
    const watched = { catalog: catalog.pid, admin: admin.pid, caddy: scenario.viaGateway ? gateway.pid : undefined }
    const snapshot = () => cpuSnapshot(watched, { postgres: 'postgres' }, { 'catalog thread': catalog.pid })
    const cpu0 = snapshot()
    const s = await wrk(base, file, DURATION, scenario.acceptEncodings)
    const cpu = cpuUse(cpu0, snapshot(), s.requests, { wrk: s.cpuSeconds })
    const writes = stopWrites ? await stopWrites() : null
    if (writes) submitLoaded.push(...writes.submit)
    const errors = s.connect + s.read + s.write + s.timeout + s.status + (writes?.failures ?? 0)
    const run: RunResult = {
      name: scenario.name,
      label: scenario.label,
      rps: Math.round(s.requests / (s.duration_us / 1e6)),
      p50Ms: round(s.p50_us / 1000, 2),
      p99Ms: round(s.p99_us / 1000, 2),
      errors,
      timeouts: s.timeout,
      hitRate: s.hits + s.misses ? round(s.hits / (s.hits + s.misses), 3) : null,
      bytesPerAnswer: s.requests ? Math.round(s.bytes / s.requests) : 0,
      peakRssMiB: peakRss(catalog.pid),
      load1: [round(load0, 2), round(loadavg()[0], 2)],
      cpu,
      writes: writes
        ? {
            perSec: scenario.writesPerSec!,
            done: writes.submit.length,
            failures: writes.failures,
            submitP50Ms: percentile(writes.submit, 50),
            submitP99Ms: percentile(writes.submit, 99),
            approveP99Ms: percentile(writes.approve, 99),
          }
        : undefined,
    }
    runs.push(run)
    log(
      `${scenario.name}: ${run.rps} rps, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, errors ${errors}, hit rate ${run.hitRate}, ` +
        `peak RSS ${run.peakRssMiB} MiB${run.writes ? `, submit p99 ${run.writes.submitP99Ms} ms (${run.writes.done} writes)` : ''}; ` +
        `CPU per request: catalog ${cpu.usPerRequest.catalog} us (its JavaScript thread ${cpu.usPerRequest['catalog thread']}), ` +
        `postgres ${cpu.usPerRequest.postgres ?? '-'} us, ` +
        `wrk ${cpu.usPerRequest.wrk} us; cores: catalog ${cpu.cores.catalog}, postgres ${cpu.cores.postgres ?? '-'}, idle ${cpu.cores.idle}`,
    )
  }

  const ceilingTps = await ceilings(data)
  const measured: Measured = {
    rps: Object.fromEntries(runs.map((r) => [r.name, r.rps])),
    p99Ms: Object.fromEntries(runs.map((r) => [r.name, r.p99Ms])),
    errors: Object.fromEntries(runs.map((r) => [r.name, r.errors])),
    peakRssMiB: Object.fromEntries(runs.map((r) => [r.name, r.peakRssMiB])),
    ceilings: ceilingTps,
    submitIdleP99Ms,
    submitLoadedP99Ms: percentile(submitLoaded, 99),
  }
  const targets = TARGETS.map((t) => ({ name: t.name, result: t.check(measured) }))
  const report: Report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, memGiB: round(totalmem() / 2 ** 30), load1: loadavg()[0] },
    events: data.slugs.length,
    duration: DURATION,
    connections: CONNECTIONS,
    runs,
    ceilings: ceilingTps,
    submitIdleP99Ms,
    submitLoadedP99Ms: measured.submitLoadedP99Ms,
    targets,
  }
  const written = renderReport(report, join(repoRoot, 'bench/results'))
  for (const t of targets)
    console.log(
      `${t.result === null ? 'SKIP' : t.result.ok ? 'PASS' : 'FAIL'}  ${t.name}${t.result ? `: ${t.result.value}` : ''}`,
    )
  log(`report: ${written.join(', ')}`)
}

try {
  await main()
} finally {
  await stopAll()
}
