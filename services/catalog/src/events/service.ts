import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import {
  categories,
  cities,
  eventSearchMatch,
  eventSearchQuery,
  eventTags,
  events,
  prefixSearchQuery,
  tags,
  toHourMinute,
  toNumber,
  type Database,
} from '@app/db'
import type { PageRequest } from '@app/kit'
import { discoveryColumns, discoveryConditions, discoveryOrder } from './discovery'
import { roundKm } from './geo'
import type { EventListQuery, EventSort } from './model'

const ORDER: Record<EventSort, SQL[]> = {
  created_at_desc: [desc(events.createdAt), desc(events.id)],
  start_date_asc: [asc(events.startDate), asc(events.id)],
  start_date_desc: [desc(events.startDate), desc(events.id)],
  price_asc: [asc(events.ticketPriceMin), asc(events.id)],
  title_asc: [asc(events.title), asc(events.id)],
}

/** A list query whose `q` was turned into its tsquery (typo expansion needs a lookup). */
export type SearchReady = { tsquery?: string | null }

/** Resolves `q` into its tsquery once, before the list, facet and calendar queries use it. */
export async function prepareSearch<Q extends { q?: string }>(database: Database, query: Q): Promise<Q & SearchReady> {
  return query.q ? { ...query, tsquery: await eventSearchQuery(database, query.q) } : query
}

/**
 * A search counts its matches exactly up to this many (or up to the requested page, if further);
 * past it `total` is a lower bound (the cap + 1) and `total_exact` is false, so a common word costs the same
 * as a rare one however many events contain it.
 */
export const SEARCH_COUNT_CAP = 1000

/**
 * The change keys a list answer depends on (migration 0008): every event it can contain is in
 * the filtered city, category or tag, so a write elsewhere cannot change it.
 */
export function listDeps(query: { kota?: string; kategori?: string; tag?: string }): string[] {
  if (query.kota) return [`list:city:${query.kota}`]
  if (query.kategori) return [`list:cat:${query.kategori}`]
  if (query.tag) return [`list:tag:${query.tag}`]
  return ['list:all']
}

/**
 * `sort=relevance`: the weighted full-text rank (title A, venue/city/province/category/tags/organizer
 * B, descriptions C), the newest first among equals.
 */
function relevanceOrder(query: EventListQuery & SearchReady): SQL[] | undefined {
  if (query.sort !== 'relevance') return undefined
  const tsquery = query.tsquery ?? prefixSearchQuery(query.q ?? '')
  if (!tsquery) return undefined
  return [
    desc(sql`ts_rank(${events.searchDocument}, to_tsquery('indonesian', ${tsquery}))`),
    desc(events.createdAt),
    desc(events.id),
  ]
}

/** Filters of the public list; unknown slugs simply match nothing. */
export function listFilter(query: EventListQuery, nowMs = Date.now()): SQL {
  const conditions: (SQL | undefined)[] = [eq(events.status, 'published')]
  if (query.kategori) conditions.push(sql`${events.categoryId} = (select id from categories where slug = ${query.kategori})`)
  if (query.kota) conditions.push(sql`${events.cityId} = (select id from cities where slug = ${query.kota})`)
  if (query.tag)
    conditions.push(
      sql`exists (select 1 from event_tags et join tags tg on tg.id = et.tag_id where et.event_id = ${events.id} and tg.slug = ${query.tag})`,
    )
  if (query.format) conditions.push(eq(events.eventType, query.format))
  if (query.gratis !== undefined) conditions.push(eq(events.isFree, query.gratis === '1'))
  if (query.q) {
    const tsquery = (query as SearchReady).tsquery ?? prefixSearchQuery(query.q)
    // a q without letters or digits filters nothing, as before
    if (tsquery) conditions.push(eventSearchMatch(events.searchDocument, tsquery))
  }
  conditions.push(...discoveryConditions(query, nowMs))
  return and(...conditions)!
}

export const listColumns = {
  id: events.id,
  title: events.title,
  slug: events.slug,
  shortDescription: events.shortDescription,
  posterUrl: events.posterUrl,
  startDate: events.startDate,
  endDate: events.endDate,
  startTime: events.startTime,
  eventType: events.eventType,
  venueName: events.venueName,
  cityName: cities.name,
  citySlug: cities.slug,
  categoryName: categories.name,
  categorySlug: categories.slug,
  ticketPriceMin: events.ticketPriceMin,
  ticketPriceMax: events.ticketPriceMax,
  isFree: events.isFree,
  organizerName: events.organizerName,
}

type ListRow = {
  id: string
  title: string
  slug: string
  shortDescription: string
  posterUrl: string
  startDate: string
  endDate: string
  startTime: string | null
  eventType: 'offline' | 'online' | 'hybrid'
  venueName: string
  cityName: string | null
  citySlug: string | null
  categoryName: string | null
  categorySlug: string | null
  ticketPriceMin: string
  ticketPriceMax: string
  isFree: boolean
  organizerName: string
  distanceKm?: number | string | null
}

