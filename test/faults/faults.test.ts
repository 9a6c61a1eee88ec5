// Faults on the local stack (scripts/stack-lib.ts) with traffic running: a real PostgreSQL
// cluster this test starts (so it can stop and freeze it), s3rver as the object store, two
// replicas of catalog, news, admin and media behind real Caddy. Each fault is followed by an
// integrity check of the database: every 201 submission exactly once, each with both tag links;
// after the database and storage faults, every service process must still be running.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort, repoRoot, startStack, stopProcess, type ServiceProcess, type Stack } from '../../scripts/stack-lib'
import { freezePostgres, thaw } from './postgres-faults'
import { failureLogLines, integrityProblems, runTraffic, summary, type Kind, type Outcome } from './traffic'

const ADMIN = { username: 'gangguan', password: 'kata-sandi-uji-gangguan-2026' }
// a request that takes longer than this is hung, whatever the fault
const REQUEST_BOUND_MS = 10_000
const FAULT_BOUND_MS = 5_000
/** caddy/Caddyfile `fail_duration`: how long the gateway leaves out a replica that refused a connection */
const GATEWAY_FAIL_DURATION_MS = 3_500

let stack: Stack
let s3: Subprocess<'ignore', 'pipe', 'inherit'>
let s3Port: number
let s3Dir: string
let gw: string
let categoryId: string
let adminCookie: string
let runCounter = 0

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 'faults-s3-'))
  s3Port = freePort()
  s3 = await startS3()
  stack = await startStack({
    gatewayPort: freePort(),
    catalogReplicas: 2,
    mediaReplicas: 2,
    newsReplicas: 2,
    adminReplicas: 2,
    s3: { endpoint: `http://127.0.0.1:${s3Port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'uploads' },
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    env: { SUBMIT_LIMIT_PER_HOUR: '1000000', UPLOAD_LIMIT_PER_MINUTE: '1000000' },
    // start-up only: on a loaded machine nine Bun processes starting at once take their time
    readyTimeoutMs: 180_000,
    ...(process.env.FAULTS_WORK_DIR ? { workDir: process.env.FAULTS_WORK_DIR } : {}),
  })
  gw = stack.gateway
  categoryId = ((await (await fetch(`${gw}/api/categories?limit=1`)).json()) as any).data[0].id
  const login = await fetch(`${gw}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  adminCookie = login.headers.get('set-cookie')!.split(';')[0]
}, 420_000)

afterAll(async () => {
  await stack?.stop()
  if (s3) await stopProcess(s3)
  rmSync(s3Dir, { recursive: true, force: true })
}, 90_000)

async function startS3() {
  const proc = Bun.spawn(['bun', 'test/faults/s3-server.ts', String(s3Port), s3Dir], {
    cwd: repoRoot,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = proc.stdout.getReader()
  const first = await Promise.race([reader.read(), Bun.sleep(90_000).then(() => null)])
  reader.releaseLock()
  if (!first || first.done) {
    proc.kill('SIGKILL')
    throw new Error('s3rver did not start')
  }
  return proc
}

interface Probe {
  status: number
  ms: number
  envelope: boolean
}

async function probe(path: string, init?: RequestInit, base = gw): Promise<Probe> {
  const started = performance.now()
  try {
    const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_BOUND_MS) })
    const body = (await res.json().catch(() => null)) as any
    return { status: res.status, ms: performance.now() - started, envelope: body?.success === false && typeof body.error === 'string' }
  } catch {
    return { status: 0, ms: performance.now() - started, envelope: false }
  }
}

let probeCounter = 0
// a URL no replica has answered before: it reaches the database
const freshRead = () => `/api/events?page=${500_000 + ++probeCounter}`

/** caddy/upstreams/static.caddy `health_interval`: how often the gateway asks each replica's /ready */
const GATEWAY_HEALTH_INTERVAL_MS = 2_000

/**
 * Waits (at most `limitMs`) until every replica of every service answers /ready 200 straight away,
 * then for one more round of the gateway's active checks, so each test's fault starts from a stack
 * the gateway routes to in full. The faults before it leave replicas out for a while: after the
 * storage fault a media replica's storage check ran past the gateway's 2 s health timeout for
 * ~10 s on a loaded VM, and the next test killed the other replica into a gateway with none.
 * A stack that does not come back is this test's failure, named.
 */
