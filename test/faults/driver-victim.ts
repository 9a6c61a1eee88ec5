// The database side of a service process, run by driver.test.ts as its own process so that a
// crash shows as its exit status: a pool (createDb, as the services use it) and a LISTEN
// connection, and NO process guard (shared/kit/src/process-guard.ts), so what survives here is
// the driver itself.
//
//   bun test/faults/driver-victim.ts sequence <n>   n queries one after the other, then a summary
//   bun test/faults/driver-victim.ts traffic        queries and notifications until SIGTERM,
//                                                   a status line every 100 ms
// The database URL comes from VICTIM_DATABASE_URL. Every line on stdout is one JSON object.
import { sql } from 'drizzle-orm'
import { createDb, isDatabaseUnavailable, sqlState } from '@app/db'

const CHANNEL = 'driver_fault'
const [mode, count] = process.argv.slice(2)
const db = await createDb(process.env.VICTIM_DATABASE_URL, { max: 4 })

const codeOf = (error: unknown): string => {
  const e = error as any
  return sqlState(error) ?? e?.cause?.code ?? e?.code ?? String(e?.message ?? error)
}

if (mode === 'sequence') {
  const results: string[] = []
  const unexpected: string[] = []
  for (let i = 0; i < Number(count ?? 5); i++) {
    try {
      await db.rows(sql`select 1 as one`)
      results.push('ok')
    } catch (error) {
      results.push(codeOf(error))
      if (!isDatabaseUnavailable(error)) unexpected.push(String(error))
    }
  }
  // a rejection nobody handles surfaces within a tick or two; give it time to end the process
  await Bun.sleep(300)
  console.log(JSON.stringify({ results, unexpected }))
  await db.close()
} else {
  let stopping = false
  let ok = 0
  let failed = 0
  let notes = 0
  let lastOkAt = 0
  let lastNoteAt = 0
  let listens = 0
  // the slowest failure since the last status line: a failure must come quickly, not hang
  let slowestFailMs = 0
  let slowestOkMs = 0
  const unexpected: string[] = []
  const codes: Record<string, number> = {}

  await db.listen(
    CHANNEL,
    () => {
      notes++
      lastNoteAt = Date.now()
    },
    () => listens++,
  )

  const worker = async () => {
    while (!stopping) {
      const started = performance.now()
      try {
        await db.rows(sql`select pg_notify(${CHANNEL}, 'x')`)
        ok++
        lastOkAt = Date.now()
        slowestOkMs = Math.max(slowestOkMs, performance.now() - started)
        await Bun.sleep(5)
      } catch (error) {
        failed++
        slowestFailMs = Math.max(slowestFailMs, performance.now() - started)
        const code = codeOf(error)
        codes[code] = (codes[code] ?? 0) + 1
        if (!isDatabaseUnavailable(error)) unexpected.push(String(error))
        await Bun.sleep(20)
      }
    }
  }
  const workers = Array.from({ length: 4 }, worker)
  const status = () => {
    console.log(JSON.stringify({ at: Date.now(), ok, failed, notes, listens, lastOkAt, lastNoteAt, slowestFailMs, slowestOkMs }))
    slowestFailMs = slowestOkMs = 0
  }
  const timer = setInterval(status, 100)
  process.once('SIGTERM', async () => {
    stopping = true
    clearInterval(timer)
    await Promise.all(workers)
    await db.close()
    console.log(JSON.stringify({ done: true, ok, failed, notes, listens, codes, unexpected }))
    process.exit(0)
  })
}
