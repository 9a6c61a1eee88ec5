// The soak's short form for CI: 60 s of mixed traffic through the gateway (the full 10 minutes:
// `bun run soak -- --minutes 10`). SOAK_SECONDS changes the length.
import { expect, test } from 'bun:test'
import { medianOfThree, report, runSoak, slope, soakFailures } from './soak'

const seconds = Number(process.env.SOAK_SECONDS || 60)

test(`soak: ${seconds} s of mixed traffic, no errors, steady p99, flat RSS, pools back`, async () => {
  const result = await runSoak({ seconds })
  console.log(report(result))
  expect(result.requests).toBeGreaterThan(seconds * 5)
  expect(soakFailures(result)).toEqual([])
}, (seconds + 240) * 1000)

test('RSS trend: a one-sample spike (a password hash) is not growth, a steady rise is', () => {
  const minutes = Array.from({ length: 20 }, (_, i) => i / 20)
  const flatWithSpikes = minutes.map((_, i) => (i % 5 === 4 || i === 19 ? 214 : 150))
  expect(slope(minutes, medianOfThree(flatWithSpikes))).toBe(0)
  const leaking = minutes.map((t, i) => 150 + 40 * t + (i % 5 === 4 ? 64 : 0))
  expect(slope(minutes, medianOfThree(leaking))).toBeGreaterThan(30)
})
