import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createLogger } from '@app/kit'
import { envelopeMessage, get } from '@app/kit/testing'
import { createTestCatalog } from '../../catalog/src/testing'
import { createApp } from './app'

let catalog: Awaited<ReturnType<typeof createTestCatalog>>
beforeAll(async () => {
  catalog = await createTestCatalog()
})
afterAll(async () => {
  await catalog.database.close()
})

// routes http://catalog.test to the in-process catalog app; every other host is down
const fetchInProcess = (async (input: string | URL) => {
  const url = new URL(String(input))
  if (url.host === 'catalog.test') return catalog.app.handle(new Request(url.toString()))
  throw new TypeError('fetch failed: connection refused')
}) as typeof fetch

const docsApp = (upstreams: string[]) =>
  createApp({ upstreams, cacheMs: 60_000, fetch: fetchInProcess, logger: createLogger('silent') })

describe('docs aggregator', () => {
  test('merges the services documents and names the ones that did not answer', async () => {
    const res = await get(docsApp(['http://catalog.test', 'http://news.test']), '/api/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toMatch(/^3\./)
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/events', '/api/events/{slug}', '/api/categories']))
    expect(res.body.paths['/health']).toBeUndefined()
    expect(res.body['x-unavailable']).toEqual(['http://news.test'])
    expect(res.body.components.schemas.ErrorEnvelope).toBeDefined()
  })

  test('every service down: 503 envelope', async () => {
    const res = await get(docsApp(['http://news.test']), '/api/openapi.json')
    expect(res.status).toBe(503)
    envelopeMessage(res)
  })

  test('Swagger UI page and its assets are served locally', async () => {
    const app = docsApp(['http://catalog.test'])
    const page = await get(app, '/docs')
    expect(page.status).toBe(200)
    expect(page.text).toContain('/docs/assets/swagger-ui-bundle.js')
    expect(page.text).not.toMatch(/https?:\/\/(unpkg|cdn)/)
    const bundle = await get(app, '/docs/assets/swagger-ui-bundle.js')
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-type')).toContain('javascript')
    expect((await get(app, '/docs/assets/..%2Fpackage.json')).status).toBe(404)
  })
})
