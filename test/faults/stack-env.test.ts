// `bun run stack` passes the user's environment through to every service it starts: a
// non-default submission limit and a Secure cookie, set only in the environment of the
// `bun run stack` process, are enforced through the gateway.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Subprocess } from 'bun'
import { freePort, repoRoot, stopProcess } from '../../scripts/stack-lib'

const ADMIN = { username: 'envuji', password: 'kata-sandi-uji-env-2026' }
let stack: Subprocess<'ignore', 'pipe', 'pipe'>
let gw: string

beforeAll(async () => {
  const port = freePort()
  gw = `http://127.0.0.1:${port}`
  stack = Bun.spawn(['bun', 'run', 'scripts/stack.ts'], {
    cwd: repoRoot,
    // no DATABASE_URL: the stack starts (and later removes) its own throwaway cluster
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      GATEWAY_PORT: String(port),
      CATALOG_REPLICAS: '1',
      MEDIA_REPLICAS: '1',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SUBMIT_LIMIT_PER_HOUR: '2',
      COOKIE_SECURE: 'true',
    },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const deadline = Date.now() + 150_000
  while (Date.now() < deadline && stack.exitCode === null) {
    const ok = await fetch(`${gw}/api/stats`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return
    await Bun.sleep(250)
  }
  throw new Error(`bun run stack did not come up: ${await new Response(stack.stderr).text()}`)
}, 180_000)

afterAll(async () => {
  // the stack stops everything it started on SIGTERM
  if (stack) await stopProcess(stack, 45_000)
}, 60_000)

test('SUBMIT_LIMIT_PER_HOUR=2 set for `bun run stack`: the third submission is a 429 through the gateway', async () => {
  const categories = (await (await fetch(`${gw}/api/categories?limit=100`)).json()) as any
  const submit = (n: number) =>
    fetch(`${gw}/api/events/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Acara Uji Lingkungan ${n}`,
        category_id: categories.data[0].id,
        start_date: '2031-06-01',
        start_time: '19:00',
        organizer_name: 'Tim Uji',
        contact_email: 'uji@example.id',
      }),
    })
  const statuses: number[] = []
  for (let n = 1; n <= 3; n++) statuses.push((await submit(n)).status)
  expect(statuses).toEqual([201, 201, 429])
  const refused = await submit(4)
  expect(refused.status).toBe(429)
  expect(refused.headers.get('retry-after')).toBeTruthy()
  expect(((await refused.json()) as any).success).toBe(false)
}, 30_000)

test('COOKIE_SECURE=true set for `bun run stack`: the admin session cookie is Secure', async () => {
  const login = await fetch(`${gw}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  expect(login.status).toBe(200)
  expect(login.headers.get('set-cookie')).toMatch(/;\s*Secure/i)
}, 30_000)
