// Peak memory of the API while many image variants are requested at once.
//
//   bun run bench:media:variants                     4 photos of 4000x3000, 72 variant requests at once
//   bun run bench/media-variants.ts --photos 2 --requests 24
//
// Starts `bun start` (main.ts: PGlite and disk storage under a temporary DATA_DIR) on a free
// port, uploads the photos over HTTP, then asks for `requests` distinct variants (sizes x
// formats x photos) all at once while sampling the child's VmRSS every 5 ms from /proc.
// Prints the RSS before and at peak and how the answers came out (200, or 503 once the
// variant queue is full: the memory bound is the concurrency limit, not the request rate).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import sharp from 'sharp'

const { values: args } = parseArgs({
  options: { photos: { type: 'string', default: '4' }, requests: { type: 'string', default: '72' } },
})
const PHOTOS = Number(args.photos)
const REQUESTS = Number(args.requests)
const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const root = resolve(import.meta.dir, '..')

const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
const port = probe.port!
probe.stop(true)
const dataDir = mkdtempSync(join(tmpdir(), 'bench-variants-'))
const { DATABASE_URL: _db, S3_ENDPOINT: _s3, ...env } = process.env
const proc = Bun.spawn(['bun', 'run', 'main.ts'], {
  cwd: root,
  env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error', UPLOAD_LIMIT_PER_MINUTE: '1000' },
  stdout: 'ignore',
  stderr: 'inherit',
})
const base = `http://127.0.0.1:${port}`
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024

try {
  for (let i = 0; i < 300 && !(await fetch(`${base}/ready`).catch(() => null))?.ok; i++) await Bun.sleep(200)
  const paths: string[] = []
  for (let i = 0; i < PHOTOS; i++) {
    // a noisy 12 Mpx photo (noise keeps the JPEG large, like a real poster scan)
    const noise = Buffer.alloc(400 * 300 * 3)
    for (let j = 0; j < noise.length; j++) noise[j] = (j * 7 + i * 13) % 256
    const photo = await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } })
      .resize(4000, 3000)
      .jpeg({ quality: 90 })
      .toBuffer()
    const form = new FormData()
    form.append('file', new File([photo], `photo-${i}.jpg`, { type: 'image/jpeg' }))
    const res = (await (await fetch(`${base}/api/upload`, { method: 'POST', body: form })).json()) as any
    if (!res.success) throw new Error(`upload failed: ${JSON.stringify(res)}`)
    paths.push(new URL(res.url).pathname)
    if (i === 0) console.log(`photo: 4000x3000 JPEG, ${MiB(photo.byteLength)}`)
  }
  const variants: string[] = []
  for (const w of ['160', '320', '640', '960', '1280', '1920'])
    for (const format of ['webp', 'avif', 'jpeg']) for (const path of paths) variants.push(`${path}?w=${w}&format=${format}`)
  const wanted = Array.from({ length: REQUESTS }, (_, i) => variants[i % variants.length])
  Bun.gc(true)
  await Bun.sleep(300)
  const before = rss()
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 5)
  const started = performance.now()
  const statuses = await Promise.all(wanted.map(async (u) => (await fetch(base + u)).status))
  const elapsed = performance.now() - started
  clearInterval(sampler)
  const counts: Record<number, number> = {}
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1
  console.log(`${REQUESTS} variant requests at once (${new Set(wanted).size} distinct) in ${Math.round(elapsed)} ms`)
  console.log(`answers: ${JSON.stringify(counts)}`)
  console.log(`RSS before: ${MiB(before)}, peak: ${MiB(peak)}, growth: ${MiB(peak - before)}`)
  // served from the store afterwards
  const again = performance.now()
  await Promise.all(wanted.slice(0, 18).map((u) => fetch(base + u).then((r) => r.arrayBuffer())))
  console.log(`18 of them again (from the store): ${Math.round(performance.now() - again)} ms`)
} finally {
  proc.kill('SIGTERM')
  await proc.exited
  rmSync(dataDir, { recursive: true, force: true })
}
