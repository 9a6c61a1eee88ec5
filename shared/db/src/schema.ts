import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

// Ids are UUID v7 strings made by the application (Bun.randomUUIDv7()): time-ordered, so
// "newest first" and "ties broken by id" agree, and they stay strings on the wire.
const id = () => text('id').primaryKey()
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

// 'deleted': soft-deleted by an editor (recoverable; status_before_delete keeps where it was)
export const eventStatus = pgEnum('event_status', ['published', 'pending', 'draft', 'rejected', 'deleted'])
export const eventType = pgEnum('event_type', ['offline', 'online', 'hybrid'])
export const articleStatus = pgEnum('article_status', ['published', 'draft'])

export type EventStatus = (typeof eventStatus.enumValues)[number]
export type EventType = (typeof eventType.enumValues)[number]
export type GalleryItem = { url: string; caption: string | null }

export const categories = pgTable(
  'categories',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    description: text('description').notNull().default(''),
    icon: text('icon').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('categories_order_idx').on(t.sortOrder, t.name, t.id)],
)

export const cities = pgTable(
  'cities',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    province: text('province').notNull(),
    country: text('country').notNull().default('Indonesia'),
    // IANA zone: event dates and times are local to the event's city
    timeZone: text('time_zone').notNull().default('Asia/Jakarta'),
    imageUrl: text('image_url').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('cities_name_idx').on(t.name, t.id)],
)

export const tags = pgTable(
  'tags',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    createdAt: createdAt(),
  },
  // tag names are unique regardless of case: "Musik" and "musik" are one tag
  (t) => [uniqueIndex('tags_name_lower_idx').on(sql`lower(${t.name})`)],
)

