// The CI form of the schema fuzz (openapi-fuzz.ts): a fixed seed, in-process (the whole API as
// `bun start` composes it, over real HTTP), a few thousand requests. The full run, 10,000+ requests
// through Caddy against the whole stack, is `bun run fuzz -- --runs 10000` (test/fuzz/run.ts).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ADMIN, startWholeApp, type WholeApp } from '../security/whole-app'
import { describeFailure, fuzz, standardSchema } from './openapi-fuzz'

const SEED = 1_2_2026
const RUNS = Number(process.env.FUZZ_RUNS || 3000)
let whole: WholeApp

beforeAll(async () => {
  whole = await startWholeApp({
    SUBMIT_LIMIT_PER_HOUR: '1000000',
    UPLOAD_LIMIT_PER_MINUTE: '1000000',
    CHECK_FILE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_MAX_FAILURES: '1000',
  })
}, 60_000)
afterAll(async () => {
  await whole?.stop()
}, 30_000)

test('the validator sees standard JSON Schema: non-standard keywords stripped, 0|1 enums typed by their values', () => {
  expect(standardSchema({ type: 'string', enum: [0, 1], error: 'x', examples: [1] })).toEqual({ enum: [0, 1] })
  expect(standardSchema({ type: 'string', format: 'integer', maxLength: 3 })).toEqual({ type: 'string', maxLength: 3 })
  expect(standardSchema({ properties: { error: { type: 'string' } } })).toEqual({ properties: { error: { type: 'string' } } })
})

test(`${RUNS} generated requests (seed ${SEED}): no 5xx, failures are the envelope, 2xx match the document`, async () => {
  const login = await fetch(`${whole.base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  const adminCookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('admin_session='))
    ?.split(';')[0]
  expect(adminCookie).toBeTruthy()
  const result = await fuzz({ base: whole.base, runs: RUNS, seed: SEED, adminCookie })
  expect(result.failures.map((f) => describeFailure(whole.base, SEED, f))).toEqual([])
  expect(result.sent).toBe(RUNS)
  // only Bun's own 431 for a request head above ~16 KB, a handful at most
  expect(result.protocolRefusals).toBeLessThan(RUNS / 100)
  // the generator reaches real answers, not only refusals
  expect(result.validated).toBeGreaterThan(RUNS / 10)
  expect(Object.keys(result.byStatus)).toEqual(expect.arrayContaining(['200', '400', '401', '404']))
}, 120_000)
