import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { cpuSnapshot, cpuUse } from './cpu'

describe('bench CPU accounting', () => {
  test('charges a busy process its own CPU, per request and in cores, and leaves absent parts null', () => {
    const before = cpuSnapshot({ self: process.pid, gone: undefined }, { none: 'no-such-process-name' })
    const until = performance.now() + 300
    let spins = 0
    while (performance.now() < until) spins++
    const after = cpuSnapshot({ self: process.pid, gone: undefined }, { none: 'no-such-process-name' })
    const use = cpuUse(before, after, 1000, { client: 0.05 })
    expect(spins).toBeGreaterThan(0)
    // 300 ms of spinning on one thread: most of a core (ticks are 10 ms; a busy 2-core machine steals some)
    expect(use.cores.self!).toBeGreaterThan(0.3)
    expect(use.cores.self!).toBeLessThan(1.5)
    expect(use.usPerRequest.self!).toBeGreaterThan(90)
    expect(use.usPerRequest.client).toBe(50)
    expect(use.usPerRequest.gone).toBeNull()
    expect(use.cores.none).toBeNull()
    expect(use.cores.idle).toBeGreaterThanOrEqual(0)
  })

  test("charges a process's main thread its own share: at most the process's, most of it while the main thread spins", () => {
    const snapshot = () => cpuSnapshot({ self: process.pid }, {}, { main: process.pid, gone: undefined })
    const before = snapshot()
    const until = performance.now() + 300
    while (performance.now() < until);
    const use = cpuUse(before, snapshot(), 1000)
    expect(use.cores.main!).toBeGreaterThan(0.3)
    expect(use.cores.main!).toBeLessThanOrEqual(use.cores.self! + 0.02)
    expect(use.cores.gone).toBeNull()
  })

  test('sums every process of a name (the bench reads PostgreSQL as all its `postgres` processes)', () => {
    const name = readFileSync(`/proc/${process.pid}/comm`, 'utf8').trim()
    const snapshot = cpuSnapshot({ self: process.pid }, { sameName: name })
    // this process is among those named as it is, so their sum holds at least its own seconds
    expect(snapshot.parts.sameName!).toBeGreaterThanOrEqual(snapshot.parts.self!)
  })
})