async function settled(limitMs = 30_000) {
  const { catalog, newsReplicas, adminReplicas, media } = stack.services
  const replicas = [...catalog, ...newsReplicas, ...adminReplicas, ...media]
  const started = performance.now()
  let notReady: string[] = []
  do {
    const answers = await Promise.all(replicas.map((s) => probe('/ready', undefined, s.url)))
    notReady = replicas.filter((_, i) => answers[i].status !== 200 || answers[i].ms > 1000).map((s) => s.name)
    if (!notReady.length) break
    await Bun.sleep(250)
  } while (performance.now() - started < limitMs)
  expect(notReady).toEqual([])
  await Bun.sleep(GATEWAY_HEALTH_INTERVAL_MS + 500)
}

/** Traffic runs while `fault` runs (and a moment before and after); returns every outcome. */
async function underTraffic(kinds: Kind[], fault: () => Promise<void>, concurrency = 4, keepAlive = true, retryConnectionErrors = false) {
  await settled()
  const runId = `r${process.pid}x${++runCounter}`
  let faultDone = false
  const traffic = runTraffic({
    gateway: gw,
    kinds,
    concurrency,
    maxRequests: 4000,
    maxMs: 120_000,
    stop: () => faultDone,
    requestTimeoutMs: REQUEST_BOUND_MS + 5000,
    pauseMs: 20,
    categoryId,
    adminCookie,
    runId,
    keepAlive,
    retryConnectionErrors,
  })
  try {
    await Bun.sleep(700)
    await fault()
    await Bun.sleep(700)
  } finally {
    faultDone = true
  }
  const outcomes = await traffic
  return { runId, outcomes }
}

/** Service processes that ended (no fault here may end one: a lost database connection is a 503). */
function deadServices(): string[] {
  const { catalog, newsReplicas, adminReplicas, media, docs } = stack.services
  return [...catalog, ...newsReplicas, ...adminReplicas, ...media, docs]
    .filter((s) => s.proc.exitCode !== null || s.proc.signalCode !== null)
    .map((s) => `${s.name} ended: exit ${s.proc.exitCode}, signal ${s.proc.signalCode} (see ${s.logFile})`)
}

function expectNoHang(outcomes: Outcome[]) {
  expect(outcomes.length).toBeGreaterThan(10)
  const hung = outcomes.filter((o) => o.status === 0 || o.ms > REQUEST_BOUND_MS)
  expect(hung).toEqual([])
}

async function expectIntegrity(runId: string, outcomes: Outcome[]) {
  expect(await integrityProblems(stack.databaseUrl, runId, outcomes)).toEqual([])
  expect(outcomes.some((o) => o.kind === 'submit' && o.status === 201)).toBe(true)
}

/** Polls a fresh read until it answers 200; the time that took. */
async function recoveryMs(limitMs = 20_000): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < limitMs) {
    if ((await probe(freshRead())).status === 200) return performance.now() - started
    await Bun.sleep(100)
  }
  return Infinity
}

/** The database is down for `holdMs`: fresh reads and /ready of every replica are 503 envelopes. */
async function probesWhileDown(holdMs: number) {
  const probes: Probe[] = []
  const ready: Probe[] = []
  const started = performance.now()
  while (performance.now() - started < holdMs) {
    probes.push(await probe(freshRead()))
    for (const s of stack.services.catalog) ready.push(await probe('/ready', undefined, s.url))
  }
  return { probes, ready }
}

/** The three slowest requests of the traffic, for the log. */
function slowestOutcomes(outcomes: Outcome[]) {
  const top = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 3)
  return `slowest requests: ${top.map((o) => `${o.kind} ${o.status} ${Math.round(o.ms)} ms`).join(', ')}`
}

/** The slowest probe and /ready answer while the database was down, for the log. */
function slowest(down: Awaited<ReturnType<typeof probesWhileDown>> | undefined) {
  const max = (list: Probe[] = []) => Math.round(Math.max(0, ...list.map((p) => p.ms)))
  return `slowest probe ${max(down?.probes)} ms, slowest /ready ${max(down?.ready)} ms`
}

