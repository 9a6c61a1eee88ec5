// The realistic scenarios and their targets, as data (issue 11). The runner (run.ts) measures
// each scenario with wrk over its URL list, with writes at the given rate meanwhile.
import type { UrlKind } from './urls'

export interface Scenario {
  name: string
  label: string
  /** a URL list, or one fixed path (the best case: the cache answers it) */
  urls: UrlKind | { fixed: 'list' | 'detail' }
  /** events submitted and approved through the API per second, during the run */
  writesPerSec?: number
  /** measured through Caddy instead of straight to the service */
  viaGateway?: boolean
  /**
   * The Accept-Encoding headers sent, in turn (each request the next; '' sends none). Absent:
   * none, as wrk sends by default (every answer plain).
   */
  acceptEncodings?: string[]
}

/**
 * Accept-Encoding as an audience's clients send it, one entry per 5% of requests: Chromium and
 * Firefox browsers (`gzip, deflate, br, zstd`) 45%, Safari (`gzip, deflate, br`) 15%, mobile
 * apps' HTTP stacks (OkHttp, URLSession: `gzip`) 30%, scripts and partners' jobs (none) 10%.
 */
const CLIENT_ENCODINGS = [
  ...Array<string>(9).fill('gzip, deflate, br, zstd'),
  ...Array<string>(3).fill('gzip, deflate, br'),
  ...Array<string>(6).fill('gzip'),
  ...Array<string>(2).fill(''),
]

export const SCENARIOS: Scenario[] = [
  { name: 'fixed-list', label: 'fixed URL /api/events (best case)', urls: { fixed: 'list' } },
  { name: 'fixed-detail', label: 'fixed URL, one event detail (best case)', urls: { fixed: 'detail' } },
  { name: 'detail', label: 'detail, Zipf(1.0) over every published slug', urls: 'detail' },
  { name: 'lists', label: 'lists, random filter/sort/page combinations', urls: 'lists' },
  { name: 'search', label: 'search, real title words, 1-2 words, 25% with a typo', urls: 'search' },
  { name: 'weekend', label: 'waktu=akhir-pekan + kota', urls: 'weekend' },
  { name: 'suggest', label: 'search suggestions as typed (1-N letters of real words)', urls: 'suggest' },
  { name: 'mix', label: 'mix 60% detail / 30% list / 10% search', urls: 'mix' },
  // right after the direct mix, so both meet the cache in the same state: after the write mixes
  // (as until the fourteenth round) the gateway's run met a cache the writes had thinned or the
  // direct run had warmed, and the ratio followed the hit rates (0.47x-0.83x between runs)
  { name: 'mix-gateway', label: 'mix through Caddy', urls: 'mix', viaGateway: true },
  {
    name: 'mix-clients',
    label: "the mix with browsers' and apps' Accept-Encoding",
    urls: 'mix',
    acceptEncodings: CLIENT_ENCODINGS,
  },
  { name: 'mix-w1', label: 'mix with 1 event/s submitted + approved', urls: 'mix', writesPerSec: 1 },
  { name: 'mix-w5', label: 'mix with 5 events/s submitted + approved', urls: 'mix', writesPerSec: 5 },
]

/** What a run measured, as the targets read it. */
export interface Measured {
  rps: Record<string, number>
  p99Ms: Record<string, number>
  errors: Record<string, number>
  peakRssMiB: Record<string, number>
  ceilings: Record<string, number>
  submitIdleP99Ms: number | null
  submitLoadedP99Ms: number | null
}

export interface Target {
  name: string
  /** null when the run did not measure what the target needs */
  check(m: Measured): { ok: boolean; value: string } | null
}

const ratio = (a?: number, b?: number) => (a && b ? a / b : null)
const has = (m: Measured, ...names: string[]) => names.every((n) => n in m.rps)

function atLeast(
  name: string,
  a: (m: Measured) => number | undefined,
  b: (m: Measured) => number | undefined,
  min: number,
): Target {
  return {
    name,
    check: (m) => {
      const r = ratio(a(m), b(m))
      return r === null ? null : { ok: r >= min, value: `${r.toFixed(2)}x (need >= ${min}x)` }
    },
  }
}

export const TARGETS: Target[] = [
  atLeast(
    'detail >= 50% of fixed-URL detail',
    (m) => m.rps.detail,
    (m) => m.rps['fixed-detail'],
    0.5,
  ),
  atLeast(
    'detail >= 2x its SQL ceiling',
    (m) => m.rps.detail,
    (m) => m.ceilings.detail,
    2,
  ),
  atLeast(
    'lists >= 30% of the fixed-URL list',
    (m) => m.rps.lists,
    (m) => m.rps['fixed-list'],
    0.3,
  ),
  {
    name: 'search p99 <= 50 ms',
    check: (m) => (has(m, 'search') ? { ok: m.p99Ms.search <= 50, value: `${m.p99Ms.search} ms` } : null),
  },
  atLeast(
    'search >= 20x the old search SQL ceiling',
    (m) => m.rps.search,
    (m) => m.ceilings['search-old'],
    20,
  ),
  atLeast(
    'mix with 5 writes/s >= 70% of reads-only mix',
    (m) => m.rps['mix-w5'],
    (m) => m.rps.mix,
    0.7,
  ),
  atLeast(
    'mix through Caddy >= 70% of direct',
    (m) => m.rps['mix-gateway'],
    (m) => m.rps.mix,
    0.7,
  ),
  {
    name: 'submission p99 under load <= 5x idle',
    check: (m) => {
      const r = ratio(m.submitLoadedP99Ms ?? undefined, m.submitIdleP99Ms ?? undefined)
      return r === null
        ? null
        : { ok: r <= 5, value: `${m.submitLoadedP99Ms} ms vs ${m.submitIdleP99Ms} ms idle (${r.toFixed(1)}x)` }
    },
  },
  {
    name: 'peak RSS of catalog <= 150 MB in every scenario',
    check: (m) => {
      const values = Object.values(m.peakRssMiB)
      if (!values.length) return null
      const peak = Math.max(...values)
      return { ok: peak * 1.048576 <= 150, value: `${peak} MiB` }
    },
  },
  {
    name: 'zero errors and timeouts',
    check: (m) => {
      const total = Object.values(m.errors).reduce((a, b) => a + b, 0)
      return { ok: total === 0, value: `${total}` }
    },
  },
]