export const events = pgTable(
  'events',
  {
    id: id(),
    title: text('title').notNull(),
    slug: text('slug').notNull().unique(),
    shortDescription: text('short_description').notNull().default(''),
    // sanitised HTML
    description: text('description').notNull().default(''),
    posterUrl: text('poster_url').notNull().default(''),
    gallery: jsonb('gallery').$type<GalleryItem[]>().notNull().default([]),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    startTime: time('start_time'),
    endTime: time('end_time'),
    eventType: eventType('event_type').notNull().default('offline'),
    venueName: text('venue_name').notNull().default(''),
    venueAddress: text('venue_address').notNull().default(''),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    cityId: text('city_id').references(() => cities.id),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id),
    organizerName: text('organizer_name').notNull(),
    contactName: text('contact_name').notNull().default(''),
    contactPhone: text('contact_phone').notNull().default(''),
    contactEmail: text('contact_email').notNull().default(''),
    ticketUrl: text('ticket_url').notNull().default(''),
    isFree: boolean('is_free').notNull().default(false),
    // rupiah; numeric so large prices stay exact, mapped to a JSON number on the way out
    ticketPriceMin: numeric('ticket_price_min', { precision: 14, scale: 2 }).notNull().default('0'),
    ticketPriceMax: numeric('ticket_price_max', { precision: 14, scale: 2 }).notNull().default('0'),
    status: eventStatus('status').notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    // admin studio (migration 0010): featured on the home page, cancelled (stays public, marked),
    // soft delete, and a revision bumped by every admin change (the ETag of If-Match)
    isFeatured: boolean('is_featured').notNull().default(false),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    statusBeforeDelete: eventStatus('status_before_delete'),
    revision: integer('revision').notNull().default(1),
    // full-text document: title weighs most, then organizer, then the body
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('indonesian', immutable_unaccent(title)), 'A') || setweight(to_tsvector('indonesian', immutable_unaccent(organizer_name)), 'B') || setweight(to_tsvector('indonesian', immutable_unaccent(short_description || ' ' || regexp_replace(description, '<[^>]*>', ' ', 'g'))), 'C')`,
    ),
    // lower-cased, accent-free title + organizer for the trigram (typo/partial word) fallback
    searchText: text('search_text').generatedAlwaysAs(sql`immutable_unaccent(lower(title || ' ' || organizer_name))`),
    // what a public search matches: the event's text plus its venue, city, province, category and
    // tag names, kept by triggers (migration 0016)
    searchDocument: tsvector('search_document')
      .notNull()
      .default(sql`''::tsvector`),
  },
  (t) => [
    // ascending: a backward scan serves ORDER BY created_at DESC, id DESC (an index declared DESC
    // gets NULLS LAST from drizzle and would not match the query's default NULLS FIRST)
    index('events_status_created_idx').on(t.status, t.createdAt, t.id),
    index('events_status_start_idx').on(t.status, t.startDate, t.id),
    index('events_status_price_idx').on(t.status, t.ticketPriceMin, t.id),
    index('events_status_title_idx').on(t.status, t.title, t.id),
    index('events_category_created_idx').on(t.categoryId, t.status, t.createdAt, t.id),
    index('events_city_created_idx').on(t.cityId, t.status, t.createdAt, t.id),
    // the common "events in this city of this category, soonest first" list
    index('events_city_category_start_idx').on(t.cityId, t.categoryId, t.status, t.startDate, t.id),
    index('events_type_idx').on(t.eventType, t.status),
    index('events_free_idx').on(t.isFree, t.status),
    // gratis=0 in price order starts at the first paid event, not after every free one (migration 0024)
    index('events_free_price_idx').on(t.isFree, t.status, t.ticketPriceMin, t.id),
    index('events_search_idx').using('gin', t.searchVector),
    index('events_search_document_idx').using('gin', t.searchDocument),
    index('events_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // time windows: "dates overlap this window" (migration 0015)
    index('events_date_range_idx').using('gist', sql`daterange(${t.startDate}, greatest(${t.startDate}, ${t.endDate}), '[]')`),
    // not ended yet / already ended, in end_date order (waktu=mendatang|berlalu, related events)
    // (+ INCLUDE (start_date, city_id) in migration 0015: drizzle cannot declare it)
    index('events_status_end_idx').on(t.status, t.endDate, t.id),
    // related events: upcoming in this category / city, ending soonest (migration 0009)
    index('events_category_end_idx').on(t.categoryId, t.status, t.endDate, t.id),
    index('events_city_end_idx').on(t.cityId, t.status, t.endDate, t.id),
    index('events_city_category_end_idx').on(t.cityId, t.categoryId, t.status, t.endDate, t.id),
    index('events_count_idx').on(t.status, t.categoryId, t.cityId, t.eventType, t.isFree),
    // near me: the bounding box before the haversine test
    index('events_lat_lng_idx')
      .on(t.latitude, t.longitude)
      .where(sql`${t.latitude} IS NOT NULL`),
    index('events_featured_idx')
      .on(t.isFeatured, t.status)
      .where(sql`${t.isFeatured}`),
  ],
)

/**
 * What a public event search reads (migration 0021): one row per published event, kept by
 * triggers on events; the document without positions or weights. Narrow rows make a search's
 * GIN bitmap and its capped count read a few pages instead of one per match.
 */
export const eventSearch = pgTable(
  'event_search',
  {
    eventId: text('event_id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    // the other list orders: a search sorts its matches here, not on the wide events rows
    title: text('title').notNull(),
    startDate: date('start_date').notNull(),
    ticketPriceMin: numeric('ticket_price_min', { precision: 14, scale: 2 }).notNull(),
    cityId: text('city_id'),
    categoryId: text('category_id').notNull(),
    // the list's other plain filters (migration 0023): lists by city or category page here too
    eventType: text('event_type').notNull(),
    isFree: boolean('is_free').notNull(),
    lexemes: tsvector('lexemes').notNull(),
  },
  (t) => [
    index('event_search_lexemes_idx').using('gin', t.lexemes),
    // ascending: a backward scan serves the newest first (see events_status_created_idx)
    index('event_search_created_idx').on(t.createdAt, t.eventId),
    // every list order within a city and within a category
    index('event_search_city_created_idx').on(t.cityId, t.createdAt, t.eventId),
    index('event_search_city_start_idx').on(t.cityId, t.startDate, t.eventId),
    index('event_search_city_price_idx').on(t.cityId, t.ticketPriceMin, t.eventId),
    index('event_search_city_title_idx').on(t.cityId, t.title, t.eventId),
    index('event_search_category_created_idx').on(t.categoryId, t.createdAt, t.eventId),
    index('event_search_category_start_idx').on(t.categoryId, t.startDate, t.eventId),
    index('event_search_category_price_idx').on(t.categoryId, t.ticketPriceMin, t.eventId),
    index('event_search_category_title_idx').on(t.categoryId, t.title, t.eventId),
  ],
)

/**
 * One row per tag of each published event, with the keys of every list order (migration 0026,
 * kept by row triggers on events and event_tags): a list by tag reads its page of ids from one
 * index per tag and order, as event_search serves lists by city or category.
 */
export const eventTagOrder = pgTable(
  'event_tag_order',
  {
    tagId: text('tag_id').notNull(),
    eventId: text('event_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startDate: date('start_date').notNull(),
    // the order of the tag's related-events branch (migration 0030)
    endDate: date('end_date').notNull(),
    ticketPriceMin: numeric('ticket_price_min', { precision: 14, scale: 2 }).notNull(),
    title: text('title').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tagId, t.eventId] }),
    index('event_tag_order_created_idx').on(t.tagId, t.createdAt, t.eventId),
    index('event_tag_order_start_idx').on(t.tagId, t.startDate, t.eventId),
    index('event_tag_order_price_idx').on(t.tagId, t.ticketPriceMin, t.eventId),
    index('event_tag_order_title_idx').on(t.tagId, t.title, t.eventId),
    index('event_tag_order_end_idx').on(t.tagId, t.endDate, t.eventId),
  ],
)

/**
 * The list card (JSON text) of each published event (migration 0032, kept by row triggers on
 * events, categories and cities): a list page and a detail's related events read their cards
 * here, a narrow table that stays in PostgreSQL's buffers, not from the wide events rows.
 */
export const eventCards = pgTable('event_cards', {
  eventId: text('event_id').primaryKey(),
  card: text('card').notNull(),
})

/**
 * Each word of each published title, as suggestions compare words (migration 0025, kept by row
 * triggers on events): the events whose title has a word starting with what was typed are one
 * range of the primary key (`word` is COLLATE "C" there: byte order, so a prefix is a range).
 */
export const eventTitleWords = pgTable(
  'event_title_words',
  {
    word: text('word').notNull(),
    eventId: text('event_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.word, t.eventId] })],
)

/**
 * Published events per category, city ('' without one), format and free flag (migration 0022,
 * kept by statement triggers on events): a list total filtered by nothing else sums these rows.
 */
export const eventCounts = pgTable(
  'event_counts',
  {
    categoryId: text('category_id').notNull(),
    cityId: text('city_id').notNull(),
    eventType: text('event_type').notNull(),
    isFree: boolean('is_free').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.cityId, t.eventType, t.isFree] }), index('event_counts_city_idx').on(t.cityId)],
)

export const eventTags = pgTable(
  'event_tags',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.tagId] }), index('event_tags_tag_idx').on(t.tagId, t.eventId)],
)

export const newsArticles = pgTable(
  'news_articles',
  {
    id: id(),
    title: text('title').notNull(),
    slug: text('slug').notNull().unique(),
    excerpt: text('excerpt').notNull().default(''),
    // sanitised HTML
    content: text('content').notNull().default(''),
    coverUrl: text('cover_url').notNull().default(''),
    // article category label, e.g. "Tips", "Liputan", "Review"
    category: text('category').notNull(),
    authorName: text('author_name').notNull(),
    isFeatured: boolean('is_featured').notNull().default(false),
    status: articleStatus('status').notNull().default('published'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // bumped by every admin change (the ETag of If-Match; migration 0010)
    revision: integer('revision').notNull().default(1),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('indonesian', immutable_unaccent(title)), 'A') || setweight(to_tsvector('indonesian', immutable_unaccent(excerpt || ' ' || regexp_replace(content, '<[^>]*>', ' ', 'g'))), 'B')`,
    ),
    searchText: text('search_text').generatedAlwaysAs(sql`immutable_unaccent(lower(title))`),
  },
  (t) => [
    index('news_status_published_idx').on(t.status, t.publishedAt, t.id),
    index('news_category_idx').on(sql`lower(${t.category})`, t.status),
    index('news_search_idx').using('gin', t.searchVector),
    index('news_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
)

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
})

