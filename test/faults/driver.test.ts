// The database driver of a service process under connection faults, on a throwaway PostgreSQL
// cluster started here (never the shared server). The process under test is driver-victim.ts:
// a pool and a LISTEN connection as the services have them, without the process guard, so a
// driver error that escapes ends it and shows as its exit status.
//
// 1. Deterministic: a proxy breaks new connections while they fetch their array types (the
//    first query postgres.js sends on every connection). Before the fix in
//    patches/postgres@3.4.9.patch the reset escaped as an unhandled rejection (`read
//    ECONNRESET` from node:net) and ended the process; the server's FATAL at that moment was
//    also replayed onto the next session's first query.
// 2. The real thing, with queries and notifications running: PostgreSQL stopped (fast: FATAL
//    57P01 to every session), killed (immediate), and frozen (SIGSTOP). Every failure comes
//    quickly, queries and notifications are back within 5 s of the restart, and the process
//    survives all of it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Socket, Subprocess } from 'bun'
import { sql } from 'drizzle-orm'
import { createDb } from '@app/db'
import { createCluster, repoRoot, type Cluster } from '../../scripts/stack-lib'
import { freezePostgres, thaw } from './postgres-faults'

const BOUND_MS = 5_000

let workDir: string
let cluster: Cluster
let pg: { hostname: string; port: number }

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'driver-faults-'))
  const created = await createCluster(workDir)
  if (!created) throw new Error('no PostgreSQL server binaries (initdb) found')
  cluster = created
  const url = new URL(cluster.url)
  pg = { hostname: url.hostname, port: Number(url.port) }
}, 120_000)

afterAll(async () => {
  await cluster?.destroy()
  rmSync(workDir, { recursive: true, force: true })
}, 60_000)

function victim(databaseUrl: string, ...args: string[]) {
  return Bun.spawn(['bun', 'test/faults/driver-victim.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, VICTIM_DATABASE_URL: databaseUrl },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

// ------------------------------------------------------------------ the breaking proxy

/** FATAL 57P01, exactly as pg_terminate_backend or a fast shutdown sends it. */
function adminShutdown(): Uint8Array {
  const fields = new TextEncoder().encode('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0')
  const message = new Uint8Array(5 + fields.length)
  message[0] = 'E'.charCodeAt(0)
  new DataView(message.buffer).setInt32(1, fields.length + 4)
  message.set(fields, 5)
  return message
}

interface Pipe {
  peer?: Socket<Pipe>
  // bytes not yet accepted by the socket (written once it drains)
  backlog: Uint8Array[]
  // bytes for the peer before its connection opened
  early: Uint8Array[]
}

function send(socket: Socket<Pipe>, bytes: Uint8Array) {
  if (socket.data.backlog.length) return void socket.data.backlog.push(bytes)
  const written = socket.write(bytes)
  if (written < bytes.length) socket.data.backlog.push(bytes.subarray(Math.max(written, 0)))
}

function drain(socket: Socket<Pipe>) {
  while (socket.data.backlog.length) {
    const bytes = socket.data.backlog[0]
    const written = socket.write(bytes)
    if (written < bytes.length) {
      socket.data.backlog[0] = bytes.subarray(Math.max(written, 0))
      return
    }
    socket.data.backlog.shift()
  }
}

/**
 * A TCP proxy to the cluster that breaks the first `times` connections when they send the
 * array types query: `reset` closes the client's side abortively (RST: the client reads
 * ECONNRESET), `fatal` sends FATAL 57P01 and closes it in order (a terminated backend).
 */
function breakingProxy(mode: 'reset' | 'fatal', times: number) {
  let broken = 0
  const server = Bun.listen<Pipe>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        client.data = { backlog: [], early: [] }
        void Bun.connect<Pipe>({
          ...pg,
          data: { backlog: [], early: [], peer: client },
          socket: {
            open(upstream) {
              client.data.peer = upstream
              for (const bytes of client.data.early) send(upstream, bytes)
              client.data.early = []
            },
            data: (upstream, bytes) => send(client, bytes),
            drain,
            close: () => client.end(),
            error: () => client.end(),
          },
        }).catch(() => client.end())
      },
      data(client, bytes) {
        if (broken < times && Buffer.from(bytes).includes('typcategory')) {
          broken++
          // the client's side first: ending the upstream ends the client in order (its close handler)
          if (mode === 'reset') client.terminate()
          else {
            client.write(adminShutdown())
            client.end()
          }
          client.data.peer?.end()
          return
        }
        const upstream = client.data.peer
        if (upstream) send(upstream, new Uint8Array(bytes))
        else client.data.early.push(new Uint8Array(bytes))
      },
      drain,
      close: (client) => client.data.peer?.end(),
      error: (client) => client.data.peer?.end(),
    },
  })
  return { url: `postgres://postgres@127.0.0.1:${server.port}/postgres`, broken: () => broken, stop: () => server.stop(true) }
}

