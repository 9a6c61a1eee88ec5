// Editing published or pending events: PATCH with the submission's rules, and the state
// actions (feature, cancel, delete, restore). Each is one transaction: lock the row, check
// If-Match against its revision, change it, bump the revision, write the audit row.
import { eq, sql } from 'drizzle-orm'
import { categories, cities, eventTags, events, tagIdsFor, tags, toHourMinute, toNumber, type Database, type EventStatus } from '@app/db'
import { HttpError, validateSubmission, type EventInputBody } from '@app/kit'
import { changedFields, writeAudit, type Tx } from '../audit/service'
import { checkRevision } from '../concurrency'
import { assertSlugFree, checkSlug, recordSlugChange } from '../slugs'

export const NOT_FOUND = 'Event tidak ditemukan'

async function lockEvent(tx: Tx, id: string, ifMatch: number | undefined) {
  const [row] = await tx.select().from(events).where(eq(events.id, id)).for('update')
  if (!row) throw new HttpError(404, NOT_FOUND)
  checkRevision(ifMatch, row.revision)
  return row
}

type EventRow = Awaited<ReturnType<typeof lockEvent>>

async function tagNamesOf(tx: Tx, eventId: string): Promise<string[]> {
  const rows = await tx
    .select({ name: tags.name })
    .from(eventTags)
    .innerJoin(tags, eq(tags.id, eventTags.tagId))
    .where(eq(eventTags.eventId, eventId))
    .orderBy(tags.name)
  return rows.map((r) => r.name)
}

/** The stored event in the shape of a submission body, so an edit goes through the same rules. */
function asInput(row: EventRow, tagNames: string[]): EventInputBody {
  return {
    title: row.title,
    category_id: row.categoryId,
    city_id: row.cityId,
    start_date: row.startDate,
    end_date: row.endDate,
    start_time: toHourMinute(row.startTime),
    end_time: toHourMinute(row.endTime),
    event_type: row.eventType,
    venue_name: row.venueName,
    venue_address: row.venueAddress,
    organizer_name: row.organizerName,
    contact_name: row.contactName,
    contact_phone: row.contactPhone,
    contact_email: row.contactEmail,
    ticket_price_min: toNumber(row.ticketPriceMin),
    ticket_price_max: toNumber(row.ticketPriceMax),
    is_free: row.isFree,
    ticket_url: row.ticketUrl,
    poster_url: row.posterUrl,
    tags: tagNames.join(', '),
    description: row.description,
    short_description: row.shortDescription,
    latitude: row.latitude,
    longitude: row.longitude,
  }
}

export type EventPatch = EventInputBody & { slug?: string | null }

/** Applies the given fields over the stored ones and checks the whole event again. */
export async function updateEvent(
  database: Database,
  input: { id: string; adminId: string; ifMatch: number | undefined; patch: EventPatch },
) {
  return database.db.transaction(async (tx) => {
    const row = await lockEvent(tx, input.id, input.ifMatch)
    if (row.status === 'deleted') throw new HttpError(409, 'Event ada di tempat sampah: pulihkan dulu sebelum mengubahnya')
    const { slug: rawSlug, ...patch } = input.patch
    const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as EventInputBody
    const current = asInput(row, await tagNamesOf(tx, row.id))
    // a price change without is_free lets the price decide, as in a submission
    if ((given.ticket_price_min !== undefined || given.ticket_price_max !== undefined) && given.is_free === undefined)
      delete current.is_free
    const merged = { ...current, ...given }
    // stored URLs the editor does not touch are kept as they are (demo posters are site-relative
    // /media/... paths, which a new submission could not send)
    const keptUrls = { poster_url: given.poster_url === undefined, ticket_url: given.ticket_url === undefined }
    if (keptUrls.poster_url) merged.poster_url = null
    if (keptUrls.ticket_url) merged.ticket_url = null
    const checked = await validateSubmission(merged, async (categoryId, cityId) => {
      const [category] = categoryId
        ? await tx.select({ isActive: categories.isActive }).from(categories).where(eq(categories.id, categoryId)).limit(1)
        : []
      const [city] = cityId ? await tx.select({ id: cities.id }).from(cities).where(eq(cities.id, cityId)).limit(1) : []
      // the event's own category stays acceptable even after it was deactivated
      return {
        category: category && (category.isActive || categoryId === row.categoryId) ? { isActive: true } : category,
        cityFound: Boolean(city),
      }
    })
    if (!checked.ok) throw new HttpError(400, checked.errors[0].message, checked.errors)
    const v = checked.value
    if (keptUrls.poster_url) v.posterUrl = row.posterUrl
    if (keptUrls.ticket_url) v.ticketUrl = row.ticketUrl
    const slug = rawSlug ? checkSlug(rawSlug) : row.slug
    if (slug !== row.slug) await assertSlugFree(tx, events, events.slug, events.id, slug, row.id)

    const before = { ...current, slug: row.slug, tags: current.tags }
    const after: Record<string, unknown> = {
      title: v.title,
      category_id: v.categoryId,
      city_id: v.cityId,
      start_date: v.startDate,
      end_date: v.endDate,
      start_time: v.startTime,
      end_time: v.endTime,
      event_type: v.eventType,
      venue_name: v.venueName,
      venue_address: v.venueAddress,
      organizer_name: v.organizerName,
      contact_name: v.contactName,
      contact_phone: v.contactPhone,
      contact_email: v.contactEmail,
      ticket_price_min: v.ticketPriceMin,
      ticket_price_max: v.ticketPriceMax,
      is_free: v.isFree,
      ticket_url: v.ticketUrl,
      poster_url: v.posterUrl,
      tags: v.tags.join(', '),
      description: v.description,
      short_description: v.shortDescription,
      latitude: v.latitude,
      longitude: v.longitude,
      slug,
    }
    const diff = changedFields({ ...before, is_free: row.isFree }, after)
    if (!diff.changed) return { id: row.id, slug: row.slug, revision: row.revision, changed: false }

    const [updated] = await tx
      .update(events)
      .set({
        title: v.title,
        slug,
        categoryId: v.categoryId,
        cityId: v.cityId,
        startDate: v.startDate,
        endDate: v.endDate,
        startTime: v.startTime,
        endTime: v.endTime,
        eventType: v.eventType,
        venueName: v.venueName,
        venueAddress: v.venueAddress,
        organizerName: v.organizerName,
        contactName: v.contactName,
        contactPhone: v.contactPhone,
        contactEmail: v.contactEmail,
        ticketPriceMin: String(v.ticketPriceMin),
        ticketPriceMax: String(v.ticketPriceMax),
        isFree: v.isFree,
        ticketUrl: v.ticketUrl,
        posterUrl: v.posterUrl,
        description: v.description,
        shortDescription: v.shortDescription,
        latitude: v.latitude,
        longitude: v.longitude,
        updatedAt: sql`now()`,
        revision: sql`${events.revision} + 1`,
      })
      .where(eq(events.id, row.id))
      .returning({ revision: events.revision })
    if ('tags' in diff.after) {
      // tags are replaced as a set
      await tx.delete(eventTags).where(eq(eventTags.eventId, row.id))
      const ids = await tagIdsFor(tx, v.tags)
      if (ids.size) await tx.insert(eventTags).values([...ids].map((tagId) => ({ eventId: row.id, tagId })))
    }
    if (slug !== row.slug) await recordSlugChange(tx, 'event', row.id, row.slug, slug)
    await writeAudit(tx, {
      adminId: input.adminId,
      action: 'update',
      entity: 'event',
      entityId: row.id,
      before: diff.before,
      after: diff.after,
    })
    return { id: row.id, slug, revision: updated.revision, changed: true }
  })
}

