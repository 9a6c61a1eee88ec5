// The hostile client (hostile.ts) against the whole API as `bun start` composes it, over real
// HTTP: every malformed request gets a 4xx envelope, never a 5xx; and nothing it sent was stored.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { startWholeApp, type WholeApp } from '../security/whole-app'
import { curlOf, httpSender, runHostile } from './hostile'

let whole: WholeApp

beforeAll(async () => {
  whole = await startWholeApp({
    SUBMIT_LIMIT_PER_HOUR: '100000',
    UPLOAD_LIMIT_PER_MINUTE: '100000',
    CHECK_FILE_LIMIT_PER_MINUTE: '100000',
  })
}, 60_000)
afterAll(async () => {
  await whole?.stop()
}, 30_000)

test('no hostile request gets a 5xx or a failure without the envelope', async () => {
  const count = async () => (await whole.database.rows<{ n: number }>(sql`select count(*)::int as n from events`))[0]!.n
  const before = await count()
  const { sent, failures } = await runHostile(httpSender(whole.base))
  const report = failures.map((f) => `${f.reason}: ${curlOf(whole.base, f.case)} -> ${f.body.slice(0, 120)}`)
  expect(report).toEqual([])
  expect(sent).toBeGreaterThan(3000)
  // every submission it sent was malformed: none was stored
  expect(await count()).toBe(before)
}, 120_000)
