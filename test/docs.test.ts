// The OpenAPI document and Swagger UI of `bun start`: every contract endpoint with schemas,
// and the page rendering them in a real (headless) browser with no internet.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listedPaths, renderedDom } from './browser'
import { ADDED_ENDPOINTS, CONTRACT_ENDPOINTS } from './contract'
import { freePort, repoRoot, stop, waitFor } from './helpers'

let proc: ReturnType<typeof Bun.spawn>
let base = ''
const dataDir = mkdtempSync(join(tmpdir(), 'docs-'))

beforeAll(async () => {
  const port = freePort()
  const { DATABASE_URL: _ignored, ...env } = process.env
  proc = Bun.spawn(['bun', 'run', 'main.ts'], {
    cwd: repoRoot,
    env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  base = `http://127.0.0.1:${port}`
  await waitFor(`${base}/ready`, 60_000, proc)
})
afterAll(async () => {
  if (proc) await stop(proc)
  rmSync(dataDir, { recursive: true, force: true })
})

describe('OpenAPI document (bun start)', () => {
  test('covers the 17 contract endpoints and our additions, with request and response schemas', async () => {
    const doc = await (await fetch(`${base}/api/openapi.json`)).json()
    expect(doc.openapi).toMatch(/^3\./)
    for (const [method, path] of [...CONTRACT_ENDPOINTS, ...ADDED_ENDPOINTS]) {
      const operation = doc.paths[path]?.[method]
      expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined()
      expect(operation.responses?.['200'] ?? operation.responses?.['201'], `${method} ${path} success response`).toBeDefined()
    }
    expect(doc.paths['/api/events'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'q', 'kategori', 'kota', 'tag', 'format', 'gratis', 'sort']),
    )
    expect(doc.paths['/api/events/submit'].post.requestBody).toBeDefined()
    expect(doc.paths['/api/events/{slug}'].get.responses['404']).toBeDefined()
    // old slugs of edited events and articles (admin studio)
    expect(doc.paths['/api/events/{slug}'].get.responses['301']).toBeDefined()
    expect(doc.paths['/api/news/{slug}'].get.responses['301']).toBeDefined()
    for (const [method, path] of [
      ['patch', '/api/admin/events/{id}'],
      ['post', '/api/admin/news'],
      ['patch', '/api/admin/news/{id}'],
      ['post', '/api/admin/categories'],
      ['post', '/api/admin/cities'],
      ['post', '/api/admin/tags/{id}/merge'],
      ['patch', '/api/admin/settings'],
      ['post', '/api/admin/users'],
      ['post', '/api/admin/me/password'],
    ])
      expect(doc.paths[path][method].requestBody, `${method} ${path} request body`).toBeDefined()
    expect(doc.paths['/api/admin/news'].post.responses['201']).toBeDefined()
  })
})

describe('Swagger UI (bun start)', () => {
  test('a headless browser renders every endpoint from local assets', async () => {
    const dom = await renderedDom(`${base}/docs`)
    const paths = listedPaths(dom)
    for (const [, path] of [...CONTRACT_ENDPOINTS, ...ADDED_ENDPOINTS]) expect(paths).toContain(path)
    expect(dom).not.toMatch(/src="https?:\/\//)
  }, 90_000)
})
