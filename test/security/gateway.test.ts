// OWASP API Security Top 10 (2023), through the real gateway (caddy/Caddyfile, static upstreams)
// in front of the whole app as `bun start` composes it:
//   API9 Improper Inventory Management: the OpenAPI document lists every route the gateway
//        exposes and nothing else. "Exposed" is measured, not read: a path is exposed when a
//        request through Caddy reaches an application route (not a 404 from Caddy or the app).
//   API8 Security Misconfiguration (gateway half): the security headers on every answer,
//        Caddy's own answers included, and no Server header.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort, repoRoot, stop, waitFor } from '../helpers'
import { startWholeApp, type WholeApp } from './whole-app'
import { send } from './helpers'

let whole: WholeApp
let caddy: Subprocess
let gateway: string
let home: string
let document: any

beforeAll(async () => {
  whole = await startWholeApp()
  const upstream = whole.base.replace('http://', '')
  home = mkdtempSync(join(tmpdir(), 'gateway-sec-'))
  const port = freePort()
  caddy = Bun.spawn(['caddy', 'run', '--config', join(repoRoot, 'caddy/Caddyfile'), '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      GATEWAY_PORT: String(port),
      UPSTREAMS_MODE: 'static',
      CATALOG_UPSTREAMS: upstream,
      NEWS_UPSTREAMS: upstream,
      MEDIA_UPSTREAMS: upstream,
      ADMIN_UPSTREAMS: upstream,
      DOCS_UPSTREAM: upstream,
      MEDIA_FILES_UPSTREAMS: upstream,
      MEDIA_FILES_PREFIX: '/media',
    },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  gateway = `http://127.0.0.1:${port}`
  await waitFor(`${gateway}/api/stats`, 30_000, caddy)
  document = (await send(gateway, '/api/openapi.json')).body
}, 90_000)
afterAll(async () => {
  if (caddy) await stop(caddy)
  await whole?.stop()
  if (home) rmSync(home, { recursive: true, force: true })
}, 30_000)

/** A documented path template as a regular expression over concrete paths. */
const templateRegex = (template: string) =>
  new RegExp(
    `^${template
      .replace(/[.+?^$()|[\]\\]/g, '\\$&')
      // {path}: the rest of a stored file's key (slashes included), as the media route documents it
      .replace(/\{path\}$/, '.+')
      .replace(/\{[^}]+\}/g, '[^/]+')
      .replace(/\*/g, '.+')}$`,
  )

function documented(method: string, path: string): boolean {
  return Object.entries(document.paths).some(
    ([template, ops]) => templateRegex(template).test(path) && (ops as any)[method.toLowerCase()] !== undefined,
  )
}

/** A concrete path for a route template: a real slug or id where there is one. */
let uploadedPath: string | undefined
async function concrete(template: string): Promise<string> {
  const event = (await send(whole.base, '/api/events?limit=1')).body.data[0]
  if (template.startsWith('/media/')) {
    if (!uploadedPath) {
      const png = Uint8Array.from(
        atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
        (c) => c.charCodeAt(0),
      )
      const form = new FormData()
      form.append('file', new File([png], 'a.png', { type: 'image/png' }))
      const up = await send(whole.base, '/api/upload', { method: 'POST', body: form })
      uploadedPath = new URL(up.body.url).pathname
    }
    return uploadedPath
  }
  return template
    .replace(/\/api\/events\/(\{slug\}|:slug)\.ics$/, `/api/events/${event.slug}.ics`)
    .replace(/\{slug\}|:slug/g, event.slug)
    .replace(/\{id\}|:id/g, event.id)
    .replace(/\{[^}]+\}|:[A-Za-z_]+/g, 'x')
    .replace(/\*$/, 'x.png')
}

// pages for people, not API operations: the documentation (the document itself) and the admin
// studio's web app (which calls the documented /api/admin/* routes)
const DOCUMENTATION = new Set([
  '/docs',
  '/docs/*',
  '/api/openapi.json',
  '/docs/assets/*',
  '/docs/swagger-ui/*',
  '/admin',
  '/admin/*',
])
const isPage = (path: string) =>
  DOCUMENTATION.has(path) || path.startsWith('/docs') || path === '/admin' || path.startsWith('/admin/')

describe('API9: the document and the gateway agree', () => {
  test('every documented operation is reachable through the gateway', async () => {
    const unreachable: string[] = []
    for (const [template, ops] of Object.entries(document.paths as Record<string, Record<string, unknown>>))
      for (const method of Object.keys(ops)) {
        const path = await concrete(template)
        const res = await send(gateway, path, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: method === 'get' ? undefined : '{}',
        })
        // Caddy's own 404 carries no request id: the request never reached a service
        if (!res.headers.get('x-request-id')) unreachable.push(`${method.toUpperCase()} ${template} -> ${res.status}`)
      }
    expect(unreachable).toEqual([])
  })

  test('every application route the gateway lets through is documented', async () => {
    const undocumented: string[] = []
    for (const route of whole.routes) {
      if (isPage(route.path) || route.method === 'OPTIONS') continue
      const path = await concrete(route.path)
      const res = await send(gateway, path, {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      })
      const reachedApp =
        res.headers.get('x-request-id') !== null &&
        !(res.status === 404 && res.body?.error === 'Halaman atau endpoint tidak ditemukan')
      if (reachedApp && !documented(route.method, path)) undocumented.push(`${route.method} ${route.path} -> ${res.status}`)
    }
    expect(undocumented).toEqual([])
  })

  test('every path pattern the Caddyfile routes leads to a documented operation', async () => {
    const caddyfile = await Bun.file(join(repoRoot, 'caddy/Caddyfile')).text()
    const patterns = [...caddyfile.matchAll(/^\s*@\w+ path ((?:\/\S+ ?)+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/))
    expect(patterns.length).toBeGreaterThan(10)
    const orphans = patterns.filter(
      (p) =>
        !DOCUMENTATION.has(p) &&
        !Object.keys(document.paths).some(
          (template) => templateRegex(p).test(template.replace(/\{[^}]+\}/g, 'x')) || templateRegex(template).test(p),
        ),
    )
    expect(orphans).toEqual([])
  })
})

describe('API8: security headers through the gateway', () => {
  test('every kind of answer carries them, and no Server header', async () => {
    for (const path of [
      '/api/events',
      '/api/events/tidak-ada',
      '/api/nope',
      '/api/events?page=0',
      '/media/uploads/%00',
      '/docs',
      '/health',
    ]) {
      const res = await send(gateway, path)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('server'), path).toBeNull()
    }
  })
})
