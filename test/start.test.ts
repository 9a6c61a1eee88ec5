// `bun start` as a newcomer runs it: one process, PGlite under DATA_DIR, demo data and an admin
// on first start, the same data on the second.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collect, freePort, repoRoot, stop, waitFor } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function start(dataDir: string, env: Record<string, string> = {}) {
  const port = freePort()
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const proc = Bun.spawn(['bun', 'run', 'main.ts'], {
    cwd: repoRoot,
    env: { ...inherited, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  return { proc, port, base: `http://127.0.0.1:${port}`, stdout: collect(proc.stdout), stderr: collect(proc.stderr) }
}

describe('bun start', () => {
  test('first start migrates, seeds and prints a generated admin password once; the second reuses the data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-'))
    dirs.push(dataDir)
    const first = start(dataDir)
    try {
      await waitFor(`${first.base}/ready`, 60_000, first.proc)
      const events = await (await fetch(`${first.base}/api/events`)).json()
      expect(events.pagination.total).toBeGreaterThanOrEqual(60)
      const docs = await fetch(`${first.base}/api/openapi.json`)
      expect(docs.status).toBe(200)
      expect(first.stdout.text).toMatch(/Password: \S{20,}/)
    } finally {
      expect(await stop(first.proc)).toBe(0)
    }
    const second = start(dataDir)
    try {
      await waitFor(`${second.base}/ready`, 60_000, second.proc)
      const stats = await (await fetch(`${second.base}/api/stats`)).json()
      expect(stats.stats.published_events).toBeGreaterThanOrEqual(60)
      expect(second.stdout.text).not.toContain('Password:')
    } finally {
      expect(await stop(second.proc)).toBe(0)
    }
  }, 120_000)

  test('SEED_DEMO=false starts empty; ADMIN_USERNAME/ADMIN_PASSWORD means no generated password', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-'))
    dirs.push(dataDir)
    const run = start(dataDir, { SEED_DEMO: 'false', ADMIN_USERNAME: 'redaksi', ADMIN_PASSWORD: 'sebuah-password-panjang' })
    try {
      await waitFor(`${run.base}/ready`, 60_000, run.proc)
      const stats = await (await fetch(`${run.base}/api/stats`)).json()
      expect(stats.stats).toEqual({ total_events: 0, published_events: 0, total_categories: 0, total_cities: 0, total_news: 0 })
      expect(run.stdout.text).not.toContain('Password:')
    } finally {
      expect(await stop(run.proc)).toBe(0)
    }
  }, 120_000)
})