export const adminUsers = pgTable('admin_users', {
  id: id(),
  username: text('username').notNull().unique(),
  name: text('name').notNull(),
  // owner: content and users; editor: content only (migration 0010); any other role gets 403
  role: text('role').notNull().default('editor'),
  // Bun.password (argon2id) hash
  passwordHash: text('password_hash').notNull(),
  // a disabled user cannot log in and every session of theirs is refused at once
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: id(),
    // sha-256 of the cookie token; the token itself is never stored
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    // absolute expiry; the idle expiry is last_seen_at + idle lifetime
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('admin_sessions_user_idx').on(t.userId)],
)

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: id(),
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_username_idx').on(sql`lower(${t.username})`, t.createdAt),
    index('login_attempts_ip_idx').on(t.ip, t.createdAt),
  ],
)

export const moderationLog = pgTable(
  'moderation_log',
  {
    id: id(),
    adminId: text('admin_id')
      .notNull()
      .references(() => adminUsers.id),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    fromStatus: eventStatus('from_status').notNull(),
    toStatus: eventStatus('to_status').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_log_event_idx').on(t.eventId, t.createdAt)],
)

// Old slugs of edited events and articles: the public detail answers 301 to the current slug.
export const slugRedirects = pgTable(
  'slug_redirects',
  {
    entity: text('entity').$type<'event' | 'news'>().notNull(),
    oldSlug: text('old_slug').notNull(),
    targetId: text('target_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'slug_redirects_pk', columns: [t.entity, t.oldSlug] }),
    index('slug_redirects_target_idx').on(t.entity, t.targetId),
  ],
)

// Every change made through the admin API: who, what, when, and the changed fields before/after.
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    adminId: text('admin_id').references(() => adminUsers.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt, t.id),
    index('audit_log_admin_idx').on(t.adminId, t.createdAt),
    index('audit_log_entity_idx').on(t.entity, t.entityId, t.createdAt),
  ],
)

