// Traffic for the fault tests and the soak: a bounded loop of concurrent requests through the
// gateway (count, time and per-request limits), every outcome recorded. Reads use a fresh URL
// each time (a page number or a search word never asked before), so each one reaches the
// database rather than a replica's response cache. Loopback only.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import postgres from 'postgres'

export interface Outcome {
  kind: string
  status: number // 0: no answer (connection error, or aborted at the per-request limit)
  startedAt: number // performance.now()
  ms: number
  envelope: boolean // a non-2xx answer had the {success:false,error} envelope
  retried?: boolean
  title?: string // submissions: the unique title sent
  // a non-2xx answer: its envelope's message (the gateway's or the service's own, which tells
  // them apart) and the request id the gateway and the service logged it under
  error?: string
  requestId?: string
}

export type Kind = 'read' | 'search' | 'news' | 'submit' | 'upload' | 'admin'

export interface TrafficOptions {
  gateway: string
  kinds: Kind[]
  concurrency: number
  /** Hard limits: the loop stops at whichever comes first, or when `stop()` returns true. */
  maxRequests: number
  maxMs: number
  stop?: () => boolean
  /** Per-request limit: a request taking longer counts as hung (status 0). */
  requestTimeoutMs?: number
  /** Pause after each request, per worker (a steady rate rather than a flood). */
  pauseMs?: number
  categoryId: string
  /**
   * false: a new connection per request. Used across a gateway reload: a client that reuses a
   * keep-alive connection can race the old server closing it (any HTTP/1.1 server), which a
   * browser retries and which says nothing about the gateway.
   */
  keepAlive?: boolean
  /**
   * Retry once a request whose connection failed before any answer (what browsers do for a
   * reused connection the server closed). A submission retried after it was in fact stored
   * would show up as a duplicate in the integrity check.
   */
  retryConnectionErrors?: boolean
  /** Session cookie for the `admin` kind (the moderation list, a fresh page each time). */
  adminCookie?: string
  /** Unique per run: submissions are found again by title. */
  runId: string
}

// a valid 1x1 PNG padded to 2 KB with a trailing chunk the decoder ignores
const PNG = (() => {
  const base = Uint8Array.from(
    atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
    (c) => c.charCodeAt(0),
  )
  const out = new Uint8Array(2048)
  out.set(base)
  return out
})()

export const submissionTitle = (runId: string, n: number) => `Uji Gangguan ${runId} ${n}`

function request(kind: Kind, n: number, o: TrafficOptions): { path: string; init?: RequestInit; title?: string } {
  switch (kind) {
    case 'read':
      return { path: `/api/events?page=${n + 2}&limit=${1 + (n % 7)}` }
    case 'search':
      return { path: `/api/events?q=${encodeURIComponent(`konser ${o.runId}${n}`)}` }
    case 'news':
      return { path: `/api/news?page=${n + 2}` }
    case 'submit': {
      const title = submissionTitle(o.runId, n)
      return {
        path: '/api/events/submit',
        title,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            title,
            category_id: o.categoryId,
            start_date: '2031-07-01',
            start_time: '19:00',
            organizer_name: 'Tim Uji Gangguan',
            contact_email: 'uji@example.id',
            // two tags: a row without both links is a half-written submission
            tags: `Gangguan ${o.runId}, Uji ${n}`,
          }),
        },
      }
    }
    case 'admin':
      return { path: `/api/admin/events?status=pending&page=${n + 2}`, init: { headers: { cookie: o.adminCookie ?? '' } } }
    case 'upload': {
      const form = new FormData()
      form.append('file', new File([PNG], 'poster.png', { type: 'image/png' }))
      return { path: '/api/upload', init: { method: 'POST', body: form } }
    }
  }
}

/** Runs the loop until a limit is reached; resolves with every outcome. */
export async function runTraffic(o: TrafficOptions): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  const started = performance.now()
  const timeout = o.requestTimeoutMs ?? 15_000
  let next = 0
  const worker = async () => {
    while (next < o.maxRequests && performance.now() - started < o.maxMs && !o.stop?.()) {
      const n = next++
      const kind = o.kinds[n % o.kinds.length]
      const { path, init, title } = request(kind, n, o)
      const startedAt = performance.now()
      let status = 0
      let envelope = false
      let retried = false
      let error: string | undefined
      let requestId: string | undefined
      const send = () =>
        fetch(`${o.gateway}${path}`, {
          ...(kind === 'upload' ? request(kind, n, o).init : init),
          signal: AbortSignal.timeout(timeout),
          ...(o.keepAlive === false ? { keepalive: false } : {}),
        })
      try {
        let res: Response
        try {
          res = await send()
        } catch (error) {
          if (!o.retryConnectionErrors || (error as Error).name === 'TimeoutError') throw error
          retried = true
          res = await send()
        }
        status = res.status
        const text = await res.text()
        if (status >= 300) {
          requestId = res.headers.get('x-request-id') ?? undefined
          const body = JSON.parse(text)
          envelope = body?.success === false && typeof body.error === 'string'
          if (envelope) error = body.error
        }
      } catch {
        // status 0 (or a non-JSON body: envelope stays false)
      }
      outcomes.push({
        kind,
        status,
        startedAt,
        ms: performance.now() - startedAt,
        envelope,
        title,
        retried,
        ...(status >= 300 ? { error, requestId } : {}),
      })
      if (o.pauseMs) await Bun.sleep(o.pauseMs)
    }
  }
  await Promise.all(Array.from({ length: o.concurrency }, worker))
  return outcomes
}

/** Counts by kind and status, for failure messages. */
/**
 * The log lines (services' and the gateway's, in `workDir`) that name the request id of a failed
 * outcome: printed before a "zero failed requests" assertion, so a failure says which part
 * answered it and why, after the stack and its logs are gone.
 */
export function failureLogLines(workDir: string, outcomes: Outcome[]): string[] {
  const ids = outcomes.filter((o) => o.status >= 300 && o.requestId).map((o) => o.requestId!)
  if (ids.length === 0) return []
  const lines: string[] = []
  for (const file of readdirSync(workDir).filter((f) => f.endsWith('.log')))
    for (const line of readFileSync(join(workDir, file), 'utf8').split('\n'))
      if (ids.some((id) => line.includes(id))) lines.push(`${file}: ${line.slice(0, 600)}`)
  return lines
}

export function summary(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const o of outcomes) counts[`${o.kind} ${o.status}`] = (counts[`${o.kind} ${o.status}`] ?? 0) + 1
  return counts
}

/**
 * The database after a fault: every submission answered 201 is there exactly once, no title
 * of this run is there twice, and every submission of this run has both of its tag links.
 */
export async function integrityProblems(databaseUrl: string, runId: string, outcomes: Outcome[]): Promise<string[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 })
  try {
    const rows = await sql<{ title: string; copies: number; links: number }[]>`
      select e.title, count(*)::int as copies, min((select count(*) from event_tags t where t.event_id = e.id))::int as links
      from events e where e.title like ${`Uji Gangguan ${runId} %`} group by e.title`
    const byTitle = new Map(rows.map((r) => [r.title, r]))
    const problems: string[] = []
    for (const o of outcomes)
      if (o.kind === 'submit' && o.status === 201 && !byTitle.has(o.title!)) problems.push(`201 but missing: ${o.title}`)
    for (const r of rows) {
      if (r.copies !== 1) problems.push(`${r.copies} copies: ${r.title}`)
      if (r.links !== 2) problems.push(`${r.links} tag links instead of 2: ${r.title}`)
    }
    return problems
  } finally {
    await sql.end({ timeout: 5 })
  }
}
