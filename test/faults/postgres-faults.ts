// Freezing a PostgreSQL cluster (SIGSTOP), for the fault tests: a hung server enforces no
// statement_timeout and sends no reset, so only client-side deadlines end the wait.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * SIGSTOPs the postmaster first (it forks no new backend after that), then every backend; returns
 * the pids, each to be sent SIGCONT.
 */
export function freezePostgres(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
  process.kill(postmaster, 'SIGSTOP')
  const frozen = [postmaster]
  // its children, from /proc (no procps needed): field 4 of /proc/<pid>/stat is the parent
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return (
          Number(
            readFileSync(`/proc/${d}/stat`, 'utf8')
              .replace(/^.*\) /s, '')
              .split(' ')[1],
          ) === postmaster
        )
      } catch {
        return false
      }
    })
    .map(Number)
  for (const pid of children) {
    process.kill(pid, 'SIGSTOP')
    frozen.push(pid)
  }
  return frozen
}

export function thaw(pids: number[]) {
  for (const pid of pids) process.kill(pid, 'SIGCONT')
}
