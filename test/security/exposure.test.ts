// OWASP API Security Top 10 (2023), API8 Security Misconfiguration, on `bun start` without the
// gateway: the security headers on every answer (success, refusal, error, files, docs), and no
// stack trace, version, file path or SQL in any error body, for every hostile request of
// test/fuzz/hostile.ts and for an unexpected exception.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createBaseApp, createLogger } from '@app/kit'
import { hostileCases } from '../fuzz/hostile'
import { startWholeApp, type WholeApp } from './whole-app'

let whole: WholeApp

beforeAll(async () => {
  whole = await startWholeApp({ SUBMIT_LIMIT_PER_HOUR: '100000', UPLOAD_LIMIT_PER_MINUTE: '100000' })
}, 60_000)
afterAll(async () => {
  await whole?.stop()
}, 30_000)

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
}
// what an error body must never show: stack frames, source paths, runtime or library versions, SQL
const LEAK =
  /\bat \S+ \(|\.ts:\d+|\/work\/|node_modules|\bBun v?\d|elysia|drizzle|postgres(ql)?\b|pglite|SQLSTATE|syntax error|\bselect\b.+\bfrom\b|\binsert into\b|relation "|invalid input syntax|TypeError|RangeError|undefined is not/i

describe('API8: misconfiguration and leaks', () => {
  test('every answer to every hostile request carries the security headers; no error body leaks internals', async () => {
    const problems: string[] = []
    const cases = hostileCases()
    for (let i = 0; i < cases.length; i += 16) {
      await Promise.all(
        cases.slice(i, i + 16).map(async (c) => {
          const res = await fetch(whole.base + c.path, { method: c.method, headers: c.headers, body: c.body, redirect: 'manual' })
          const text = await res.text()
          for (const [name, value] of Object.entries(HEADERS))
            if (res.headers.get(name) !== value)
              problems.push(`${c.method} ${c.path.slice(0, 80)}: ${name}=${res.headers.get(name)}`)
          if (res.status >= 400 && LEAK.test(text))
            problems.push(`${c.method} ${c.path.slice(0, 80)} leaks: ${text.slice(0, 200)}`)
          if (res.headers.get('server') || res.headers.get('x-powered-by')) problems.push(`${c.path}: server identifies itself`)
        }),
      )
    }
    expect(problems).toEqual([])
  }, 120_000)

  test('successful answers of every kind carry them too: JSON, calendar, docs, health', async () => {
    const slug = ((await (await fetch(`${whole.base}/api/events?limit=1`)).json()) as any).data[0].slug
    for (const path of [
      '/api/events',
      `/api/events/${slug}`,
      `/api/events/${slug}.ics`,
      '/api/openapi.json',
      '/docs',
      '/health',
      '/ready',
    ]) {
      const res = await fetch(whole.base + path)
      expect(res.status, path).toBeLessThan(400)
      for (const [name, value] of Object.entries(HEADERS)) expect(res.headers.get(name), `${path} ${name}`).toBe(value)
    }
  })

  test('an unexpected exception is a 500 envelope with a generic message and the headers, the cause only in the log', async () => {
    const logged: string[] = []
    const logger = {
      ...createLogger('silent'),
      error: (msg: string, fields?: Record<string, unknown>) => void logged.push(`${msg} ${JSON.stringify(fields)}`),
    }
    const app = createBaseApp({ service: 'uji', logger, checks: {} }).get('/boom', () => {
      throw new Error('relation "secret_table" does not exist at /srv/app/service.ts:12')
    })
    const res = await app.handle(new Request('http://localhost/boom'))
    const text = await res.text()
    expect(res.status).toBe(500)
    expect(JSON.parse(text)).toEqual({ success: false, error: 'Terjadi kesalahan pada server' })
    expect(text).not.toMatch(LEAK)
    for (const [name, value] of Object.entries(HEADERS)) expect(res.headers.get(name)).toBe(value)
    expect(logged.join('\n')).toContain('secret_table')
  })
})