async function runToEnd(proc: Subprocess<'ignore', 'pipe', 'pipe'>) {
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  return { code, stdout, stderr }
}

describe('a connection broken while it starts (array types query)', () => {
  test('reset (ECONNRESET): the queries fail with it, the process survives', async () => {
    const proxy = breakingProxy('reset', 3)
    try {
      const { code, stdout, stderr } = await runToEnd(victim(proxy.url, 'sequence', '6'))
      expect(stderr).not.toContain('ECONNRESET')
      expect(code).toBe(0)
      const { results, unexpected } = JSON.parse(stdout.trim().split('\n').pop()!)
      expect(proxy.broken()).toBe(3)
      expect(results).toEqual(['ECONNRESET', 'ECONNRESET', 'ECONNRESET', 'ok', 'ok', 'ok'])
      expect(unexpected).toEqual([])
    } finally {
      proxy.stop()
    }
  }, 60_000)

  test('FATAL 57P01: the query waiting for that connection fails with it, the next session starts clean', async () => {
    const proxy = breakingProxy('fatal', 1)
    try {
      const { code, stdout, stderr } = await runToEnd(victim(proxy.url, 'sequence', '3'))
      expect(stderr).not.toContain('57P01')
      expect(code).toBe(0)
      const { results, unexpected } = JSON.parse(stdout.trim().split('\n').pop()!)
      expect(proxy.broken()).toBe(1)
      // not replayed onto the first query of the next session
      expect(results).toEqual(['57P01', 'ok', 'ok'])
      expect(unexpected).toEqual([])
    } finally {
      proxy.stop()
    }
  }, 60_000)
})

// ------------------------------------------------------------------ the real server

interface Status {
  at: number
  ok: number
  failed: number
  notes: number
  listens: number
  lastOkAt: number
  lastNoteAt: number
  slowestFailMs: number
  slowestOkMs: number
}

/** Follows the victim's status lines. */
function follow(proc: Subprocess<'ignore', 'pipe', 'pipe'>) {
  const lines: Record<string, any>[] = []
  let last: Status | undefined
  const reading = (async () => {
    const decoder = new TextDecoder()
    let buffered = ''
    for await (const chunk of proc.stdout) {
      buffered += decoder.decode(chunk, { stream: true })
      let newline: number
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        if (!line.trim()) continue
        const parsed = JSON.parse(line)
        lines.push(parsed)
        if ('at' in parsed) last = parsed
      }
    }
  })()
  const statuses = () => lines.filter((l): l is Status => 'at' in l)
  return {
    lines,
    reading,
    last: () => last,
    /** The first status from `since` on that satisfies `check`, waiting at most `limitMs`. */
    async waitFor(check: (s: Status) => boolean, limitMs: number, since = 0): Promise<Status | undefined> {
      const deadline = Date.now() + limitMs
      while (Date.now() < deadline) {
        const hit = statuses().find((s) => s.at >= since && check(s))
        if (hit) return hit
        if (proc.exitCode !== null) return undefined
        await Bun.sleep(50)
      }
      return undefined
    },
    /** The slowest failed and successful query reported between `from` and `to`. */
    slowest(from: number, to: number) {
      const window = statuses().filter((s) => s.at >= from && s.at <= to + 200)
      return {
        failMs: Math.max(0, ...window.map((s) => s.slowestFailMs)),
        okMs: Math.max(0, ...window.map((s) => s.slowestOkMs)),
      }
    },
  }
}

