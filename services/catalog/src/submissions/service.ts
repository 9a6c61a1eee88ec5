import { sql } from 'drizzle-orm'
import {
  categories,
  cities,
  eventTags,
  events,
  existingTags,
  freeSlug,
  slugifyOr,
  sqlState,
  tagIdsFor,
  type Database,
  type Db,
  type EventType,
} from '@app/db'
import { validateSubmission, type FieldError, type Submission } from '@app/kit'
import type { SubmissionBody } from './model'

export { LIMITS, parseTagNames, sanitizeDescription, validateSubmission, type Submission } from '@app/kit'

export const SUBMITTED_MESSAGE = 'Event berhasil dikirim dan menunggu persetujuan admin sebelum tampil di katalog'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Test seams: called inside the submission's transaction. */
export interface SubmitHooks {
  /** Before each attempt to insert the event row with `slug`. */
  beforeEventInsert?: (tx: Tx, slug: string, attempt: number) => Promise<void>
  /** After the event, its tags and links are written, just before the commit. */
  afterWrites?: (tx: Tx, eventId: string) => Promise<void>
}

const SLUG_ATTEMPTS = 8
/** The advisory lock key that serialises submissions (any constant unique to this use). */
const SUBMISSION_LOCK = 7_001_011

/**
 * Inserts the event and its tag links with a unique slug. Each attempt runs in a savepoint, so a
 * slug taken by a concurrent writer (unique violation) only undoes that attempt and the next one
 * picks the next free suffix; after a few collisions a random suffix ends the race. The event and
 * its links go out together (one round trip): a failed event insert fails the links after it, and
 * the savepoint undoes both. (Not ON CONFLICT DO NOTHING: that statement completes, so the events'
 * statement triggers run and take the data version's row lock while this transaction goes on
 * waiting for the rival's next slug, and concurrent submissions of one title deadlock.)
 */
async function insertEvent(
  tx: Tx,
  id: string,
  value: Submission,
  hooks: SubmitHooks,
  firstSlug: string,
  tagIds: Set<string>,
): Promise<string> {
  const base = slugifyOr(value.title, 'event')
  for (let attempt = 1; ; attempt++) {
    const slug =
      attempt === 1
        ? firstSlug
        : attempt <= SLUG_ATTEMPTS
          ? await freeSlug(tx, events, events.slug, base)
          : `${base}-${Bun.randomUUIDv7().slice(-8)}`
    await hooks.beforeEventInsert?.(tx, slug, attempt)
    try {
      await tx.transaction(async (savepoint) => {
        await Promise.all([
          savepoint.insert(events).values({
            id,
            title: value.title,
            slug,
            shortDescription: value.shortDescription,
            description: value.description,
            posterUrl: value.posterUrl,
            startDate: value.startDate,
            endDate: value.endDate,
            startTime: value.startTime,
            endTime: value.endTime,
            eventType: value.eventType,
            venueName: value.venueName,
            venueAddress: value.venueAddress,
            latitude: value.latitude,
            longitude: value.longitude,
            cityId: value.cityId,
            categoryId: value.categoryId,
            organizerName: value.organizerName,
            contactName: value.contactName,
            contactPhone: value.contactPhone,
            contactEmail: value.contactEmail,
            ticketUrl: value.ticketUrl,
            isFree: value.isFree,
            ticketPriceMin: String(value.ticketPriceMin),
            ticketPriceMax: String(value.ticketPriceMax),
            // whatever the client sent, a submission waits for moderation
            status: 'pending',
          }),
          ...(tagIds.size
            ? [
                savepoint
                  .insert(eventTags)
                  .values([...tagIds].map((tagId) => ({ eventId: id, tagId })))
                  .onConflictDoNothing(),
              ]
            : []),
        ])
      })
      return slug
    } catch (error) {
      if (sqlState(error) !== '23505' || attempt > SLUG_ATTEMPTS) throw error
    }
  }
}

/**
 * Runs `transaction` again (up to 3 times in all) when PostgreSQL ended it as a deadlock victim or
 * a serialization failure (a submission against a moderator's write: both write the search
 * dictionary and the data version). Nothing of a rolled-back attempt stays.
 */
async function retryLostTransaction<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction()
    } catch (error) {
      if (attempt >= 3 || !['40P01', '40001'].includes(sqlState(error) ?? '')) throw error
      await Bun.sleep(5 + Math.random() * 20 * attempt)
    }
  }
}

export type SubmitResult = { ok: true; event: { id: string; title: string; slug: string } } | { ok: false; errors: FieldError[] }

/**
 * Validates and stores a submission as a pending event in ONE transaction: the event, any new
 * tags and the event-tag links are all written or none is.
 */
export async function submitEvent(database: Database, body: SubmissionBody, hooks: SubmitHooks = {}): Promise<SubmitResult> {
  const { db } = database
  // under load every round trip waits its turn for the database: the category and city in one
  const checked = await validateSubmission(body, async (categoryId, cityId) => {
    const [row] = await database.rows<{ active: boolean | null; city: boolean }>(sql`
      select (select ${categories.isActive} from ${categories} where ${categories.id} = ${categoryId || null}) as active,
             exists (select 1 from ${cities} where ${cities.id} = ${cityId}) as city`)
    return { category: row.active === null ? undefined : { isActive: row.active }, cityFound: row.city }
  })
  if (!checked.ok) return checked
  const value = checked.value
  try {
    const event = await retryLostTransaction(() =>
      db.transaction(async (tx) => {
        // Writes one submission at a time. A transaction's first public write takes the data
        // version's row lock (migration 0005) until its commit; one that held it while it waited for
        // a slug, tag or dictionary word another submission had just written (and that one waited for
        // the lock) deadlocked. Taken before the first write, this lock only lines submissions up
        // where the version lock already does. The two reads and the lock go out together, in this
        // order, on the transaction's connection: one round trip instead of three (under a read
        // load every round trip waits its turn for the database).
        const [existing, firstSlug] = await Promise.all([
          existingTags(tx, value.tags),
          freeSlug(tx, events, events.slug, slugifyOr(value.title, 'event')),
          tx.execute(sql`select pg_advisory_xact_lock(${SUBMISSION_LOCK})`),
        ])
        const tagIds = await tagIdsFor(tx, value.tags, existing)
        const id = Bun.randomUUIDv7()
        // a slug chosen before the lock and taken meanwhile: the next attempt picks another
        const slug = await insertEvent(tx, id, value, hooks, firstSlug, tagIds)
        await hooks.afterWrites?.(tx, id)
        return { id, title: value.title, slug }
      }),
    )
    return { ok: true, event }
  } catch (error) {
    // the category or city was deleted between the check and the insert
    if (sqlState(error) === '23503')
      return { ok: false, errors: [{ field: 'category_id', message: 'Kategori atau kota tidak ditemukan' }] }
    throw error
  }
}
