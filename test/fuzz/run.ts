// `bun run fuzz -- --runs 10000 [--seed N] [--base URL] [--username U --password P]`
// Schema fuzzing (openapi-fuzz.ts) against the whole stack through Caddy: without --base it starts
// the `bun run stack` topology (throwaway PostgreSQL, s3rver, two catalog and two media replicas,
// Caddy) with the rate limits raised, runs, and stops everything. With --base it fuzzes a running
// deployment (`bun start`, `bun run stack`); give an admin's credentials to reach the admin routes
// with a session. Exits 1 on any failure, printing the seed and a curl command per failure.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import S3rver from 's3rver'
import { freePort, startStack, type Stack } from '../../scripts/stack-lib'
import { curlOf, httpSender, runHostile } from './hostile'
import { describeFailure, fuzz } from './openapi-fuzz'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    base: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
  },
})
const runs = Number(values.runs)
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31)
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('usage: bun run fuzz -- --runs 10000 [--seed N] [--base URL] [--username U --password P]')
  process.exit(2)
}

// the designed limits would answer most requests 429 within a minute: the fuzz checks what is behind them
export const FUZZ_LIMITS = {
  SUBMIT_LIMIT_PER_HOUR: '1000000',
  UPLOAD_LIMIT_PER_MINUTE: '1000000',
  CHECK_FILE_LIMIT_PER_MINUTE: '1000000',
  LOGIN_MAX_FAILURES: '1000',
}

let stack: Stack | undefined
let s3: S3rver | undefined
let s3Dir: string | undefined
let base = values.base?.replace(/\/$/, '')
let credentials = values.username && values.password ? { username: values.username, password: values.password } : undefined
try {
  if (!base) {
    s3Dir = mkdtempSync(join(tmpdir(), 'fuzz-s3-'))
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir })
    const { port } = (await s3.run()) as { port: number }
    credentials = { username: 'fuzz-admin', password: `fuzz-${crypto.randomUUID()}` }
    console.log('[fuzz] starting the stack (PostgreSQL, s3rver, services, Caddy)...')
    stack = await startStack({
      gatewayPort: freePort(),
      catalogReplicas: 2,
      mediaReplicas: 2,
      s3: { endpoint: `http://127.0.0.1:${port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'uploads' },
      adminUsername: credentials.username,
      adminPassword: credentials.password,
      logLevel: 'warn',
      env: FUZZ_LIMITS,
    })
    base = stack.gateway
  }
  let adminCookie: string | undefined
  if (credentials) {
    const res = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    })
    adminCookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('admin_session='))
      ?.split(';')[0]
    if (!adminCookie) throw new Error(`admin login failed: ${res.status}`)
  }
  const started = performance.now()
  const result = await fuzz({
    base: base!,
    runs,
    seed,
    adminCookie,
    concurrency: Number(values.concurrency),
    log: (l) => console.log(`[fuzz] ${l}`),
  })
  for (const f of result.failures) console.log(describeFailure(base!, seed, f))
  console.log(
    `[fuzz] ${result.sent} requests in ${((performance.now() - started) / 1000).toFixed(1)} s against ${base}, seed ${seed}: ` +
      `${result.failures.length} failures, ${result.validated} 2xx answers validated, ${result.protocolRefusals} refused by an HTTP server before the app; by status ${JSON.stringify(result.byStatus)}`,
  )
  // and the hostile client's fixed list against the same target
  const hostile = await runHostile(httpSender(base!))
  for (const f of hostile.failures)
    console.log(`hostile ${f.reason}: ${f.case.label}\n  ${curlOf(base!, f.case)}\n  -> ${f.body.slice(0, 200)}`)
  console.log(
    `[fuzz] hostile client: ${hostile.sent} requests, ${hostile.failures.length} failures, ${hostile.protocolRefusals} refused by an HTTP server before the app`,
  )
  if (result.failures.length)
    console.log(`[fuzz] reproduce: bun run fuzz -- --runs ${runs} --seed ${seed}${values.base ? ` --base ${values.base}` : ''}`)
  process.exitCode = result.failures.length || hostile.failures.length ? 1 : 0
} catch (error) {
  console.error(`[fuzz] ${error instanceof Error ? error.stack : error}`)
  process.exitCode = 2
} finally {
  await stack?.stop()
  await s3?.close().catch(() => {})
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true })
}
