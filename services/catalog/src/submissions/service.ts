import { eq, getTableColumns, sql } from 'drizzle-orm'
import { categories, cities, events, slugifyOr, sqlState, tagIdsFor, type Database, type Db } from '@app/db'
import { referenceErrors, validateSubmission, type FieldError, type References, type Submission } from '@app/kit'
import type { SubmissionBody } from './model'

export { LIMITS, parseTagNames, sanitizeDescription, validateSubmission, type Submission } from '@app/kit'

export const SUBMITTED_MESSAGE = 'Event berhasil dikirim dan menunggu persetujuan admin sebelum tampil di katalog'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Test seam: called inside the submission's transaction. */
export interface SubmitHooks {
  /**
   * After the event, its tags and links are written, just before the commit. Given, the
   * submission runs in a transaction even when it creates no tag.
   */
  afterWrites?: (tx: Tx, eventId: string) => Promise<void>
}

/** The advisory lock key that serialises submissions' writes (any constant unique to this use). */
const SUBMISSION_LOCK = 7_001_011

/** The events columns of a submission by column name, without the slug (what submit_event takes). */
function submittedFields(id: string, value: Submission): Record<string, unknown> {
  const row: Partial<Record<keyof typeof events.$inferInsert, unknown>> = {
    id,
    title: value.title,
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
  }
  const columns = getTableColumns(events)
  // a field left undefined takes the column's default, as in an insert that leaves it out
  return Object.fromEntries(
    Object.entries(row)
      .filter(([, v]) => v !== undefined)
      .map(([key, v]) => [columns[key as keyof typeof columns].name, v]),
  )
}

/**
 * One call of submit_event (migration 0031), one statement: the category, city and tag checks,
 * then under the submissions' lock the event with a free slug, its links, and the data version
 * they leave. Through the database itself it commits on its own, so no lock is held while the
 * service waits for its event loop's turn (under a read load, tens of ms each).
 */
async function writeSubmission(writer: Pick<Db, 'select'>, id: string, value: Submission) {
  const [row] = await writer
    .select({
      id: sql<string | null>`inserted_id`,
      slug: sql<string | null>`inserted_slug`,
      version: sql<string | number | null>`version_after`,
      categoryActive: sql<boolean | null>`category_active`,
      cityFound: sql<boolean>`city_found`,
      tagsKnown: sql<boolean>`tags_known`,
    })
    .from(
      sql`submit_event(${JSON.stringify(submittedFields(id, value))}::jsonb, ${slugifyOr(value.title, 'event')}, ${sql.param(value.tags)}::text[], ${SUBMISSION_LOCK})`,
    )
  const found: References = {
    category: row.categoryActive === null ? undefined : { isActive: row.categoryActive },
    cityFound: row.cityFound,
  }
  const errors = referenceErrors(value.categoryId, value.cityId, found)
  const written = row.id && row.slug ? { slug: row.slug, version: Number(row.version) } : undefined
  // the function's checks and referenceErrors are the same rules: a write with errors, or
  // neither, would mean they have drifted apart
  if (written ? errors.length : !errors.length && row.tagsKnown)
    throw new Error('submit_event and referenceErrors disagree on the category or city')
  return { errors, written }
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

/** The reads of a submission's category and city (for an invalid submission's full list of errors). */
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

/** A refused write inside the transaction: rolls it back (the tags it created go too). */
class Refused extends Error {
  constructor(readonly errors: FieldError[]) {
    super('submission refused')
  }
}

/**
 * Validates and stores a submission as a pending event: the event, any new tags and the
 * event-tag links are all written or none is. Under a read load every round trip waits for a turn
 * of the service's event loop, so a valid submission naming known tags makes one: submit_event
 * checks and writes in one statement that commits on its own (writeSubmission). One naming a tag
 * not yet known (the statement then writes nothing) creates it, and calls submit_event again, in
 * a transaction under the submissions' lock.
 */
export async function submitEvent(database: Database, body: SubmissionBody, hooks: SubmitHooks = {}): Promise<SubmitResult> {
  const { db } = database
  // every rule that needs no database first; an invalid submission still hears of its category
  // and city with the rest (all failures at once)
  const checked = await validateSubmission(body)
  if (!checked.ok) {
    const all = await validateSubmission(body, async (categoryId, cityId) =>
      references(...(await Promise.all(categoryAndCity(db, categoryId, cityId)))),
    )
    // the same rules failed again, now with the category's and city's errors among them
    return all.ok ? checked : all
  }
  const value = checked.value
  const id = Bun.randomUUIDv7()
  const submitted = ({ slug, version }: { slug: string; version: number }): SubmitResult => ({
    ok: true,
    event: { id, title: value.title, slug },
    version,
  })
  try {
    return await retryLostTransaction(async (): Promise<SubmitResult> => {
      if (!hooks.afterWrites) {
        const { errors, written } = await writeSubmission(db, id, value)
        if (errors.length) return { ok: false, errors }
        if (written) return submitted(written)
      }
      return db.transaction(async (tx) => {
        // A transaction's first public write takes the data version's row lock until its
        // commit: a new tag's insert does, so the submissions' lock comes first (submit_event
        // takes it again), else two submissions creating the same tag and dictionary words
        // could each wait for the other
        await tx.execute(sql`select pg_advisory_xact_lock(${SUBMISSION_LOCK})`)
        await tagIdsFor(tx, value.tags)
        const { errors, written } = await writeSubmission(tx, id, value)
        if (errors.length) throw new Refused(errors)
        if (!written) throw new Error("the submission's tags were created and are still unknown")
        await hooks.afterWrites?.(tx, id)
        return submitted(written)
      })
    })
  } catch (error) {
    if (error instanceof Refused) return { ok: false, errors: error.errors }
    // the category or city was deleted between the check and the insert
    if (sqlState(error) === '23503')
      return { ok: false, errors: [{ field: 'category_id', message: 'Kategori atau kota tidak ditemukan' }] }
    throw error
  }
}
