// The soak's short form for CI: 60 s of mixed traffic through the gateway (the full 10 minutes:
// `bun run soak -- --minutes 10`). SOAK_SECONDS changes the length.
import { expect, test } from 'bun:test'
import { report, runSoak, soakFailures } from './soak'

const seconds = Number(process.env.SOAK_SECONDS || 60)

test(`soak: ${seconds} s of mixed traffic, no errors, steady p99, flat RSS, pools back`, async () => {
  const result = await runSoak({ seconds })
  console.log(report(result))
  expect(result.requests).toBeGreaterThan(seconds * 5)
  expect(soakFailures(result)).toEqual([])
}, (seconds + 240) * 1000)