describe('faults under traffic', () => {
  test('PostgreSQL stopped: 503 envelopes within 5 s, /ready false, back within 5 s of its restart, nothing hangs', async () => {
    const cluster = stack.cluster!
    let down: Awaited<ReturnType<typeof probesWhileDown>> | undefined
    let recovered = Infinity
    // how long pg_ctl took to stop and to start, for the log (a slow machine shows here first)
    const phases: string[] = []
    const timed = async (name: string, step: () => Promise<void>) => {
      const started = performance.now()
      await step()
      phases.push(`${name} ${Math.round(performance.now() - started)} ms`)
    }
    const { runId, outcomes } = await underTraffic(['read', 'search', 'submit', 'news'], async () => {
      await timed('stop', () => cluster.stop())
      try {
        down = await probesWhileDown(4000)
      } finally {
        await timed('start', () => cluster.start())
      }
      recovered = await recoveryMs()
    })
    console.log('postgres stopped:', summary(outcomes), phases.join(', '), `recovered in ${Math.round(recovered)} ms`, slowest(down), slowestOutcomes(outcomes))
    expect(deadServices()).toEqual([])
    expect(down!.probes.length).toBeGreaterThan(0)
    for (const p of down!.probes) {
      expect(p).toMatchObject({ status: 503, envelope: true })
      expect(p.ms).toBeLessThan(FAULT_BOUND_MS)
    }
    for (const r of down!.ready) expect(r.status).toBe(503)
    expect(recovered).toBeLessThan(FAULT_BOUND_MS)
    expectNoHang(outcomes)
    expect(outcomes.filter((o) => ![200, 201, 503].includes(o.status) || (o.status === 503 && !o.envelope))).toEqual([])
    await expectIntegrity(runId, outcomes)
  }, 180_000)

  test('PostgreSQL hung (SIGSTOP of the postmaster and every backend): the same, through the query deadline', async () => {
    let down: Awaited<ReturnType<typeof probesWhileDown>> | undefined
    let recovered = Infinity
    const { runId, outcomes } = await underTraffic(['read', 'search', 'submit', 'news'], async () => {
      const pids = freezePostgres(stack.cluster!.dataDir)
      try {
        down = await probesWhileDown(6000)
      } finally {
        thaw(pids)
      }
      recovered = await recoveryMs()
    })
    console.log('postgres hung:', summary(outcomes), `recovered in ${Math.round(recovered)} ms`, slowest(down), slowestOutcomes(outcomes))
    expect(deadServices()).toEqual([])
    expect(down!.probes.length).toBeGreaterThan(0)
    for (const p of down!.probes) {
      expect(p).toMatchObject({ status: 503, envelope: true })
      expect(p.ms).toBeLessThan(FAULT_BOUND_MS)
    }
    for (const r of down!.ready) expect(r.status).toBe(503)
    expect(recovered).toBeLessThan(FAULT_BOUND_MS)
    expectNoHang(outcomes)
    expect(outcomes.filter((o) => ![200, 201, 503].includes(o.status) || (o.status === 503 && !o.envelope))).toEqual([])
    await expectIntegrity(runId, outcomes)
  }, 180_000)

  test('storage stopped: uploads are 503 envelopes within 5 s, reads unaffected, uploads back after', async () => {
    const uploads: Probe[] = []
    let uploadsBack = false
    const { outcomes } = await underTraffic(['read', 'upload', 'search', 'upload'], async () => {
      s3.kill('SIGKILL')
      await s3.exited
      try {
        const started = performance.now()
        while (performance.now() - started < 4000) {
          const form = new FormData()
          form.append('file', new File([new Uint8Array(readFileSync(join(import.meta.dir, 'probe.png')))], 'p.png', { type: 'image/png' }))
          uploads.push(await probe('/api/upload', { method: 'POST', body: form }))
        }
      } finally {
        s3 = await startS3()
      }
      const deadline = performance.now() + 20_000
      let okInARow = 0
      while (!uploadsBack && performance.now() < deadline) {
        const form = new FormData()
        form.append('file', new File([new Uint8Array(readFileSync(join(import.meta.dir, 'probe.png')))], 'p.png', { type: 'image/png' }))
        // back on every media replica (each has its own storage connections): several in a row
        okInARow = (await probe('/api/upload', { method: 'POST', body: form })).status === 200 ? okInARow + 1 : 0
        uploadsBack = okInARow >= 4
        if (!okInARow) await Bun.sleep(200)
      }
    })
    console.log('storage stopped:', summary(outcomes))
    expect(deadServices()).toEqual([])
    expect(uploads.length).toBeGreaterThan(0)
    for (const u of uploads) {
      expect(u).toMatchObject({ status: 503, envelope: true })
      expect(u.ms).toBeLessThan(FAULT_BOUND_MS)
    }
    expect(uploadsBack).toBe(true)
    expectNoHang(outcomes)
    expect(outcomes.filter((o) => o.kind !== 'upload' && o.status !== 200)).toEqual([])
    expect(outcomes.filter((o) => o.kind === 'upload' && !(o.status === 200 || (o.status === 503 && o.envelope)))).toEqual([])
  }, 180_000)

  test('one catalog and one media replica SIGKILLed: only the requests they held fail, the gateway skips them', async () => {
    const victims = [stack.services.catalog[1], stack.services.media[1]]
    let killedAt = 0
    const { runId, outcomes } = await underTraffic(['read', 'upload', 'search', 'submit', 'upload'], async () => {
      for (const v of victims) v.proc.kill('SIGKILL')
      killedAt = performance.now()
      await Bun.sleep(3000)
    })
    console.log('replicas killed:', summary(outcomes))
    const failed = outcomes.filter((o) => o.status !== 200 && o.status !== 201)
    for (const f of failed)
      console.log('failed after kill:', f.kind, f.status, `+${Math.round(f.startedAt - killedAt)} ms`, `${Math.round(f.ms)} ms`)
    // in flight: sent before the kill, or in the instant after it on a connection Caddy had
    // already opened to the dead replica (a POST on it cannot be replayed): 500 ms of grace
    for (const f of failed) expect(f.startedAt).toBeLessThanOrEqual(killedAt + 500)
    expect(failed.length).toBeLessThanOrEqual(8)
    expect(outcomes.filter((o) => o.startedAt > killedAt + 500).length).toBeGreaterThan(10)
    expectNoHang(outcomes.filter((o) => o.status !== 0 || o.startedAt > killedAt + 500))
    await expectIntegrity(runId, outcomes)
    stack.services.catalog[1] = await stack.restart(victims[0])
    stack.services.media[1] = await stack.restart(victims[1])
    // the next test starts from a gateway that routes to every replica again: Caddy's passive
    // health check keeps a replica that refused a connection out for fail_duration (3 s)
    await Bun.sleep(GATEWAY_FAIL_DURATION_MS)
  }, 420_000)

  test('SIGTERM of every service replica under load (rolling): zero failed requests', async () => {
    const { services } = stack
    const groups: [ServiceProcess[], number][] = [
      [services.catalog, 0],
      [services.newsReplicas, 0],
      [services.adminReplicas, 0],
      [services.media, 0],
    ]
    const { runId, outcomes } = await underTraffic(['read', 'news', 'admin', 'submit', 'upload', 'search'], async () => {
      for (const replica of [0, 1]) {
        await Promise.all(
          groups.map(async ([list]) => {
            list[replica] = await stack.restart(list[replica])
          }),
        )
        // as a rolling deploy does: the next replica goes only once the gateway takes the
        // restarted one back (it left it out for fail_duration when its listener closed)
        await Bun.sleep(GATEWAY_FAIL_DURATION_MS)
      }
    })
    console.log('rolling SIGTERM:', summary(outcomes))
    for (const line of failureLogLines(stack.workDir, outcomes)) console.log(line)
    expectNoHang(outcomes)
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 201)).toEqual([])
    await expectIntegrity(runId, outcomes)
  }, 600_000)

  test('Caddy reloaded under load (three times): zero failed requests', async () => {
    const { runId, outcomes } = await underTraffic(['read', 'news', 'admin', 'submit', 'upload', 'search'], async () => {
      for (let i = 0; i < 3; i++) {
        await stack.reloadGateway()
        await Bun.sleep(700)
      }
    }, 4, false, true)
    console.log('caddy reloads:', summary(outcomes), `${outcomes.filter((o) => o.retried).length} retried after a connection error`)
    for (const line of failureLogLines(stack.workDir, outcomes)) console.log(line)
    expectNoHang(outcomes)
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 201)).toEqual([])
    await expectIntegrity(runId, outcomes)
  }, 180_000)
})
