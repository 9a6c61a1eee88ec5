// The JSON of an event as the public API shows it, written by PostgreSQL: the list item ("card")
// once, for lists, search, related and the detail. A page of a list is one text column per row,
// joined into the answer as is: no per-field parsing, mapping or serialising in the service,
// which was most of a cache miss's cost (and of its garbage) when rows came back as 20 columns.
import { sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'

type Field = [key: string, value: SQL]

/** The list item (eventListItem in model.ts), in its order; `"events"`, `"cities"` and `"categories"` must be in scope. */
export const CARD_FIELDS: Field[] = [
  ['id', sql`"events"."id"`],
  ['title', sql`"events"."title"`],
  ['slug', sql`"events"."slug"`],
  ['short_description', sql`"events"."short_description"`],
  ['poster_url', sql`"events"."poster_url"`],
  ['start_date', sql`"events"."start_date"`],
  ['end_date', sql`"events"."end_date"`],
  // HH:MM as text (a 'HH24:MI' format literal would read as a variable to pgbench's ceiling scripts)
  ['start_time', sql`left("events"."start_time"::text, 5)`],
  ['event_type', sql`"events"."event_type"`],
  ['venue_name', sql`"events"."venue_name"`],
  ['city_name', sql`"cities"."name"`],
  ['city_slug', sql`"cities"."slug"`],
  ['category_name', sql`"categories"."name"`],
  ['category_slug', sql`"categories"."slug"`],
  ['ticket_price_min', sql`"events"."ticket_price_min"::float8`],
  ['ticket_price_max', sql`"events"."ticket_price_max"::float8`],
  ['is_free', sql`case when "events"."is_free" then 1 else 0 end`],
  ['organizer_name', sql`"events"."organizer_name"`],
]

/**
 * `from` the current event's tags (`tg`: id, name, slug), each found by its key: written as a
 * join, the planner hashed all of `tags` for the few rows of one event (0.3-0.5 ms of the
 * detail's 1.2 ms at 1,000 tags, twice per detail; EXPLAIN ANALYZE on the bench data). OFFSET 0
 * keeps the subquery from being flattened back into that join.
 */
export const EVENT_TAGS_FROM = sql.raw(
  `event_tags et cross join lateral (select t.id, t.name, t.slug from tags t where t.id = et.tag_id offset 0) tg where et.event_id = "events"."id"`,
)

/** What the detail adds to the card (eventDetail in model.ts), before `related`. */
export const DETAIL_FIELDS: Field[] = [
  ['description', sql`"events"."description"`],
  ['gallery', sql`"events"."gallery"`],
  ['end_time', sql`left("events"."end_time"::text, 5)`],
  ['venue_address', sql`"events"."venue_address"`],
  ['latitude', sql`"events"."latitude"`],
  ['longitude', sql`"events"."longitude"`],
  ['city_time_zone', sql`"cities"."time_zone"`],
  ['contact_phone', sql`"events"."contact_phone"`],
  ['ticket_url', sql`"events"."ticket_url"`],
  [
    'tags',
    sql`coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'slug', tg.slug) order by tg.name, tg.id)
      from ${EVENT_TAGS_FROM}), '[]'::json)`,
  ],
  // cancelled by the organiser or an editor: still listed, marked (admin studio, issue 13)
  ['is_cancelled', sql`case when "events"."cancelled_at" is not null then 1 else 0 end`],
]

/** Compact JSON text of the fields, for the current row (row_to_json writes no spaces, keeps the order). */
export function jsonOf(fields: Field[]): SQL<string> {
  const columns = sql.join(
    fields.map(([key, value]) => sql`${value} as ${sql.identifier(key)}`),
    sql`, `,
  )
  return sql<string>`(select row_to_json(j)::text from (select ${columns}) j)`
}

/**
 * The same JSON as one raw SQL text, for fields without parameters: drizzle then copies a string
 * instead of walking ~70 fragments each time it writes a query (a list miss writes two or three).
 */
export function constantJsonOf(fields: Field[]): SQL<string> {
  const { sql: text, params } = new PgDialect().sqlToQuery(jsonOf(fields))
  if (params.length) throw new Error('constantJsonOf: the fields have parameters')
  return sql.raw(text) as SQL<string>
}

/** `distance_km` first (as the list item shows it), rounded to 10 m. */
export const distanceField = (distance: SQL): Field => ['distance_km', sql`round((${distance})::numeric, 2)::float8`]

/** A JSON array from JSON texts. */
export const jsonArray = (items: string[]) => `[${items.join(',')}]`
