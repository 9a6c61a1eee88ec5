import { dirname, join } from 'node:path'
import { Elysia } from 'elysia'
import { toOpenAPISchema } from '@elysiajs/openapi'
import { envelope } from './errors'
import { finishDocument, type FinishOptions, type OpenApiDocument } from './openapi-clean'

const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'))
// served by the app itself so the page works with no internet access
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
}

export const errorEnvelopeSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    error: { type: 'string', description: 'Pesan kesalahan dalam bahasa Indonesia', example: 'Event tidak ditemukan' },
    details: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
}

/** Swagger UI's own files, served from the swagger-ui-dist package under /docs/assets/. */
export const swaggerAssets = () =>
  new Elysia({ name: 'kit.swagger-assets' }).get(
    '/docs/assets/:file',
    ({ params }) => {
      const type = ASSETS[params.file]
      if (!type) return envelope(404, 'Berkas tidak ditemukan')
      return new Response(Bun.file(join(swaggerDir, params.file)), {
        headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' },
      })
    },
    { detail: { hide: true } },
  )

/** A Swagger UI page over `specUrl`, with every asset from /docs/assets (no internet needed). */
export function swaggerPage(title: string, specUrl: string): Response {
  const html = `<!doctype html>
<html lang="id">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${Bun.escapeHTML(title)}</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>window.onload = () => { window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#swagger-ui', persistAuthorization: true, tryItOutEnabled: true, displayOperationId: true, withCredentials: true }) }</script>
</body>
</html>`
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
}

export const DOCS_TAGS = [
  { name: 'Event', description: 'Daftar, detail, dan pengajuan event' },
  { name: 'Kategori' },
  { name: 'Kota' },
  { name: 'Tag' },
  { name: 'Berita' },
  { name: 'Media', description: 'Unggah gambar dan cek berkas' },
  { name: 'Platform', description: 'Statistik dan pengaturan situs' },
  { name: 'Admin', description: 'Login dan moderasi (butuh cookie sesi)' },
  { name: 'Sistem' },
]

interface RouteInfo {
  method: string
  path: string
  hooks?: { body?: unknown; parse?: unknown }
}

/**
 * A route with its own `parse` hook (the size-capped JSON readers) comes out of the generator
 * with an empty request body: its `body` schema is put back as application/json, the only
 * body type those routes accept.
 */
function restoreJsonBodies(paths: Record<string, Record<string, any>>, routes: RouteInfo[]) {
  for (const route of routes) {
    if (!route.hooks?.body) continue
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    const operation = paths[path]?.[route.method.toLowerCase()]
    if (!operation?.requestBody || Object.keys(operation.requestBody.content ?? {}).length) continue
    const schema = JSON.parse(JSON.stringify(route.hooks.body))
    operation.requestBody.content = { 'application/json': { schema } }
    operation.requestBody.description ??= schema.description
  }
}

/**
 * `GET /docs` (Swagger UI, offline) and `GET /api/openapi.json` generated from the routes of the
 * app it is used in (TypeBox schemas as request/response schemas), finished by finishDocument
 * so linters and client generators accept it.
 */
export const docs = (title: string, description: string, options: FinishOptions = {}) => {
  const self = new Elysia({ name: 'kit.docs', seed: title })
  let cached: { routes: number; document: OpenApiDocument } | undefined
  const build = (): OpenApiDocument => {
    // the root app's routes (Elysia rebinds this when the plugin is used)
    const routes = (self as unknown as { getGlobalRoutes(): unknown[] }).getGlobalRoutes().length
    if (cached?.routes === routes) return cached.document
    const generated = toOpenAPISchema(
      self,
      // staticFile: false, else every path with a dot (GET /api/events.ics) is left out
      { paths: ['/docs/assets/:file'], staticFile: false },
      undefined,
      undefined,
      '3.0.3',
    )
    restoreJsonBodies(generated.paths as any, (self as unknown as { getGlobalRoutes(): RouteInfo[] }).getGlobalRoutes())
    const document = finishDocument(
      {
        openapi: '3.0.3',
        info: { title, description, version: '1.0.0' },
        tags: DOCS_TAGS,
        paths: generated.paths,
        components: { schemas: { ...generated.components?.schemas, ErrorEnvelope: errorEnvelopeSchema } },
      },
      options,
    )
    cached = { routes, document }
    return document
  }
  return self
    .use(swaggerAssets())
    .get('/api/openapi.json', () => build(), { detail: { hide: true } })
    .get('/docs', () => swaggerPage(title, '/api/openapi.json'), { detail: { hide: true } })
}