export type EventAction = 'feature' | 'unfeature' | 'cancel' | 'delete' | 'restore'

export const ACTION_MESSAGES: Record<EventAction, string> = {
  feature: 'Event ditampilkan sebagai unggulan',
  unfeature: 'Event tidak lagi unggulan',
  cancel: 'Event ditandai dibatalkan (tetap tampil untuk publik dengan status dibatalkan)',
  delete: 'Event dipindahkan ke tempat sampah (tidak tampil untuk publik; dapat dipulihkan)',
  restore: 'Event dipulihkan',
}

/** feature, unfeature, cancel, delete (soft) and restore (from the trash, or un-cancel). */
export async function eventAction(
  database: Database,
  input: { id: string; adminId: string; ifMatch: number | undefined; action: EventAction; reason?: string | null },
) {
  return database.db.transaction(async (tx) => {
    const row = await lockEvent(tx, input.id, input.ifMatch)
    const deleted = row.status === 'deleted'
    let set: Partial<typeof events.$inferInsert>
    let before: Record<string, unknown>
    let after: Record<string, unknown>
    switch (input.action) {
      case 'feature':
      case 'unfeature': {
        if (deleted) throw new HttpError(409, 'Event ada di tempat sampah: pulihkan dulu')
        const want = input.action === 'feature'
        if (row.isFeatured === want) throw new HttpError(409, want ? 'Event sudah unggulan' : 'Event memang bukan unggulan')
        set = { isFeatured: want }
        before = { is_featured: row.isFeatured }
        after = { is_featured: want }
        break
      }
      case 'cancel':
        if (deleted) throw new HttpError(409, 'Event ada di tempat sampah: pulihkan dulu')
        if (row.cancelledAt) throw new HttpError(409, 'Event sudah dibatalkan')
        set = { cancelledAt: sql`now()` as any }
        before = { is_cancelled: false }
        after = { is_cancelled: true }
        break
      case 'delete':
        if (deleted) throw new HttpError(409, 'Event sudah ada di tempat sampah')
        set = { status: 'deleted', statusBeforeDelete: row.status, deletedAt: sql`now()` as any }
        before = { status: row.status }
        after = { status: 'deleted' }
        break
      case 'restore':
        if (deleted) {
          const back: EventStatus =
            row.statusBeforeDelete && row.statusBeforeDelete !== 'deleted' ? row.statusBeforeDelete : 'draft'
          set = { status: back, statusBeforeDelete: null, deletedAt: null }
          before = { status: 'deleted' }
          after = { status: back }
        } else if (row.cancelledAt) {
          set = { cancelledAt: null }
          before = { is_cancelled: true }
          after = { is_cancelled: false }
        } else throw new HttpError(409, 'Event tidak dihapus dan tidak dibatalkan: tidak ada yang dipulihkan')
        break
    }
    const [updated] = await tx
      .update(events)
      .set({ ...set, updatedAt: sql`now()` as any, revision: sql`${events.revision} + 1` as any })
      .where(eq(events.id, row.id))
      .returning({ id: events.id, slug: events.slug, status: events.status, revision: events.revision })
    await writeAudit(tx, {
      adminId: input.adminId,
      action: input.action,
      entity: 'event',
      entityId: row.id,
      before,
      after,
      reason: input.reason ?? null,
    })
    return updated
  })
}