describe('PostgreSQL itself fails under traffic (pool and LISTEN busy)', () => {
  test('stopped, killed, frozen: failures within 5 s, queries and notifications back within 5 s, the process survives', async () => {
    const proc = victim(cluster.url, 'traffic')
    const stderr = new Response(proc.stderr).text()
    const victimStatus = follow(proc)
    try {
      // running: queries answered and notifications arriving (a slow start on a busy machine is fine)
      expect(await victimStatus.waitFor((s) => s.ok > 20 && s.notes > 20, 60_000)).toBeDefined()

      const rounds: { fault: string; down: () => Promise<() => Promise<void>> }[] = [
        {
          fault: 'stopped (fast)',
          down: async () => {
            await cluster.stop('fast')
            return () => cluster.start()
          },
        },
        {
          fault: 'killed (immediate)',
          down: async () => {
            await cluster.stop('immediate')
            return () => cluster.start()
          },
        },
        {
          fault: 'frozen (SIGSTOP)',
          down: async () => {
            const pids = freezePostgres(cluster.dataDir)
            return async () => thaw(pids)
          },
        },
      ]
      for (const round of rounds) {
        const before = victimStatus.last()!
        const downAt = Date.now()
        const up = await round.down()
        // down long enough for every connection to notice (the frozen one: past the query deadline)
        const failing = await victimStatus.waitFor((s) => s.failed > before.failed, 20_000, downAt)
        expect({ fault: round.fault, failing: failing !== undefined }).toEqual({ fault: round.fault, failing: true })
        await Bun.sleep(4500)
        const restartAt = Date.now()
        await up()
        const upAt = Date.now()
        const queries = await victimStatus.waitFor((s) => s.lastOkAt >= upAt, 20_000, upAt)
        const notes = await victimStatus.waitFor((s) => s.lastNoteAt >= upAt, 20_000, upAt)
        const queriesBackMs = queries ? queries.lastOkAt - upAt : Infinity
        const notesBackMs = notes ? notes.lastNoteAt - upAt : Infinity
        const slowest = victimStatus.slowest(downAt, restartAt)
        console.log(
          `${round.fault}: slowest failure ${Math.round(slowest.failMs)} ms, queries back ${queriesBackMs} ms and notifications back ${notesBackMs} ms after the restart`,
        )
        expect(proc.exitCode).toBeNull()
        expect({ fault: round.fault, slowestFailureUnder5s: slowest.failMs < BOUND_MS }).toEqual({
          fault: round.fault,
          slowestFailureUnder5s: true,
        })
        expect({ fault: round.fault, queriesBackMs: queriesBackMs < BOUND_MS }).toEqual({
          fault: round.fault,
          queriesBackMs: true,
        })
        expect({ fault: round.fault, notesBackMs: notesBackMs < BOUND_MS }).toEqual({ fault: round.fault, notesBackMs: true })
        // steady again before the next fault
        const settled = victimStatus.last()!.ok
        expect(await victimStatus.waitFor((s) => s.ok > settled + 20 && s.notes > 0, 20_000)).toBeDefined()
      }
    } finally {
      if (proc.exitCode === null) proc.kill('SIGTERM')
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000)
      await proc.exited
      clearTimeout(timer)
      await victimStatus.reading.catch(() => {})
    }
    expect(await stderr).toBe('')
    expect(proc.exitCode).toBe(0)
    const done = victimStatus.lines.find((l) => l.done)
    expect(done).toBeDefined()
    // every failure said "database unavailable" (a 503), nothing else
    expect(done!.unexpected).toEqual([])
  }, 180_000)
})

describe('readiness under a full pool', () => {
  test('the ping answers at once while every pooled connection is busy and more queries wait', async () => {
    // what the pool looks like right after a hung database comes back: every connection busy,
    // a queue behind them. The ping says whether the database is reachable (it is), in well
    // under the gateway's 2 s health timeout, instead of waiting its turn in that queue.
    const database = await createDb(cluster.url, { max: 2 })
    try {
      await database.ping()
      const busy = Array.from({ length: 4 }, () => database.rows(sql`select pg_sleep(1)`))
      await Bun.sleep(100)
      const started = performance.now()
      await database.ping()
      const pingMs = performance.now() - started
      await Promise.all(busy)
      expect(pingMs).toBeLessThan(500)
    } finally {
      await database.close()
    }
  }, 60_000)
})
