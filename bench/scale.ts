// Scale-out rehearsal: `bun run bench:scale`. Starts the local stack (scripts/stack-lib.ts:
// throwaway PostgreSQL, services as processes, Caddy) once per replica layout, drives the same
// mixed load through the gateway (distinct URLs: lists by page and category, details by slug,
// categories, news, stats; a stream of organiser submissions as writes), then checks that every
// approved event is visible on every catalog replica the moment the approval answers.
// Writes bench/results/scale-<date>.md. Short by default (SCALE_SECONDS=6 per layout).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, repoRoot, startStack, type Stack } from '../scripts/stack-lib'

const LAYOUTS = [
  { catalog: 1, media: 1 },
  { catalog: Number(process.env.CATALOG_REPLICAS ?? 4), media: Number(process.env.MEDIA_REPLICAS ?? 3) },
]
const SECONDS = Number(process.env.SCALE_SECONDS ?? 6)
const CONCURRENCY = 32
const WRITE_SHARE = 0.05
const VISIBILITY_CHECKS = 5
const ADMIN = { username: 'skala', password: 'kata-sandi-skala-2026' }

interface Result {
  layout: string
  requests: number
  rps: number
  p50: number
  p99: number
  errors: number
  writes: number
  seen: string
}

async function readUrls(gw: string): Promise<string[]> {
  const events = (await (await fetch(`${gw}/api/events?limit=100`)).json()) as any
  const categories = (await (await fetch(`${gw}/api/categories?limit=100`)).json()) as any
  const urls = [
    ...events.data.map((e: any) => `/api/events/${e.slug}`),
    ...categories.data.map((c: any) => `/api/events?kategori=${c.slug}&limit=20`),
    ...Array.from({ length: 20 }, (_, i) => `/api/events?page=${i + 1}&limit=10`),
    '/api/categories',
    '/api/cities',
    '/api/stats',
    '/api/news',
  ]
  return urls
}

function submission(categoryId: number, n: number) {
  return {
    title: `Acara Skala ${n} ${Date.now()}`,
    category_id: categoryId,
    start_date: '2031-06-01',
    start_time: '19:00',
    organizer_name: 'Tim Skala',
    contact_email: 'skala@example.id',
  }
}

async function drive(stack: Stack, urls: string[], categoryId: number) {
  const latencies: number[] = []
  let errors = 0
  let writes = 0
  const deadline = performance.now() + SECONDS * 1000
  let n = 0
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = n++
      const write = Math.random() < WRITE_SHARE
      const at = performance.now()
      const res = write
        ? await fetch(`${stack.gateway}/api/events/submit`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(submission(categoryId, i)),
          })
        : await fetch(`${stack.gateway}${urls[i % urls.length]}`)
      await res.arrayBuffer()
      latencies.push(performance.now() - at)
      if (write) writes++
      if (res.status >= 500 || (write && res.status !== 201)) errors++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10
  return { requests: latencies.length, rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99), errors, writes }
}

/** Submit, approve, and read the detail on every catalog replica directly, right after the approval answers. */
async function visibility(stack: Stack, categoryId: number): Promise<{ seen: number; of: number }> {
  const login = await fetch(`${stack.gateway}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!
  let seen = 0
  let of = 0
  for (let i = 0; i < VISIBILITY_CHECKS; i++) {
    const submitted = (await (
      await fetch(`${stack.gateway}/api/events/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(submission(categoryId, 1_000_000 + i)),
      })
    ).json()) as any
    const { id, slug } = submitted.event
    const approved = await fetch(`${stack.gateway}/api/admin/events/${id}/approve`, { method: 'POST', headers: { cookie } })
    if (approved.status !== 200) throw new Error(`approve answered ${approved.status}`)
    for (const replica of stack.services.catalog) {
      of++
      if ((await fetch(`${replica.url}/api/events/${slug}`)).status === 200) seen++
    }
  }
  return { seen, of }
}

const results: Result[] = []
for (const layout of LAYOUTS) {
  const stack = await startStack({
    gatewayPort: freePort(),
    catalogReplicas: layout.catalog,
    mediaReplicas: layout.media,
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    env: { SUBMIT_LIMIT_PER_HOUR: '1000000' },
  })
  try {
    const urls = await readUrls(stack.gateway)
    const categoryId = ((await (await fetch(`${stack.gateway}/api/categories?limit=1`)).json()) as any).data[0].id
    const load = await drive(stack, urls, categoryId)
    const check = await visibility(stack, categoryId)
    results.push({ layout: `${layout.catalog} catalog + ${layout.media} media`, ...load, seen: `${check.seen}/${check.of}` })
    console.log(JSON.stringify(results.at(-1)))
  } finally {
    await stack.stop()
  }
}

const date = new Date().toISOString().slice(0, 10)
const report = [
  `# Scale-out rehearsal (${date})`,
  '',
  `\`bun run bench:scale\`: ${SECONDS} s of mixed load per layout through Caddy, ${CONCURRENCY} concurrent clients, ` +
    `${WRITE_SHARE * 100}% organiser submissions, the rest reads over distinct URLs. Then ${VISIBILITY_CHECKS} events ` +
    'are approved and each one is read on every catalog replica directly right after the approval answers.',
  '',
  '| Layout | Requests | req/s | p50 ms | p99 ms | 5xx / failed writes | writes | approved events seen by replicas |',
  '|---|---|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.layout} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.writes} | ${r.seen} |`),
  '',
  `Machine: ${navigator.hardwareConcurrency} cores shared with other work; the load generator, Caddy, PostgreSQL and ` +
    'every replica compete for the same cores, so more replicas cannot add throughput here: the figure shows the ' +
    'cost of fan-out on one host, not the gain on several.',
  '',
]
mkdirSync(join(repoRoot, 'bench/results'), { recursive: true })
const file = join(repoRoot, `bench/results/scale-${date}.md`)
writeFileSync(file, report.join('\n'))
console.log(`report: ${file}`)
