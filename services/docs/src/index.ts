import { Elysia } from 'elysia'
import { DOCS_TAGS, errorEnvelopeSchema, finishDocument, ServiceUnavailableError, swaggerAssets, swaggerPage } from '@app/kit'
import type { DocsDeps } from './deps'
import { mergeDocuments, type OpenApiDocument } from './merge'

export { docsDepsFromConfig, type DocsDeps } from './deps'

const BASE: OpenApiDocument = {
  openapi: '3.0.3',
  info: {
    title: 'Event Catalog API',
    description: 'API katalog event Indonesia: event, kategori, kota, tag, berita, media, dan admin.',
    version: '1.0.0',
  },
  tags: DOCS_TAGS,
  components: { schemas: { ErrorEnvelope: errorEnvelopeSchema } },
}

/**
 * The gateway's docs: one OpenAPI document merged from every service's own
 * /api/openapi.json, and Swagger UI over it. A service that does not answer is left out
 * (and named in `x-unavailable`) rather than failing the whole page.
 */
export const docsService = (deps: DocsDeps) => {
  const fetcher = deps.fetch ?? fetch
  let cached: { at: number; document: OpenApiDocument } | undefined
  async function load(): Promise<OpenApiDocument> {
    if (cached && Date.now() - cached.at < deps.cacheMs) return cached.document
    const results = await Promise.all(
      deps.upstreams.map(async (base) => {
        try {
          const res = await fetcher(`${base}/api/openapi.json`, { signal: AbortSignal.timeout(3000) })
          return res.ok ? ((await res.json()) as OpenApiDocument) : null
        } catch {
          return null
        }
      }),
    )
    const parts = results.filter((r): r is OpenApiDocument => r !== null)
    if (!parts.length) throw new ServiceUnavailableError()
    // each part is finished already; finishing the whole adds the gateway's servers and checks ids stay unique
    const document = finishDocument(mergeDocuments(BASE, parts)) as OpenApiDocument
    const missing = deps.upstreams.filter((_, i) => results[i] === null)
    if (missing.length) document['x-unavailable'] = missing
    // only a complete document is reused; a partial one is rebuilt on the next request
    else cached = { at: Date.now(), document }
    return document
  }
  return new Elysia({ name: 'service.docs' })
    .use(swaggerAssets())
    .get('/api/openapi.json', () => load(), { detail: { hide: true } })
    .get('/docs', () => swaggerPage('Event Catalog API', '/api/openapi.json'), { detail: { hide: true } })
}
