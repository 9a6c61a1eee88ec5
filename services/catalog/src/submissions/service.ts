import { eq, sql } from 'drizzle-orm'
import {
  categories,
  cities,
  dataVersions,
  eventTags,
  events,
  existingTags,
  freeSlug,
  slugifyOr,
  sqlState,
  tagIdsFor,
  tags,
  type Database,
  type Db,
  type EventType,
} from '@app/db'
import { referenceErrors, validateSubmission, type FieldError, type References, type Submission } from '@app/kit'
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
 * Inserts the event and its tag links with a unique slug, in one round trip an attempt: the event
 * with ON CONFLICT (slug) DO NOTHING, then the links of the event if it is there, and the data
 * version the transaction leaves. A slug taken meanwhile (by the submission that held
 * SUBMISSION_LOCK before this one, or an editor in the admin studio) inserts nothing, and the next
 * attempt picks the next free suffix; after a few a random suffix ends the race. Until the
 * fourteenth round each attempt ran in a savepoint that a unique violation undid: one more round
 * trip for every submission, a turn of a busy event loop. (The statement triggers of an
 * insert that did nothing take the data version's row lock early; no deadlock follows, since
 * submissions already wait for one another on SUBMISSION_LOCK before their first write.)
 */
async function insertEvent(
  tx: Tx,
  id: string,
  value: Submission,
  hooks: SubmitHooks,
  firstSlug: string,
  tagIds: Set<string>,
): Promise<{ slug: string; version: number }> {
  const base = slugifyOr(value.title, 'event')
  for (let attempt = 1; ; attempt++) {
    const slug =
      attempt === 1
        ? firstSlug
        : attempt <= SLUG_ATTEMPTS
          ? await freeSlug(tx, events, events.slug, base)
          : `${base}-${Bun.randomUUIDv7().slice(-8)}`
    await hooks.beforeEventInsert?.(tx, slug, attempt)
    const [inserted, , [current]] = await Promise.all([
      tx
        .insert(events)
        .values({
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
        })
        .onConflictDoNothing({ target: events.slug })
        .returning({ id: events.id }),
      // the links only of an event this attempt inserted (none when its slug was taken)
      tagIds.size
        ? tx.execute(sql`
            insert into ${eventTags} (event_id, tag_id)
            select e.id, t.id from ${events} e join ${tags} t on t.id in (${sql.join(
              [...tagIds].map((tagId) => sql`${tagId}`),
              sql`, `,
            )})
            where e.id = ${id}
            on conflict do nothing`)
        : undefined,
      // the version this transaction leaves, for awaitReplicas (its writes hold the version's row)
      tx.select({ version: dataVersions.version }).from(dataVersions).where(eq(dataVersions.scope, 'public')),
    ])
    if (inserted.length) return { slug, version: Number(current?.version ?? 0) }
    // only a taken slug inserts nothing, and a random suffix is not taken twice in a row
    if (attempt > SLUG_ATTEMPTS + 2) throw new Error(`no free slug for "${base}" after ${attempt} attempts`)
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

export type SubmitResult =
  { ok: true; event: { id: string; title: string; slug: string }; version: number } | { ok: false; errors: FieldError[] }

/** The reads of a submission's category and city (the transaction's, or the database's). */
function categoryAndCity(reader: Pick<Db, 'select'>, categoryId: string, cityId: string | null) {
  return [
    reader.select({ isActive: categories.isActive }).from(categories).where(eq(categories.id, categoryId)),
    reader
      .select({ id: cities.id })
      .from(cities)
      .where(eq(cities.id, cityId ?? '')),
  ] as const
}

const references = ([category]: { isActive: boolean }[], [city]: { id: string }[]): References => ({
  category,
  cityFound: Boolean(city),
})

/**
 * Validates and stores a submission as a pending event in ONE transaction: the event, any new
 * tags and the event-tag links are all written or none is. Under a read load every round trip
 * waits for a turn of the service's event loop, so a valid submission makes four: BEGIN, the lock
 * with every read (category, city, tags, slug), the inserts (after new tags, if any), COMMIT.
 */
export async function submitEvent(database: Database, body: SubmissionBody, hooks: SubmitHooks = {}): Promise<SubmitResult> {
  const { db } = database
  // every rule that needs no database first; an invalid submission still hears of its category
  // and city with the rest (all failures at once), a valid one reads them in its transaction
  const checked = await validateSubmission(body)
  if (!checked.ok) {
    const all = await validateSubmission(body, async (categoryId, cityId) =>
      references(...(await Promise.all(categoryAndCity(db, categoryId, cityId)))),
    )
    // the same rules failed again, now with the category's and city's errors among them
    return all.ok ? checked : all
  }
  const value = checked.value
  try {
    const result = await retryLostTransaction(() =>
      db.transaction(async (tx): Promise<SubmitResult> => {
        // Writes one submission at a time. A transaction's first public write takes the data
        // version's row lock (migration 0005) until its commit; one that held it while it waited for
        // a slug, tag or dictionary word another submission had just written (and that one waited for
        // the lock) deadlocked. Taken before the first write, this lock only lines submissions up
        // where the version lock already does. The reads and the lock go out together on the
        // transaction's connection: one round trip (under load every round trip waits its turn).
        // A slug read before the lock and taken by the submission that held it: the next attempt,
        // made after the lock, picks another.
        const [existing, firstSlug, , category, city] = await Promise.all([
          existingTags(tx, value.tags),
          freeSlug(tx, events, events.slug, slugifyOr(value.title, 'event')),
          tx.execute(sql`select pg_advisory_xact_lock(${SUBMISSION_LOCK})`),
          ...categoryAndCity(tx, value.categoryId, value.cityId),
        ])
        // the category and city as found (nothing is written on this path)
        const errors = referenceErrors(value.categoryId, value.cityId, references(category, city))
        if (errors.length) return { ok: false, errors }
        const tagIds = await tagIdsFor(tx, value.tags, existing)
        const id = Bun.randomUUIDv7()
        const { slug, version } = await insertEvent(tx, id, value, hooks, firstSlug, tagIds)
        await hooks.afterWrites?.(tx, id)
        return { ok: true, event: { id, title: value.title, slug }, version }
      }),
    )
    return result
  } catch (error) {
    // the category or city was deleted between the check and the insert
    if (sqlState(error) === '23503')
      return { ok: false, errors: [{ field: 'category_id', message: 'Kategori atau kota tidak ditemukan' }] }
    throw error
  }
}
