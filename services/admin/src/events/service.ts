import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import {
  categories,
  cities,
  eventTags,
  events,
  tags,
  textSearch,
  toHourMinute,
  toIsoUtc,
  toNumber,
  type Database,
  type EventStatus,
} from '@app/db'
import { HttpError, type PageRequest } from '@app/kit'
import type { AdminEventListQuery } from './model'

function listFilter(query: AdminEventListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  // the trash (status=deleted) is only listed when asked for
  if (query.status && query.status !== 'all') conditions.push(eq(events.status, query.status))
  else conditions.push(sql`${events.status} <> 'deleted'`)
  const q = query.q?.trim()
  if (q) {
    // the words, or exactly an id or slug pasted from somewhere
    const exact = or(eq(events.id, q.toLowerCase()), eq(events.slug, q.toLowerCase()))
    const words = textSearch(events.searchVector, events.searchText, q)
    conditions.push(words ? or(words, exact) : exact)
  }
  return and(...conditions)
}

const columns = {
  id: events.id,
  title: events.title,
  slug: events.slug,
  shortDescription: events.shortDescription,
  description: events.description,
  posterUrl: events.posterUrl,
  gallery: events.gallery,
  startDate: events.startDate,
  endDate: events.endDate,
  startTime: events.startTime,
  endTime: events.endTime,
  eventType: events.eventType,
  venueName: events.venueName,
  venueAddress: events.venueAddress,
  latitude: events.latitude,
  longitude: events.longitude,
  cityName: cities.name,
  citySlug: cities.slug,
  cityTimeZone: cities.timeZone,
  categoryName: categories.name,
  categorySlug: categories.slug,
  organizerName: events.organizerName,
  contactName: events.contactName,
  contactPhone: events.contactPhone,
  contactEmail: events.contactEmail,
  ticketUrl: events.ticketUrl,
  isFree: events.isFree,
  ticketPriceMin: events.ticketPriceMin,
  ticketPriceMax: events.ticketPriceMax,
  status: events.status,
  createdAt: events.createdAt,
  updatedAt: events.updatedAt,
  publishedAt: events.publishedAt,
  categoryId: events.categoryId,
  cityId: events.cityId,
  isFeatured: events.isFeatured,
  cancelledAt: events.cancelledAt,
  deletedAt: events.deletedAt,
  revision: events.revision,
}

/** One page of events of any status, newest first (ties by id), and the total matching. */
export async function listAdminEvents({ db }: Database, query: AdminEventListQuery, page: PageRequest) {
  const where = listFilter(query)
  const [rows, [{ total }]] = await Promise.all([
    selectRows(db, where)
      .orderBy(...(query.sort === 'oldest' ? [asc(events.createdAt), asc(events.id)] : [desc(events.createdAt), desc(events.id)]))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(events)
      .where(where),
  ])
  return { items: await withTags(db, rows), total }
}

type Row = Awaited<ReturnType<typeof selectRows>>[number]
function selectRows(db: Database['db'], where: SQL | undefined) {
  return db
    .select(columns)
    .from(events)
    .innerJoin(categories, eq(categories.id, events.categoryId))
    .leftJoin(cities, eq(cities.id, events.cityId))
    .where(where)
}

/** Every field of one event, any status (the trash included), or null. */
export async function findAdminEvent({ db }: Database, id: string) {
  const rows = await selectRows(db, eq(events.id, id)).limit(1)
  if (!rows.length) return null
  return (await withTags(db, rows))[0]
}