// Fixed-window counters shared by every replica (a per-process counter would give each
// replica behind the gateway its own allowance).
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_expires_idx').on(t.expiresAt)],
)

// One counter per cached scope, bumped by triggers in the same transaction as every write to
// the tables the scope's public responses are made from (migration 0003). A replica compares
// it with the version its cached responses were built at: exact invalidation, any replica.
/** Distinct words of event titles and organizers: typo expansion for search (migration 0007). */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`),
])

/** Synonyms and common spellings: the terms of a group stand in for each other in a search (migration 0016). */
export const searchSynonyms = pgTable(
  'search_synonyms',
  { term: text('term').notNull(), groupName: text('group_name').notNull() },
  (t) => [primaryKey({ columns: [t.term, t.groupName] })],
)

export const dataVersions = pgTable('data_versions', {
  scope: text('scope').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
})

// The cache-holding replicas (catalog, news) and the data version each has applied. A writer
// waits until every live replica has acknowledged its write before answering, so the next
// request anywhere sees it (shared/kit/src/invalidation.ts).
export const cacheReplicas = pgTable('cache_replicas', {
  id: text('id').primaryKey(),
  service: text('service').notNull(),
  ackedVersion: bigint('acked_version', { mode: 'number' }).notNull().default(0),
  // database time of the replica's last heartbeat
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
})

export const schema = {
  categories,
  cities,
  tags,
  events,
  eventTags,
  newsArticles,
  settings,
  adminUsers,
  adminSessions,
  loginAttempts,
  moderationLog,
  slugRedirects,
  auditLog,
  rateLimitHits,
  dataVersions,
  searchWords,
  searchSynonyms,
  cacheReplicas,
}
