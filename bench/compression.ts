// Bytes per answer and requests per second with compression on, per encoding, over many
// distinct URLs (event list pages, filters, details), against `bun start` (one process, PGlite,
// demo data) started here on a free port.
//
//   bun run bench/compression.ts                 10 s per encoding, 32 connections
//   bun run bench/compression.ts --seconds 3 --connections 8
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } },
})
const SECONDS = Number(args.seconds)
const CONNECTIONS = Number(args.connections)
const ENCODINGS = ['identity', 'gzip', 'br', 'zstd'] as const
const root = resolve(import.meta.dir, '..')

const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
const port = probe.port!
probe.stop(true)
const dataDir = mkdtempSync(join(tmpdir(), 'bench-compression-'))
const { DATABASE_URL: _db, ...env } = process.env
const proc = Bun.spawn(['bun', 'run', 'main.ts'], {
  cwd: root,
  env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' },
  stdout: 'ignore',
  stderr: 'inherit',
})
const base = `http://127.0.0.1:${port}`

try {
  for (let i = 0; i < 300 && !(await fetch(`${base}/ready`).catch(() => null))?.ok; i++) await Bun.sleep(200)
  // the workload: many distinct URLs (list pages of several sizes, filters, details)
  const list = (await (await fetch(`${base}/api/events?limit=100`)).json()) as any
  const categories = (await (await fetch(`${base}/api/categories`)).json()) as any
  const urls: string[] = []
  for (const limit of [10, 20, 50, 100])
    for (let page = 1; page <= 5; page++) urls.push(`/api/events?limit=${limit}&page=${page}`)
  for (const c of categories.data) urls.push(`/api/events?kategori=${c.slug}&limit=50`)
  for (const e of list.data) urls.push(`/api/events/${e.slug}`)
  urls.push('/api/categories', '/api/cities', '/api/tags', '/api/news?limit=20', '/api/stats')

  console.log(`${urls.length} distinct URLs, ${CONNECTIONS} connections, ${SECONDS} s per encoding\n`)
  console.log('| Accept-Encoding | answers | rps | mean bytes/answer | limit=100 list bytes |')
  console.log('|---|---:|---:|---:|---:|')
  for (const encoding of ENCODINGS) {
    const headers = { 'accept-encoding': encoding }
    const big = await fetch(`${base}/api/events?limit=100`, { headers, decompress: false } as RequestInit)
    const bigBytes = (await big.arrayBuffer()).byteLength
    // warm: every URL answered (and cached, with this encoding's form) once before timing
    for (const url of urls) await (await fetch(base + url, { headers, decompress: false } as RequestInit)).arrayBuffer()
    let answers = 0
    let bytes = 0
    let failures = 0
    const deadline = performance.now() + SECONDS * 1000
    const start = performance.now()
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, worker) => {
        for (let i = worker; performance.now() < deadline; i += CONNECTIONS) {
          const res = await fetch(base + urls[i % urls.length], { headers, decompress: false } as RequestInit)
          const body = await res.arrayBuffer()
          if (res.status !== 200) failures++
          answers++
          bytes += body.byteLength
        }
      }),
    )
    const elapsed = (performance.now() - start) / 1000
    console.log(
      `| ${encoding} | ${answers}${failures ? ` (${failures} not 200)` : ''} | ${Math.round(answers / elapsed)} | ${Math.round(bytes / answers)} | ${bigBytes} |`,
    )
  }
} finally {
  proc.kill('SIGTERM')
  await proc.exited
  rmSync(dataDir, { recursive: true, force: true })
}