async function withTags(db: Database['db'], rows: Row[]) {
  const tagRows = rows.length
    ? await db
        .select({ eventId: eventTags.eventId, id: tags.id, name: tags.name, slug: tags.slug })
        .from(eventTags)
        .innerJoin(tags, eq(tags.id, eventTags.tagId))
        .where(
          inArray(
            eventTags.eventId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(tags.name))
    : []
  const tagsOf = new Map<string, { id: string; name: string; slug: string }[]>()
  for (const { eventId, ...tag } of tagRows) tagsOf.set(eventId, [...(tagsOf.get(eventId) ?? []), tag])
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    short_description: row.shortDescription,
    description: row.description,
    poster_url: row.posterUrl,
    gallery: row.gallery,
    start_date: row.startDate,
    end_date: row.endDate,
    start_time: toHourMinute(row.startTime),
    end_time: toHourMinute(row.endTime),
    event_type: row.eventType,
    venue_name: row.venueName,
    venue_address: row.venueAddress,
    latitude: row.latitude,
    longitude: row.longitude,
    city_name: row.cityName,
    city_slug: row.citySlug,
    city_time_zone: row.cityTimeZone,
    category_name: row.categoryName,
    category_slug: row.categorySlug,
    organizer_name: row.organizerName,
    contact_phone: row.contactPhone,
    ticket_url: row.ticketUrl,
    is_free: row.isFree ? (1 as const) : (0 as const),
    ticket_price_min: toNumber(row.ticketPriceMin),
    ticket_price_max: toNumber(row.ticketPriceMax),
    tags: tagsOf.get(row.id) ?? [],
    status: row.status,
    contact_name: row.contactName,
    contact_email: row.contactEmail,
    created_at: toIsoUtc(row.createdAt)!,
    updated_at: toIsoUtc(row.updatedAt)!,
    published_at: toIsoUtc(row.publishedAt),
    category_id: row.categoryId,
    city_id: row.cityId,
    is_featured: row.isFeatured,
    is_cancelled: row.cancelledAt !== null,
    cancelled_at: toIsoUtc(row.cancelledAt),
    deleted_at: toIsoUtc(row.deletedAt),
    revision: row.revision,
  }))
}

/** What each moderation action may start from, and where it leads. */
export const TRANSITIONS = {
  approve: { from: ['pending', 'draft', 'rejected'], to: 'published' },
  reject: { from: ['pending'], to: 'rejected' },
} as const satisfies Record<string, { from: readonly EventStatus[]; to: EventStatus }>

export type ModerationAction = keyof typeof TRANSITIONS

const STATUS_LABEL: Record<EventStatus, string> = {
  published: 'published (terbit)',
  pending: 'pending (menunggu moderasi)',
  draft: 'draft',
  rejected: 'rejected (ditolak)',
  deleted: 'deleted (dihapus)',
}

/**
 * Moves one event along a transition in ONE statement: the row is locked (FOR UPDATE), its
 * status checked, changed, and the audit row written together, so of two concurrent approvals
 * exactly one changes the event (the other sees the new status after the lock and gets 409).
 * 404 for an unknown id, 409 when the current status does not allow the action.
 */
export async function moderateEvent(
  database: Database,
  input: { eventId: string; adminId: string; action: ModerationAction; reason?: string | null },
): Promise<{ id: string; slug: string; status: EventStatus; from: EventStatus }> {
  const { from, to } = TRANSITIONS[input.action]
  const allowed = sql.join(
    from.map((s) => sql`${s}::event_status`),
    sql`, `,
  )
  const publishedAt = to === 'published' ? sql`, published_at = now()` : sql``
  const [row] = await database.rows<{ id: string; slug: string; current: EventStatus; from_status: EventStatus | null }>(sql`
    with target as (
      select id, slug, status from events where id = ${input.eventId} for update
    ), changed as (
      update events e set status = ${to}::event_status, updated_at = now(), revision = e.revision + 1 ${publishedAt}
      from target
      where e.id = target.id and target.status in (${allowed})
      returning e.id, target.status as from_status
    ), audit as (
      insert into moderation_log (id, admin_id, event_id, from_status, to_status, reason)
      select ${Bun.randomUUIDv7()}::text, ${input.adminId}::text, changed.id, changed.from_status, ${to}::event_status, ${input.reason ?? null}::text
      from changed
      returning id
    ), audit_row as (
      insert into audit_log (id, admin_id, action, entity, entity_id, before, after, reason)
      select ${Bun.randomUUIDv7()}::text, ${input.adminId}::text, ${input.action}, 'event', changed.id,
             jsonb_build_object('status', changed.from_status), jsonb_build_object('status', ${to}::text), ${input.reason ?? null}::text
      from changed
      returning id
    )
    select target.id, target.slug, target.status::text as current, (select from_status::text from changed) as from_status
    from target`)
  if (!row) throw new HttpError(404, 'Event tidak ditemukan')
  if (!row.from_status) {
    if (input.action === 'approve' && row.current === 'published') throw new HttpError(409, 'Event sudah diterbitkan')
    throw new HttpError(
      409,
      input.action === 'approve'
        ? `Event berstatus ${STATUS_LABEL[row.current]} tidak dapat disetujui`
        : `Hanya event berstatus pending yang dapat ditolak; status saat ini: ${STATUS_LABEL[row.current]}`,
    )
  }
  return { id: row.id, slug: row.slug, status: to, from: row.from_status }
}
