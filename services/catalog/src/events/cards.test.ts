import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { CARD_FIELDS, constantJsonOf, distanceField, jsonOf } from './cards'

const render = (query: ReturnType<typeof jsonOf>) => new PgDialect().sqlToQuery(query)

describe('constantJsonOf', () => {
  test('writes the SQL text jsonOf writes, as one raw fragment', () => {
    const constant = render(constantJsonOf(CARD_FIELDS))
    expect(constant).toEqual(render(jsonOf(CARD_FIELDS)))
    expect(constant.sql).toContain('row_to_json')
    expect(constantJsonOf(CARD_FIELDS).queryChunks).toHaveLength(1)
  })
  test('refuses fields with parameters (they would be lost)', () => {
    expect(() => constantJsonOf([distanceField(sql`${1.5}::float8`), ...CARD_FIELDS])).toThrow(/parameters/)
  })
})
