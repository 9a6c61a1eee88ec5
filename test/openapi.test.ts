// The OpenAPI document is clean for any route, not only today's: a new service's routes written
// the way this codebase writes them (numeric query params, 0/1 flags, TypeBox error messages,
// nullable fields, a wildcard path, an admin route) come out with 0 linter errors; the same
// routes without finishDocument fail, so this test can fail.
import { describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { createLogger, docs, errorResponse, oneOf } from '@app/kit'
import { createBaseApp } from '@app/kit'
import { completenessProblems, lintErrors } from './openapi-lint'

const item = t.Object({
  id: t.Integer(),
  is_free: t.Union([t.Literal(0), t.Literal(1)]),
  price: t.Nullable(t.Number()),
  starts_at: t.Nullable(t.String({ format: 'date-time' })),
})

const newRoutes = new Elysia({ name: 'test.new-routes' })
  .get('/api/things', () => ({ success: true as const, data: [] }), {
    query: t.Object({
      page: t.Optional(t.Numeric({ minimum: 1, error: 'page harus berupa angka bulat minimal 1' })),
      gratis: t.Optional(oneOf(['0', '1'], { error: 'gratis harus 0 atau 1' })),
      radius: t.Optional(t.Number({ exclusiveMinimum: 0 })),
    }),
    response: { 200: t.Object({ success: t.Literal(true), data: t.Array(item) }) },
    detail: { summary: 'Daftar benda', tags: ['Event'] },
  })
  .get('/api/things/:slug', () => ({ success: true as const }), { params: t.Object({ slug: t.String() }) })
  .post('/api/admin/things/:id/archive', () => ({ success: true as const }), {
    params: t.Object({ id: t.Numeric() }),
    body: t.Object({ reason: t.Optional(t.String({ maxLength: 100, error: 'alasan terlalu panjang' })) }),
    response: { 200: t.Object({ success: t.Boolean() }), 409: errorResponse },
  })
  .get('/files/*', () => new Response('x'))
  // a route with its own body reader (as submit and login have): the body schema must still show
  .post('/api/things/submit', ({ body }) => ({ success: true as const, body }), {
    parse: async ({ request }) => request.json(),
    body: t.Object({ price: t.Optional(t.Nullable(t.Union([t.Number(), t.String()]))), title: t.String({ minLength: 3 }) }),
  })

const app = createBaseApp({ service: 'test', logger: createLogger('silent'), checks: {} })
  .use(docs('Uji', 'Dokumen uji'))
  .use(newRoutes)

describe('finishDocument on routes nobody tuned by hand', () => {
  test('0 redocly and Spectral errors, every operation complete', async () => {
    const doc = await (await app.handle(new Request('http://localhost/api/openapi.json'))).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/things', '/api/admin/things/{id}/archive', '/files/{path}']),
    )
    expect(await lintErrors(doc)).toEqual([])
    expect(completenessProblems(doc)).toEqual([])
    const props =
      doc.paths['/api/things'].get.responses['200'].content['application/json'].schema.properties.data.items.properties
    expect(props.is_free).toEqual({ type: 'integer', enum: [0, 1] })
    expect(doc.paths['/api/things'].get.parameters.find((p: any) => p.name === 'page').schema).toEqual({
      minimum: 1,
      type: 'number',
    })
    expect(doc.paths['/api/admin/things/{id}/archive'].post.security).toEqual([{ admin_session: [] }])
    expect(doc.paths['/api/things/submit'].post.requestBody.content['application/json'].schema.required).toEqual(['title'])
  }, 120_000)

  test('the raw generated document fails the linters (the check is real)', async () => {
    const { toOpenAPISchema } = await import('@elysiajs/openapi')
    const raw = toOpenAPISchema(app, { staticFile: false }, undefined, undefined, '3.0.3')
    const problems = await lintErrors({ openapi: '3.0.3', info: { title: 'x', version: '1' }, ...raw })
    expect(problems.length).toBeGreaterThan(0)
    expect(problems.map((p) => p.rule)).toEqual(expect.arrayContaining(['struct']))
  }, 120_000)
})
