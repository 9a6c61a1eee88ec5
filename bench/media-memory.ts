// Peak memory of the media service while four 24 MB uploads run at once.
//
//   bun run bench/media-memory.ts            disk driver, PGlite under a temporary DATA_DIR
//   bun run bench/media-memory.ts --s3       S3 driver against s3rver on loopback (started here)
//   DATABASE_URL=postgres://... bun run bench/media-memory.ts
//   options: --uploads 4  --rounds 3
//
// Starts `bun run services/media/src/main.ts` as a child process on a free port, waits for
// /ready, reads the child's /proc/<pid>/status (VmRSS every 5 ms, and VmHWM, the kernel's own
// peak, reset just before the uploads where the kernel allows it), posts the uploads over real
// HTTP, checks every answer, prints the figures, then stops the child and removes its files.
import { spawn } from 'bun'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    s3: { type: 'boolean', default: false },
    uploads: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    bytes: { type: 'string', default: String(24 * 1024 * 1024) },
  },
})
const UPLOADS = Number(args.uploads)
const ROUNDS = Number(args.rounds)
const FILE_BYTES = Number(args.bytes)
const root = resolve(import.meta.dir, '..')
const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** VmRSS and VmHWM of a process, in bytes. */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024
  return { rss: field('VmRSS'), hwm: field('VmHWM') }
}

/** Resets the kernel's peak-RSS counter (VmHWM) of a process; false where that is not allowed. */
async function resetPeak(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'media-bench-'))
const port = freePort()
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  PORT: String(port),
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  UPLOAD_LIMIT_PER_MINUTE: '100000',
  PUBLIC_MEDIA_URL: `http://127.0.0.1:${port}/media/`,
}
let s3: { close(): Promise<void> } | undefined
if (args.s3) {
  const { default: S3rver } = await import('s3rver')
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dataDir, 's3rver') })
  const address = await server.run()
  s3 = server
  Object.assign(env, {
    S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
    S3_BUCKET: 'bench',
  })
}

// the standalone service expects a migrated database (compose runs a migrate job first)
const migrate = spawn(['bun', 'run', 'shared/db/src/cli/migrate.ts'], { cwd: root, env, stdout: 'ignore', stderr: 'inherit' })
if ((await migrate.exited) !== 0) throw new Error('migrations failed')

const child = spawn(['bun', 'run', 'services/media/src/main.ts'], { cwd: root, env, stdout: 'inherit', stderr: 'inherit' })
const base = `http://127.0.0.1:${port}`
try {
  const deadline = Date.now() + 60_000
  for (;;) {
    const ready = await fetch(`${base}/ready`).catch(() => undefined)
    if (ready?.status === 200) break
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('media service did not become ready')
    await Bun.sleep(200)
  }
  // the bun process is the child itself (spawn runs it directly, no shell in between)
  const pid = child.pid

  // distinct PNG-signature files of exactly 24 MB each
  const files = Array.from({ length: UPLOADS }, (_, n) => {
    const bytes = new Uint8Array(FILE_BYTES)
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    for (let i = 8; i < FILE_BYTES; i += 4096) bytes[i] = (i + n) & 0xff
    return new File([bytes], `bench-${n}.png`, { type: 'image/png' })
  })

  // warm-up upload so lazy initialisation is not counted as upload memory
  const warm = new FormData()
  warm.append('file', new File([files[0].slice(0, 1024)], 'warm.png', { type: 'image/png' }))
  await fetch(`${base}/api/upload`, { method: 'POST', body: warm })
  Bun.gc(true)
  await Bun.sleep(500)

  const idle = await memoryOf(pid)
  console.log(
    `driver ${args.s3 ? 's3 (s3rver)' : 'disk'}, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ` +
      `${UPLOADS} concurrent uploads of ${MiB(FILE_BYTES)}, ${ROUNDS} rounds`,
  )
  console.log(`idle after start: VmRSS ${MiB(idle.rss)} (VmHWM since start ${MiB(idle.hwm)})`)

  let overallPeak = 0
  const stored: string[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const before = await memoryOf(pid)
    const hwmReset = await resetPeak(pid)
    let peak = before.rss
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await memoryOf(pid)).rss)
        await Bun.sleep(5)
      }
    })()
    const started = performance.now()
    const results = await Promise.all(
      files.map(async (file) => {
        const form = new FormData()
        form.append('file', file)
        const response = await fetch(`${base}/api/upload`, { method: 'POST', body: form })
        const body = (await response.json()) as { success: boolean; url?: string; error?: string }
        if (response.status !== 200 || !body.url) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`)
        return body.url
      }),
    )
    const ms = performance.now() - started
    sampling = false
    await sampler
    const after = await memoryOf(pid)
    if (hwmReset) peak = Math.max(peak, after.hwm)
    overallPeak = Math.max(overallPeak, peak)
    stored.push(...results)
    console.log(
      `round ${round}: ${UPLOADS} x 200 in ${ms.toFixed(0)} ms; VmRSS before ${MiB(before.rss)}, peak ${MiB(peak)} ` +
        `(+${MiB(peak - before.rss)} over before, +${MiB(peak - idle.rss)} over idle), after ${MiB(after.rss)}` +
        (hwmReset ? '' : ' [VmHWM reset not allowed; peak from 5 ms VmRSS samples]'),
    )
  }
  // after the measurement (serving files maps them into memory): every stored file is whole
  for (const url of stored) {
    const file = await fetch(url)
    if ((await file.arrayBuffer()).byteLength !== FILE_BYTES) throw new Error(`stored file has the wrong size: ${url}`)
  }
  console.log(`${stored.length} stored files read back, ${MiB(FILE_BYTES)} each`)
  console.log(
    `PEAK RSS of the media service: ${MiB(overallPeak)} (idle ${MiB(idle.rss)}; +${MiB(overallPeak - idle.rss)} for ${UPLOADS} x 24 MB at once)`,
  )
} finally {
  child.kill('SIGTERM')
  const exited = await Promise.race([child.exited, Bun.sleep(10_000).then(() => undefined)])
  if (exited === undefined) child.kill('SIGKILL')
  await s3?.close()
  await rm(dataDir, { recursive: true, force: true })
}
