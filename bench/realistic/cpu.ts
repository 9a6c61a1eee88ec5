// Where a scenario's CPU went, read from /proc around its measured run: the catalog process, the
// local PostgreSQL server (every process named `postgres`), Caddy, wrk, and what the machine left
// idle. Per request, it tells whether a scenario is bound by the service, by the database or by
// the machine: a miss that costs the catalog's one JavaScript thread 0.6 ms cannot be fixed in SQL.
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100

export interface CpuSnapshot {
  at: number
  /** CPU seconds used so far by each watched part (null when it is not on this machine) */
  parts: Record<string, number | null>
  /** idle seconds of the whole machine (every core) */
  idle: number
}

export interface CpuUse {
  /** microseconds of CPU per request, by part */
  usPerRequest: Record<string, number | null>
  /** cores used by each part, and left idle, on average over the run */
  cores: Record<string, number | null>
}

/** CPU seconds of a process, or of one of its threads (`/proc/<pid>/task/<tid>/stat`: the same fields). */
function processSeconds(pid: number, thread?: number): number | null {
  try {
    // the fields after the command name (which may hold spaces) start after its last ')'
    const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`
    const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ')
    // utime and stime are the stat file's 14th and 15th fields (11th and 12th after the name)
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return null
  }
}

/** Every process whose command name is `name`, as a new server process (a connection) may start any time. */
function pidsNamed(name: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry))
    } catch {
      // the process ended meanwhile
    }
  }
  return pids
}

function machineIdleSeconds(): number {
  // cpu  user nice system idle iowait ...
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  return (Number(fields[4]) + Number(fields[5])) / TICKS_PER_SECOND
}

/**
 * The CPU seconds so far of the processes given by pid, of all processes named in `byName`
 * (summed; a PostgreSQL backend that exits between two snapshots takes its seconds with it, so
 * the database's share is a lower bound when connections come and go: the services keep theirs),
 * and of the main threads of the processes in `mainThreads`: a Bun service's JavaScript runs on
 * its main thread (tid = pid), which bounds its throughput; the process total also counts the
 * collector's and the runtime's other threads.
 */
export function cpuSnapshot(
  pids: Record<string, number | undefined>,
  byName: Record<string, string> = {},
  mainThreads: Record<string, number | undefined> = {},
): CpuSnapshot {
  const parts: Record<string, number | null> = {}
  for (const [part, pid] of Object.entries(pids)) parts[part] = pid === undefined ? null : processSeconds(pid)
  for (const [part, pid] of Object.entries(mainThreads)) parts[part] = pid === undefined ? null : processSeconds(pid, pid)
  for (const [part, name] of Object.entries(byName)) {
    const pids = pidsNamed(name)
    parts[part] = pids.length ? pids.reduce((sum, pid) => sum + (processSeconds(pid) ?? 0), 0) : null
  }
  return { at: performance.now(), parts, idle: machineIdleSeconds() }
}

/** What each part used between two snapshots, per request and in cores; `extra`: parts measured otherwise (wrk's own rusage). */
export function cpuUse(before: CpuSnapshot, after: CpuSnapshot, requests: number, extra: Record<string, number> = {}): CpuUse {
  const seconds = (after.at - before.at) / 1000
  const used: Record<string, number | null> = { ...extra }
  for (const part of Object.keys(after.parts)) {
    const [a, b] = [before.parts[part], after.parts[part]]
    used[part] = a === null || b === null ? null : Math.max(0, b - a)
  }
  const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits
  const usPerRequest: Record<string, number | null> = {}
  const cores: Record<string, number | null> = {}
  for (const [part, s] of Object.entries(used)) {
    usPerRequest[part] = s === null || !requests ? null : Math.round((s * 1e6) / requests)
    cores[part] = s === null ? null : round(s / seconds, 2)
  }
  cores.idle = round((after.idle - before.idle) / seconds, 2)
  return { usPerRequest, cores }
}
