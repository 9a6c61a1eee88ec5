// Each service started alone as its own process: it serves its own routes plus /health and
// /ready, nothing else, and a SIGTERM lets the request in flight finish before it exits.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { collect, freePort, repoRoot, stop, waitFor } from './helpers'

let database: TestDatabase | undefined
const dataDir = mkdtempSync(join(tmpdir(), 'services-'))
const env: Record<string, string> = {}

beforeAll(async () => {
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  Object.assign(env, inherited, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase()
    env.DATABASE_URL = database.url!
  } else {
    // PGlite: one process at a time owns the data directory, so the services take turns
    const seed = Bun.spawnSync(['bun', 'run', 'shared/db/src/cli/seed.ts'], { cwd: repoRoot, env })
    if (!seed.success) throw new Error(seed.stderr.toString())
  }
})
afterAll(async () => {
  await database?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function startService(name: string, extra: Record<string, string> = {}) {
  const port = freePort()
  const proc = Bun.spawn(['bun', 'run', `services/${name}/src/main.ts`], {
    cwd: repoRoot,
    env: { ...env, PORT: String(port), ...extra },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const output = { stdout: collect(proc.stdout), stderr: collect(proc.stderr) }
  const base = `http://127.0.0.1:${port}`
  await waitFor(`${base}/ready`, 60_000, proc)
  return { proc, base, output }
}

const ROUTES: Record<string, { own: string[]; foreign: string[] }> = {
  catalog: {
    own: ['/api/events', '/api/categories', '/api/cities', '/api/tags', '/api/stats', '/api/settings'],
    foreign: ['/api/news', '/api/admin/me', '/api/check-file?url=x'],
  },
  news: { own: ['/api/news'], foreign: ['/api/events', '/api/admin/me', '/api/stats'] },
  admin: { own: [], foreign: ['/api/events', '/api/news', '/api/check-file?url=x'] },
  media: { own: [], foreign: ['/api/events', '/api/news', '/api/admin/me'] },
}

describe('services on their own', () => {
  for (const [name, routes] of Object.entries(ROUTES))
    test(`${name}: its own routes, /health and /ready; other services' routes are 404`, async () => {
      const service = await startService(name)
      try {
        expect((await fetch(`${service.base}/health`)).status).toBe(200)
        expect((await fetch(`${service.base}/ready`)).status).toBe(200)
        for (const path of routes.own) expect((await fetch(`${service.base}${path}`)).status).toBe(200)
        for (const path of routes.foreign) {
          const res = await fetch(`${service.base}${path}`)
          expect(res.status).toBe(404)
          expect((await res.json()).success).toBe(false)
        }
        if (name === 'admin') expect((await fetch(`${service.base}/api/admin/me`)).status).toBe(401)
      } finally {
        expect(await stop(service.proc)).toBe(0)
      }
    }, 90_000)

  test('SIGTERM: /ready turns 503, the request in flight completes, then the process exits 0', async () => {
    const service = await startService('catalog', { SHUTDOWN_DELAY_MS: '1000' })
    // a submission whose body arrives slowly keeps a request in flight across the signal
    const encoder = new TextEncoder()
    const body = JSON.stringify({ title: 'x' })
    let sent = 0
    const slowBody = new ReadableStream({
      async pull(controller) {
        if (sent >= body.length) return controller.close()
        await Bun.sleep(150)
        controller.enqueue(encoder.encode(body[sent++]))
      },
    })
    const inFlight = fetch(`${service.base}/api/events/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: slowBody,
      // @ts-expect-error Bun's fetch streams request bodies with duplex
      duplex: 'half',
    })
    await Bun.sleep(300)
    service.proc.kill('SIGTERM')
    await Bun.sleep(200)
    expect((await fetch(`${service.base}/ready`)).status).toBe(503)
    const res = await inFlight
    // the request was answered (a validation error: the title is too short), not cut off
    expect(res.status).toBe(400)
    expect((await res.json()).success).toBe(false)
    expect(await service.proc.exited).toBe(0)
    // and the listener is closed
    expect(
      await fetch(`${service.base}/health`).then(
        () => 'open',
        () => 'closed',
      ),
    ).toBe('closed')
  }, 60_000)
})