export function toListItem(row: ListRow) {
  return {
    ...(row.distanceKm !== undefined && { distance_km: roundKm(row.distanceKm)! }),
    id: row.id,
    title: row.title,
    slug: row.slug,
    short_description: row.shortDescription,
    poster_url: row.posterUrl,
    start_date: row.startDate,
    end_date: row.endDate,
    start_time: toHourMinute(row.startTime),
    event_type: row.eventType,
    venue_name: row.venueName,
    city_name: row.cityName,
    city_slug: row.citySlug,
    category_name: row.categoryName!,
    category_slug: row.categorySlug!,
    ticket_price_min: toNumber(row.ticketPriceMin),
    ticket_price_max: toNumber(row.ticketPriceMax),
    is_free: row.isFree ? (1 as const) : (0 as const),
    organizer_name: row.organizerName,
  }
}

/** The page query and the count query of a list request (exported for the EXPLAIN tests). */
export function listQueries({ db }: Database, query: EventListQuery, page: PageRequest, options: ListOptions = {}) {
  const where = listFilter(query, options.now)
  return {
    page: db
      .select({ ...listColumns, ...discoveryColumns(query) })
      .from(events)
      .innerJoin(categories, eq(categories.id, events.categoryId))
      .leftJoin(cities, eq(cities.id, events.cityId))
      .where(where)
      .orderBy(
        ...(discoveryOrder(query) ?? relevanceOrder(query) ?? ORDER[(query.sort as EventSort | undefined) ?? 'created_at_desc']),
      )
      .limit(page.limit)
      .offset(page.offset),
    count: query.q
      ? db.select({ total: sql<number>`count(*)::int` }).from(
          db
            .select({ one: sql`1`.as('one') })
            .from(events)
            .where(where)
            .limit(Math.max(SEARCH_COUNT_CAP, page.offset + page.limit) + 1)
            .as('matches'),
        )
      : db
          .select({ total: sql<number>`count(*)::int` })
          .from(events)
          .where(where),
    /** Counting stops here (searches only). */
    countCap: query.q ? Math.max(SEARCH_COUNT_CAP, page.offset + page.limit) : null,
  }
}

export interface ListOptions {
  /** The clock for time windows (epoch ms); injectable for tests. */
  now?: number
}

/** One page of published events and the total matching the filter: two queries, any page size. */
export async function listEvents(database: Database, query: EventListQuery, page: PageRequest, options: ListOptions = {}) {
  const queries = listQueries(database, query, page, options)
  const [rows, [{ total }]] = await Promise.all([queries.page, queries.count])
  // past the cap, total is a lower bound (one more than the cap): has_next stays true
  return { items: rows.map(toListItem), total, exact: queries.countCap === null || total <= queries.countCap }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A published event by slug, or by id when the value is an id; null when there is none. */
export async function findPublishedEvent({ db }: Database, slugOrId: string) {
  const match = UUID.test(slugOrId)
    ? or(eq(events.slug, slugOrId), eq(events.id, slugOrId.toLowerCase()))
    : eq(events.slug, slugOrId)
  const [row] = await db
    .select({
      ...listColumns,
      description: events.description,
      gallery: events.gallery,
      endTime: events.endTime,
      venueAddress: events.venueAddress,
      latitude: events.latitude,
      longitude: events.longitude,
      cityTimeZone: cities.timeZone,
      contactPhone: events.contactPhone,
      ticketUrl: events.ticketUrl,
      cancelledAt: events.cancelledAt,
    })
    .from(events)
    .innerJoin(categories, eq(categories.id, events.categoryId))
    .leftJoin(cities, eq(cities.id, events.cityId))
    .where(and(match, eq(events.status, 'published')))
    .limit(1)
  if (!row) return null
  const eventTagRows = await db
    .select({ id: tags.id, name: tags.name, slug: tags.slug })
    .from(eventTags)
    .innerJoin(tags, eq(tags.id, eventTags.tagId))
    .where(inArray(eventTags.eventId, [row.id]))
    .orderBy(asc(tags.name))
  return {
    ...toListItem(row),
    description: row.description,
    gallery: row.gallery,
    end_time: toHourMinute(row.endTime),
    venue_address: row.venueAddress,
    latitude: row.latitude,
    longitude: row.longitude,
    city_time_zone: row.cityTimeZone,
    contact_phone: row.contactPhone,
    ticket_url: row.ticketUrl,
    tags: eventTagRows,
    // cancelled by the organiser or an editor: still listed, marked (admin studio, issue 13)
    is_cancelled: row.cancelledAt ? (1 as const) : (0 as const),
  }
}
