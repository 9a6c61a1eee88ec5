import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createTestDatabase, type TestDatabase } from '@app/db/testing'
import { get, post } from './testing'
import { createBaseApp } from './app'
import { createLogger } from './request-log'
import { pageQuery } from './pagination'
import { t } from 'elysia'

// statements the driver refuses as data, one per SQLSTATE class the mapper turns into a 4xx
const REFUSED: Record<string, ReturnType<typeof sql>> = {
  '22P02': sql`select 'bukan-angka'::int as n`,
  '22003': sql`select 99999999999::int as n`,
  '22021': sql`select convert_from('\\xff'::bytea, 'UTF8') as n`,
  '22008': sql`select '2026-02-30'::date as n`,
  '22012': sql`select 1 / 0 as n`,
  '54000': sql`select repeat('x ', 1100000)::tsvector as n`,
  '23505': sql`insert into settings (key, value) select key, value from settings limit 1`,
}

let database: TestDatabase
const logged: string[] = []
let app: ReturnType<typeof build>

function build() {
  const logger = {
    ...createLogger('silent'),
    warn: (msg: string) => void logged.push(msg),
    error: (msg: string) => void logged.push(msg),
  } as any
  return (
    createBaseApp({ service: 'test', logger, checks: {} })
      .get('/items', ({ query }) => ({ success: true, query }), {
        query: t.Object({ ...pageQuery, lat: t.Optional(t.Number()), q: t.Optional(t.String()) }),
      })
      .get('/items/:slug', ({ params }) => database.rows(sql`select ${params.slug}::int as n`))
      .post('/echo', ({ body }) => ({ success: true, body }))
      .get('/refused/:kind', ({ params }) => database.rows(REFUSED[params.kind]!))
      // a table the migrations have not created yet: what a service sees on an unmigrated database
      .get('/unmigrated', () => database.rows(sql`select * from table_of_a_later_migration`))
      .get('/lost/:code', ({ params }) =>
        // what PostgreSQL raises for a deadlock victim (40P01) or a serialization failure (40001)
        database.rows(
          sql.raw(`do $$ begin raise exception 'lost' using errcode = '${params.code === '40001' ? '40001' : '40P01'}'; end $$`),
        ),
      )
  )
}

beforeAll(async () => {
  database = await createTestDatabase()
  app = build()
}, 60_000)
afterAll(async () => {
  await database?.close()
})

test('control characters, invalid UTF-8 and broken escapes in the URL are a 400 envelope', async () => {
  for (const path of [
    '/items?q=%00',
    '/items?q=a%1Fb',
    '/items?q=%7F',
    '/items?q=%C2%85',
    '/items/%00',
    '/items?q=%C3%28',
    '/items?q=%FF',
    '/items?q=%',
    '/items?%00=1',
  ]) {
    const res = await get(app, path)
    expect(res.status, path).toBe(400)
    expect(res.body.success).toBe(false)
  }
  expect((await get(app, '/items?q=caf%C3%A9+malam')).body.query.q).toBe('café malam')
})

test('overlong values, overlong URLs and repeated parameters are refused', async () => {
  expect((await get(app, `/items?q=${'a'.repeat(2049)}`)).status).toBe(400)
  expect((await get(app, `/items?q=${'a'.repeat(2048)}`)).status).toBe(200)
  expect((await get(app, `/items?${Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')}`)).status).toBe(414)
  const repeated = await get(app, '/items?page=1&page=2')
  expect(repeated.status).toBe(400)
  expect(repeated.body.error).toContain('page')
})

test('numbers are plain decimals: no exponent, hex, blanks, infinity or more than 15 digits', async () => {
  for (const page of ['1e3', '0x10', '%201', 'Infinity', 'NaN', '1.5', '-1', '0', '99999999999999999999', '1000001'])
    expect((await get(app, `/items?page=${page}`)).status, page).toBe(400)
  expect((await get(app, '/items?page=1000000&limit=100')).body.query).toEqual({ page: 1000000, limit: 100 })
  expect((await get(app, '/items?lat=-6.175')).body.query.lat).toBe(-6.175)
  for (const lat of ['1e1', '-6.', '.5', '0x1']) expect((await get(app, `/items?lat=${lat}`)).status, lat).toBe(400)
})

test('bodies: NUL and lone surrogates in any string or key, invalid UTF-8, deep nesting are 400', async () => {
  const bodies = ['{"a":"x\\u0000"}', '{"a\\u0001":1}', '{"a":["\\ud800"]}', '['.repeat(40) + ']'.repeat(40)]
  for (const body of bodies)
    expect(
      (await post(app, '/echo', undefined, { rawBody: body, headers: { 'content-type': 'application/json' } })).status,
      body,
    ).toBe(400)
  const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])
  expect((await post(app, '/echo', undefined, { rawBody: bytes, headers: { 'content-type': 'application/json' } })).status).toBe(
    400,
  )
  const form = await post(app, '/echo', undefined, {
    rawBody: 'a=%00',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  expect(form.status).toBe(400)
  const ok = await post(app, '/echo', { a: 'baris satu\nbaris dua\tdan tab', b: '😀' })
  expect(ok.body.body).toEqual({ a: 'baris satu\nbaris dua\tdan tab', b: '😀' })
})

test('a database refusing the input (22P02) is a logged 400, not a 500', async () => {
  const res = await get(app, '/items/bukan-angka')
  expect(res.status).toBe(400)
  expect(res.body.success).toBe(false)
  expect(res.text).not.toContain('invalid input syntax')
  expect(logged).toContain('database refused input')
})

test('every data-exception class from the driver (postgres.js or PGlite) is a 4xx envelope, logged', async () => {
  for (const kind of Object.keys(REFUSED)) {
    const res = await get(app, `/refused/${kind}`)
    expect(res.status, kind).toBe(kind.startsWith('23') ? 409 : 400)
    expect(res.body.success, kind).toBe(false)
  }
})

test('a transaction lost to a concurrent one (40P01, 40001) is a 503 envelope with Retry-After, not a 500', async () => {
  for (const code of ['40P01', '40001']) {
    const res = await get(app, `/lost/${code}`)
    expect(res.status, code).toBe(503)
    expect(res.body.success).toBe(false)
    expect(res.headers.get('retry-after')).toBe('1')
  }
  expect(logged).toContain('transaction lost to a concurrent one')
})

test('a database whose schema is behind this build (unmigrated) is a logged 503 envelope, not a 500', async () => {
  const res = await get(app, '/unmigrated')
  expect(res.status).toBe(503)
  expect(res.body).toEqual({ success: false, error: expect.any(String) })
  expect(res.headers.get('retry-after')).toBe('5')
  expect(logged).toContain('database schema behind this build: run the migrations (bun run db:migrate)')
})
