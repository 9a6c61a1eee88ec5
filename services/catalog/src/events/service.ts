import { and, asc, desc, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import {
  categories,
  cities,
  eventCards,
  eventCounts,
  eventSearch,
  eventSearchMatch,
  eventSearchQuery,
  eventTagOrder,
  events,
  prefixSearchQuery,
  searchKey,
  wordTerms,
  type Database,
  type Db,
} from '@app/db'
import { cacheKey, type PageRequest, type ResponseCache } from '@app/kit'
import { CARD_FIELDS, constantJsonOf, DETAIL_FIELDS, distanceField, EVENT_TAGS_FROM, jsonArray, jsonOf } from './cards'
import { discoveryConditions, discoveryDistance, discoveryOrder } from './discovery'
import { preparedPerDatabase } from './prepared'
import { batched } from './batch'
import type { EventListQuery, EventSort } from './model'
import type { IndexView } from './list-index'
import { parseMatch, type MatchNode } from './lexeme-postings'
import type { RelatedTo } from './related'

/** What the list orders sort by: columns, or expressions of them. */
type OrderKeys = Record<'createdAt' | 'startDate' | 'ticketPriceMin' | 'title' | 'id', SQLWrapper>

/** The list orders, each ending with the id as tie-breaker, on the given keys. */
function listOrders(k: OrderKeys): Record<EventSort, SQL[]> {
  return {
    created_at_desc: [desc(k.createdAt), desc(k.id)],
    start_date_asc: [asc(k.startDate), asc(k.id)],
    start_date_desc: [desc(k.startDate), desc(k.id)],
    price_asc: [asc(k.ticketPriceMin), asc(k.id)],
    title_asc: [asc(k.title), asc(k.id)],
  }
}

const ORDER = listOrders({
  createdAt: events.createdAt,
  startDate: events.startDate,
  ticketPriceMin: events.ticketPriceMin,
  title: events.title,
  id: events.id,
})

/**
 * The same orders on expressions no index provides, for a search whose matches are few (its capped
 * count stayed exact): sorting a few hundred rows found through the search index beats walking an
 * order index past every event that does not match, which the planner picks when it misjudges a
 * rare word's share (a word no event has: 390 ms for nothing, EXPLAIN read).
 */
const ORDER_OF_FEW = listOrders({
  createdAt: sql`${events.createdAt} + interval '0 seconds'`,
  startDate: sql`${events.startDate} + 0`,
  ticketPriceMin: sql`${events.ticketPriceMin} + 0`,
  title: sql`${events.title} || ''`,
  id: events.id,
})

/** The same orders on the search copy (event_search carries their keys), for a search's page of ids. */
const SEARCH_ORDER = listOrders({
  createdAt: eventSearch.createdAt,
  startDate: eventSearch.startDate,
  ticketPriceMin: eventSearch.ticketPriceMin,
  title: eventSearch.title,
  id: eventSearch.eventId,
})

/** The same orders on the capped matches of a search (`m`, see countWithPage in listQueries). */
const MATCH_ORDER = listOrders({
  createdAt: sql.raw('m.created_at'),
  startDate: sql.raw('m.start_date'),
  ticketPriceMin: sql.raw('m.ticket_price_min'),
  title: sql.raw('m.title'),
  id: sql.raw('m.event_id'),
})

/** The same orders on the tag copy (event_tag_order), for a list by tag alone. */
const TAG_ORDER = listOrders({
  createdAt: eventTagOrder.createdAt,
  startDate: eventTagOrder.startDate,
  ticketPriceMin: eventTagOrder.ticketPriceMin,
  title: eventTagOrder.title,
  id: eventTagOrder.eventId,
})

/**
 * A list query whose `q` was turned into its tsquery (typo expansion needs a lookup), and the
 * normalised form it matches with (see EventSearch).
 */
export type SearchReady = { tsquery?: string | null; match?: string; searchKeys?: string[]; matchesAtLeast?: number }

/** The tsquery a search matches with, or null when `q` has no words. */
function matchQuery(query: { q?: string } & SearchReady): SQL | null {
  if (query.match !== undefined) return sql`${query.match}::tsquery`
  const tsquery = query.tsquery ?? prefixSearchQuery(query.q ?? '')
  return tsquery ? sql`to_tsquery('indonesian', ${tsquery})` : null
}

/**
 * Announced by a write whose word and trigram keys did not fit in its notification (migration
 * 0029): every search and every word's terms depend on it.
 */
const SEARCH_ALL_KEY = 'search:all'

/**
 * Resolves `q` into its tsquery once, before the list, facet and calendar queries use it. With
 * `remember` (the route's cache) each word's stand-ins and lexemes (wordTerms) are kept until a
 * write announces one of the word's keys (WordTerms.keys: an event holding a lexeme under one of
 * its terms, a dictionary word sharing one of its trigrams), which most writes do not: a search
 * miss whose words were seen before sends no dictionary query; the bench's 26.5k distinct searches
 * hold 2.7k words.
 */
export async function prepareSearch<Q extends { q?: string }>(
  database: Database,
  query: Q,
  remember?: ResponseCache['remember'],
): Promise<Q & SearchReady> {
  if (!query.q) return query
  const expand = remember
    ? async (words: string[]) =>
        new Map(
          await Promise.all(
            words.map(async (word) => {
              const own = await remember(`search-word:${word}`, async () => {
                const terms = (await wordTerms(database, [word])).get(word)!
                return { value: terms, deps: [...terms.keys, SEARCH_ALL_KEY] }
              })
              return [word, own] as const
            }),
          ),
        )
    : undefined
  const search = await eventSearchQuery(database, query.q, expand)
  return search
    ? { ...query, tsquery: search.tsquery, match: search.match, searchKeys: search.keys, matchesAtLeast: search.matchesAtLeast }
    : { ...query, tsquery: null }
}

/**
 * A search counts its matches exactly up to this many (or up to the requested page, if further);
 * past it `total` is a lower bound (the cap + 1) and `total_exact` is false, so a common word costs the same
 * as a rare one however many events contain it.
 */
export const SEARCH_COUNT_CAP = 1000

/** Where a search's count stops for this page (null: not a search, counted exactly), the SQL's and the index's alike. */
const countCapOf = (query: { q?: string }, page: PageRequest): number | null =>
  query.q ? Math.max(SEARCH_COUNT_CAP, page.offset + page.limit) : null

/**
 * The change keys a list answer depends on (migration 0008): every event it can contain is in
 * the filtered city, category or tag, or holds a lexeme of the search's terms (migration 0029),
 * so a write elsewhere cannot change it.
 */
export function listDeps(query: { kota?: string; kategori?: string; tag?: string } & SearchReady): string[] {
  if (query.kota) return [`list:city:${query.kota}`]
  if (query.kategori) return [`list:cat:${query.kategori}`]
  if (query.tag) return [`list:tag:${query.tag}`]
  if (query.searchKeys && !query.searchKeys.includes('list:all')) return [...query.searchKeys, SEARCH_ALL_KEY]
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
export function listFilter(query: EventListQuery, nowMs = Date.now(), matchesFirst = false): SQL {
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
    const tsquery = matchQuery(query)
    // a q without letters or digits filters nothing, as before
    // matchesFirst: the ids of every match, read from the search copy before any events row (a
    // search known to match few events, or whose matches an order index would find too late)
    if (tsquery)
      conditions.push(
        matchesFirst
          ? sql`${events.id} = any(array(select s.event_id from event_search s where s.lexemes @@ ${tsquery}))`
          : eventSearchMatch(events.id, tsquery),
      )
  }
  conditions.push(...discoveryConditions(query, nowMs))
  return and(...conditions)!
}

/**
 * The conditions of a list on the narrow copy alone (event_search: the published events with their
 * document, city, category, format and free flag, and every list order's key): a search, or a list
 * by city or category, whose filters are only those. Its capped count reads only the copy and its
 * page of ids comes from the copy's indexes in any list order, then only those events are read.
 * Undefined when it needs the events rows (a tag, a time window, a point, a `q` without words) or
 * gains nothing (a list without `q` that is not by one city or one category alone).
 */
function copyWhere(query: EventListQuery & SearchReady, nowMs = Date.now()): SQL | undefined {
  const tsquery = query.q ? matchQuery(query) : undefined
  if ((query.q && !tsquery) || query.tag || discoveryConditions(query, nowMs).length) return undefined
  // without q, only a city or only a category: the copy has an index per city and per category
  // and list order; combinations are served better by the composite indexes of events (city +
  // category, and the count index for format and price: a rare format in a city would walk the
  // city's whole order index here)
  if (!tsquery && (!query.kota === !query.kategori || query.format || query.gratis !== undefined)) return undefined
  return and(
    tsquery ? sql`${eventSearch.lexemes} @@ ${tsquery}` : undefined,
    query.kategori ? sql`${eventSearch.categoryId} = (select id from categories where slug = ${query.kategori})` : undefined,
    query.kota ? sql`${eventSearch.cityId} = (select id from cities where slug = ${query.kota})` : undefined,
    query.format ? eq(eventSearch.eventType, query.format) : undefined,
    query.gratis !== undefined ? eq(eventSearch.isFree, query.gratis === '1') : undefined,
  )
}

/**
 * The condition of a list by one tag and nothing else (no `q`, city, category, format, price, time
 * window or point) on event_tag_order (migration 0026): its page of ids comes from the tag's index
 * in the list order, its count from the tag's rows there, never from the events carrying the tag.
 * Undefined for any other list: a tag with more filters reads events as before.
 */
function tagCopyWhere(query: EventListQuery, nowMs = Date.now()): SQL | undefined {
  if (!query.tag || query.q || query.kota || query.kategori || query.format || query.gratis !== undefined) return undefined
  if (discoveryConditions(query, nowMs).length) return undefined
  return sql`${eventTagOrder.tagId} = (select id from tags where slug = ${query.tag})`
}

/**
 * Whether the query filters by nothing but category, city, format and price (the dimensions of
 * event_counts): then its total is a sum of kept counts, not a count of events.
 */
function countsOnly(query: EventListQuery, nowMs = Date.now()): boolean {
  return !query.q && !query.tag && discoveryConditions(query, nowMs).length === 0
}

/** The first `size` published events in the query's order that pass its filters other than `q`. */
function orderWindow(db: Db, query: EventListQuery, size: number, nowMs?: number) {
  const { q: _q, tsquery: _tsquery, match: _match, searchKeys: _searchKeys, ...others } = query as EventListQuery & SearchReady
  return db
    .select({ id: events.id })
    .from(events)
    .where(listFilter(others, nowMs))
    .orderBy(...ORDER[(query.sort as EventSort | undefined) ?? 'created_at_desc'])
    .limit(size)
}

/** The card of each row, `distance_km` first when the query has a point (CARD_FIELDS in cards.ts). */
function listCard(query: EventListQuery): SQL<string> {
  const distance = discoveryDistance(query)
  return distance ? jsonOf([distanceField(distance), ...CARD_FIELDS]) : LIST_CARD
}
const LIST_CARD = constantJsonOf(CARD_FIELDS)

/** The page query and the count query of a list request (exported for the EXPLAIN tests). */
export function listQueries({ db }: Database, query: EventListQuery, page: PageRequest, options: ListOptions = {}) {
  // built on first use: a request reads two or three of the queries below, never all
  let filter: SQL | undefined
  const where = () => (filter ??= listFilter(query, options.now, options.fewMatches))
  const onCopy = copyWhere(query, options.now)
  const onTagCopy = tagCopyWhere(query, options.now)
  const sort = (query.sort as EventSort | undefined) ?? 'created_at_desc'
  // a search counts up to the cap, or up to the requested page when further
  const countCap = countCapOf(query, page)
  // a search or a list by city or category, in a list order, with no filter the copy lacks: its
  // page of ids comes from event_search alone (it carries every order's key, indexed per city and
  // per category), and only those events are read; a search of few matches sorts them there
  const hasPageIds = (onCopy !== undefined && sort in SEARCH_ORDER) || (onTagCopy !== undefined && sort in TAG_ORDER)
  const pageIds = () =>
    onCopy && sort in SEARCH_ORDER
      ? db
          .select({ id: eventSearch.eventId })
          .from(eventSearch)
          .where(onCopy)
          .orderBy(
            ...(options.fewMatches && sort === 'created_at_desc'
              ? [desc(sql`${eventSearch.createdAt} + interval '0 seconds'`), desc(eventSearch.eventId)]
              : SEARCH_ORDER[sort]),
          )
          .limit(page.limit)
          .offset(page.offset)
      : onTagCopy && sort in TAG_ORDER
        ? db
            .select({ id: eventTagOrder.eventId })
            .from(eventTagOrder)
            .where(onTagCopy)
            .orderBy(...TAG_ORDER[sort])
            .limit(page.limit)
            .offset(page.offset)
        : undefined
  // the calendar feed reads its own columns: it asks for the ids only (no card per row)
  const pageOf = (withCard: boolean) =>
    db
      .select({ id: events.id, card: withCard ? listCard(query) : sql<string>`null` })
      .from(events)
      .innerJoin(categories, eq(categories.id, events.categoryId))
      .leftJoin(cities, eq(cities.id, events.cityId))
      .where(
        options.ids
          ? // ids found among the published events by the count (countWithPage) a moment before
            and(eq(events.status, 'published'), options.ids.length ? inArray(events.id, options.ids) : sql`false`)
          : hasPageIds
            ? // the copy holds published events only, in the same snapshot: the ids are the filter
              sql`${events.id} = any(array(${pageIds()}))`
            : options.window
              ? and(where(), sql`${events.id} in (${orderWindow(db, query, options.window, options.now)})`)
              : where(),
      )
      .orderBy(
        ...(discoveryOrder(query) ??
          relevanceOrder(query) ??
          // the page's ids are known: sort those few rows, never walk an order index to find them
          (options.fewMatches || hasPageIds || options.ids ? ORDER_OF_FEW : ORDER)[sort]),
      )
      .limit(page.limit)
      .offset(hasPageIds || options.ids ? 0 : page.offset)
  const countQuery = () =>
    query.q
      ? db.select({ total: sql<number>`count(*)::int` }).from(
          (onCopy
            ? db
                .select({ one: sql`1`.as('one') })
                .from(eventSearch)
                .where(onCopy)
            : db
                .select({ one: sql`1`.as('one') })
                .from(events)
                .where(where())
          )
            .limit(countCap! + 1)
            .as('matches'),
        )
      : countsOnly(query, options.now)
        ? // only plain filters: the kept counts (migration 0022) hold the total, whatever the size
          db
            .select({ total: sql<number>`coalesce(sum(${eventCounts.n}), 0)::int` })
            .from(eventCounts)
            .where(
              and(
                query.kategori
                  ? sql`${eventCounts.categoryId} = (select id from categories where slug = ${query.kategori})`
                  : undefined,
                query.kota ? sql`${eventCounts.cityId} = (select id from cities where slug = ${query.kota})` : undefined,
                query.format ? eq(eventCounts.eventType, query.format) : undefined,
                query.gratis !== undefined ? eq(eventCounts.isFree, query.gratis === '1') : undefined,
              ),
            )
        : onTagCopy
          ? // the tag's rows of the copy: one index range, not a probe of every tagged event
            db
              .select({ total: sql<number>`count(*)::int` })
              .from(eventTagOrder)
              .where(onTagCopy)
          : db
              .select({ total: sql<number>`count(*)::int` })
              .from(events)
              .where(where())
  /**
   * A search on the copy in a list order: its capped count and, in the same scan of the search
   * index, the page's ids among those matches (right when they are within the cap). A search
   * of few matches then reads the index once, not once to count and again for its page.
   */
  const countWithPage = () =>
    query.q && onCopy && sort in MATCH_ORDER
      ? sql`with m as (select ${eventSearch.eventId} as event_id, ${eventSearch.createdAt} as created_at,
              ${eventSearch.startDate} as start_date, ${eventSearch.ticketPriceMin} as ticket_price_min, ${eventSearch.title} as title
              from ${eventSearch} where ${onCopy} limit ${countCap! + 1})
            select (select count(*) from m)::int as total,
              array(select m.event_id from m order by ${sql.join(MATCH_ORDER[sort], sql`, `)} limit ${page.limit} offset ${page.offset}) as ids`
      : undefined
  return {
    get page() {
      return pageOf(true)
    },
    /** The same page, ids only. */
    get ids() {
      return pageOf(false)
    },
    get count() {
      return countQuery()
    },
    get countWithPage() {
      return countWithPage()
    },
    /** Counting stops here (searches only). */
    countCap,
    /** The page's ids come from the search copy or the tag copy. */
    fromCopy: hasPageIds,
  }
}

export interface ListOptions {
  /** The clock for time windows (epoch ms); injectable for tests. */
  now?: number
  /**
   * Keeps totals across the sorts and pages of one filter (the route's cache): a count walks every
   * matching row, the page only its own. Absent: counted each time.
   */
  remember?: ResponseCache['remember']
  /** When a total that depends on "today" stops being valid (epoch ms). */
  expiresAt?: number
  /** A search known to match few events (see ORDER_OF_FEW). */
  fewMatches?: boolean
  /** The page's ids, already found (countWithPage): only their cards are read. */
  ids?: string[]
  /**
   * Reads the page among the first `window` events of the order index that pass the other
   * filters (see SEARCH_WINDOW): a bounded walk, which may come back short.
   */
  window?: number
  /**
   * The list index at the cache's version (list-index.ts), asked only for a list it holds: a list
   * by city, category, tag, format and price in a list order gets its page's ids and its total
   * there, and reads only the cards. Undefined from it: the list reads PostgreSQL.
   */
  index?: () => Promise<IndexView | undefined>
}

/**
 * Whether the list index holds what the query filters and sorts by: a search too, when its match
 * is lexemes and prefixes under & and | (what eventSearchQuery writes; anything else, PostgreSQL).
 */
function indexable(query: EventListQuery & SearchReady, nowMs?: number): { match?: MatchNode } | undefined {
  const match = query.q ? (query.match ? parseMatch(query.match) : null) : undefined
  if (match === null) return undefined
  return (query.sort === undefined || query.sort in ORDER) && discoveryConditions(query, nowMs ?? Date.now()).length === 0
    ? { match }
    : undefined
}

/**
 * How far a search sorted by something else than its own order walks the order index. The matches
 * of a common word may all sit deep in an order: titles that start with "Konser" come after
 * 30k other titles, and walking to them cost 0.4-1.3 s (EXPLAIN read). A page the window cannot
 * fill is read from the search index and sorted instead (ORDER_OF_FEW), whose cost grows with the
 * matches but never with the table.
 */
export const SEARCH_WINDOW = 1000

/**
 * One page of published events (each item's JSON text, cards.ts) and the total matching the
 * filter: two queries, any page size.
 */
export async function listEvents(database: Database, query: EventListQuery, page: PageRequest, listOptions: ListOptions = {}) {
  // the window is for the bounded walk alone (a test may set its size)
  const { window = SEARCH_WINDOW, index, ...options } = listOptions
  const held = index && indexable(query, options.now)
  const pager = held ? await index() : undefined
  if (pager) {
    const found = pager.page({ ...query, match: held!.match }, (query.sort as EventSort | undefined) ?? 'created_at_desc', page.offset, page.limit)
    // a search answers as its SQL does: counted up to the cap (or the page), a lower bound past it
    const cap = countCapOf(query, page) ?? Number.POSITIVE_INFINITY
    return { itemsJson: await cardsOf(database, found.ids), total: Math.min(found.total, cap + 1), exact: found.total <= cap }
  }
  const queries = listQueries(database, query, page, options)
  const {
    sort: _sort,
    page: _page,
    limit: _limit,
    facets: _facets,
    tsquery: _tsquery,
    match: _match,
    searchKeys: _searchKeys,
    matchesAtLeast = 0,
    ...filters
  } = query as EventListQuery & SearchReady
  // the page's ids when this request counted the matches itself and they were few
  let counted: string[] | undefined
  const count = async () => {
    // a search by words alone that the kept lexeme counts already put past the cap: the count
    // would find the cap + 1, after visiting that many rows (1.5-4 ms for a common word, EXPLAIN)
    const wordsAlone = Object.entries(filters).every(([name, value]) => name === 'q' || value === undefined)
    if (queries.countCap !== null && matchesAtLeast > queries.countCap && wordsAlone) return queries.countCap + 1
    const withPage = queries.countWithPage
    if (!withPage) return (await queries.count)[0].total
    const [row] = await database.rows<{ total: number; ids: string[] }>(withPage)
    if (row.total <= queries.countCap!) counted = row.ids
    return row.total
  }
  // the total of a search depends on its words alone, not on their order (searchKey)
  const totalKey = cacheKey('events-total', {
    ...filters,
    q: filters.q === undefined ? undefined : searchKey(filters.q),
    _cap: queries.countCap ?? undefined,
    _dated: options.expiresAt,
  })
  const total = options.remember
    ? options.remember(totalKey, async () => ({ value: await count(), deps: listDeps(query), expiresAt: options.expiresAt }))
    : count()
  // a search counts first: how many it matches decides how its page is best read
  const fewMatches = query.q !== undefined && queries.countCap !== null && (await total) <= queries.countCap
  // many matches in an order of their own (title, price, dates): a bounded walk first; past the
  // cap the page is full, so a short answer means the window missed it
  const sortedOtherwise =
    query.q !== undefined &&
    !fewMatches &&
    !queries.fromCopy &&
    query.sort !== undefined &&
    query.sort in ORDER &&
    query.sort !== 'created_at_desc'
  const readPage = async () => {
    if (counted) return listQueries(database, query, page, { ...options, fewMatches, ids: counted }).page
    if (!sortedOtherwise) return (fewMatches ? listQueries(database, query, page, { ...options, fewMatches }) : queries).page
    const walked = await listQueries(database, query, page, { ...options, window }).page
    return walked.length >= page.limit ? walked : listQueries(database, query, page, { ...options, fewMatches: true }).page
  }
  const [rows, matching] = await Promise.all([readPage(), total])
  // past the cap, total is a lower bound (one more than the cap): has_next stays true
  return { itemsJson: jsonArray(rows.map((r) => r.card)), total: matching, exact: queries.countCap === null || matching <= queries.countCap }
}

/**
 * Cards whose event id is in the array `ids`. The ids through a subquery: PostgreSQL then plans
 * the statement once (a generic plan); given the array itself it planned it again for every call,
 * its custom plan looking cheaper (1.3 ms of planning for a 0.4 ms query;
 * pg_stat_statements.track_planning under the bench).
 */
const cardIdIn = (ids: SQL) => sql`${eventCards.eventId} = any(array(select unnest(${ids})))`

/**
 * The list cards of several pages of published events by id, one prepared query: each page's
 * cards come back as one text, joined in its order by PostgreSQL (`w.page` numbers the pages,
 * `w.at` the ids). Read as one row per card, the rows' parsing, mapping and joining cost the
 * catalog 10-30% more CPU a page than the statement's one row per page (an in-process probe on
 * the bench data, pages of 12 cards, 1-4 pages a statement). The cards are read from
 * event_cards, which holds only the published events' (migration 0032).
 */
const pageCardQueries = preparedPerDatabase((db: Db) =>
  db
    .select({ page: sql<number>`w.page`, cards: sql<string>`string_agg(${eventCards.card}, ',' order by w.at)` })
    // both as comma-joined text: the driver escaped a text[] parameter element by element (3% of
    // the catalog's thread under the lists scenario, its JavaScript profile)
    .from(
      sql`unnest(string_to_array(${sql.placeholder('ids')}, ','), string_to_array(${sql.placeholder('pages')}, ',')::int[]) with ordinality as w(id, page, at)`,
    )
    .innerJoin(eventCards, sql`${eventCards.eventId} = w.id`)
    .groupBy(sql`w.page`)
    .prepare('list_cards_by_page'),
)

/** The pages the misses of one turn ask for, in one statement (batch.ts). */
const cardsBatch = preparedPerDatabase((db: Db) =>
  batched(async (pages: string[][]) => {
    const ids: string[] = []
    const numbers: number[] = []
    pages.forEach((page, n) => page.forEach((id) => (ids.push(id), numbers.push(n))))
    const joined = pages.map(() => '')
    for (const row of await pageCardQueries(db).execute({ ids: ids.join(','), pages: numbers.join(',') })) joined[row.page] = row.cards
    return joined.map((cards) => `[${cards}]`)
  }),
)

/**
 * The cards of `ids` as a JSON array, in their order (an id no longer published is left out). An
 * empty page asks too: every answer the cache does not hold reads the database, so with the
 * database down a list is a 503 as it was before the index (not a 200 answered from memory while
 * nothing could confirm it; test/faults).
 */
export function cardsOf({ db }: Database, ids: string[]): Promise<string> {
  return cardsBatch(db)(ids)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const DETAIL = jsonOf([...CARD_FIELDS, ...DETAIL_FIELDS])

/**
 * The list cards of the published events among the ids in the array `ids`, in their order, as
 * one text (event_cards, migration 0032): beside the detail's columns, a detail's miss reads its
 * event and its related events (their ids known from the list index) in one statement.
 */
const relatedCardsOf = (db: Db, ids: SQL) =>
  sql<string>`(${db
    .select({
      cards: sql`coalesce(string_agg(${eventCards.card}, ',' order by array_position(${ids}, ${eventCards.eventId})), '')`,
    })
    .from(eventCards)
    .where(cardIdIn(ids))})`

/** The detail query, built once per database: drizzle would build its SQL text again on every call. */
function buildDetailQueries(db: Db) {
  const columns = {
    json: DETAIL,
    id: events.id,
    slug: events.slug,
    title: events.title,
    categoryId: events.categoryId,
    categorySlug: categories.slug,
    cityId: events.cityId,
    citySlug: cities.slug,
    tags: sql<string[][]>`array(select array[et.tag_id, tg.slug] from ${EVENT_TAGS_FROM})`,
  }
  const query = (match: SQL) =>
    db
      .select(columns)
      .from(events)
      .innerJoin(categories, eq(categories.id, events.categoryId))
      .leftJoin(cities, eq(cities.id, events.cityId))
      .where(and(match, eq(events.status, 'published')))
      .limit(1)
  return {
    bySlug: query(eq(events.slug, sql.placeholder('slug'))).prepare('event_detail_by_slug'),
    bySlugOrId: query(or(eq(events.slug, sql.placeholder('slug')), eq(events.id, sql.placeholder('id')))!).prepare(
      'event_detail_by_slug_or_id',
    ),
    // the misses of one turn: slug i with its guessed related ids (comma-joined) in row `n` = i + 1
    bySlugsWithRelated: db
      .select({
        n: sql<number>`wanted.n::int`,
        relatedCards: relatedCardsOf(db, sql`string_to_array(wanted.related, ',')`),
        ...columns,
      })
      .from(
        sql`unnest(${sql.placeholder('slugs')}::text[], ${sql.placeholder('related')}::text[]) with ordinality as wanted(slug, related, n)`,
      )
      .innerJoin(events, sql`${events.slug} = wanted.slug`)
      .innerJoin(categories, eq(categories.id, events.categoryId))
      .leftJoin(cities, eq(cities.id, events.cityId))
      .where(eq(events.status, 'published'))
      .prepare('event_details_by_slugs_with_related'),
  }
}
const detailQueries = preparedPerDatabase(buildDetailQueries)

type DetailRow = Awaited<ReturnType<ReturnType<typeof buildDetailQueries>['bySlug']['execute']>>[number] & {
  relatedCards?: string
}

/** Detail misses with a guess, in the same turn: one statement (batch.ts). */
const detailsWithRelated = preparedPerDatabase((db: Db) =>
  batched(async (wanted: { slug: string; related: string[] }[]) => {
    const rows = await detailQueries(db).bySlugsWithRelated.execute({
      slugs: wanted.map((w) => w.slug),
      related: wanted.map((w) => w.related.join(',')),
    })
    const found: (DetailRow | undefined)[] = new Array(wanted.length)
    for (const row of rows) found[row.n - 1] = row
    return found
  }),
)

/**
 * A published event by slug, or by id when the value is an id: its JSON (the detail without
 * `related`, one query), what the answer depends on, and what its related events are computed
 * from; null when there is none. Given `guess` (the list index's event under that slug and its
 * related ids), the same statement reads the related cards: `relatedJson` is their JSON array
 * when the event read is the one guessed (a slug hash shared by two events, or one renamed
 * meanwhile, leaves it out and the caller computes `related` as without an index). The misses
 * with a guess that arrive together are read in one statement.
 */
export async function findPublishedEvent({ db }: Database, slugOrId: string, guess?: { id: string; related: string[] }) {
  const queries = detailQueries(db)
  const row: DetailRow | undefined = UUID.test(slugOrId)
    ? (await queries.bySlugOrId.execute({ slug: slugOrId, id: slugOrId.toLowerCase() }))[0]
    : guess
      ? await detailsWithRelated(db)({ slug: slugOrId, related: guess.related })
      : (await queries.bySlug.execute({ slug: slugOrId }))[0]
  if (!row) return null
  const relatedTo: RelatedTo = {
    id: row.id,
    categoryId: row.categoryId,
    categorySlug: row.categorySlug,
    cityId: row.cityId,
    citySlug: row.citySlug,
    tags: row.tags.map(([id, slug]) => ({ id, slug })),
  }
  return {
    json: row.json,
    id: row.id,
    slug: row.slug,
    title: row.title,
    relatedTo,
    relatedJson: row.relatedCards !== undefined && guess?.id === row.id ? `[${row.relatedCards}]` : undefined,
  }
}
