import { eq, getTableColumns, sql } from 'drizzle-orm'
import {
  categories,
  cities,
  events,
  existingTags,
  freeSlug,
  slugifyOr,
  sqlState,
  tagIdsFor,
  type Database,
  type Db,
  type EventType,
  type Writer,
} from '@app/db'
import { referenceErrors, validateSubmission, type FieldError, type References, type Submission } from '@app/kit'
import type { SubmissionBody } from './model'

export { LIMITS, parseTagNames, sanitizeDescription, validateSubmission, type Submission } from '@app/kit'

export const SUBMITTED_MESSAGE = 'Event berhasil dikirim dan menunggu persetujuan admin sebelum tampil di katalog'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Test seams: called inside the submission's transaction. */
export interface SubmitHooks {
  /**
   * Before each attempt to insert the event row with `slug` (given the writer the insert goes
   * through: the transaction, or the database itself when the submission needs none).
   */
  beforeEventInsert?: (writer: Writer, slug: string, attempt: number) => Promise<void>
  /** After the event, its tags and links are written, just before the commit (in a transaction). */
  afterWrites?: (tx: Tx, eventId: string) => Promise<void>
}

const SLUG_ATTEMPTS = 8
/** The advisory lock key that serialises submissions' writes (any constant unique to this use). */
const SUBMISSION_LOCK = 7_001_011

/** The events columns of a submission by column name (what insert_submitted_event takes). */
function submittedFields(id: string, slug: string, value: Submission): Record<string, unknown> {
  const row: Partial<Record<keyof typeof events.$inferInsert, unknown>> = {
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
 * Inserts the event and its tag links with a unique slug, one statement an attempt
 * (insert_submitted_event, migration 0031): the submissions' lock, the event with ON CONFLICT
 * (slug) DO NOTHING, the links of the event if it is there, and the data version the writes
 * leave. Through the database itself it commits on its own, so no lock is held while the service
 * waits for its event loop's turn (under a read load, tens of ms each). A slug taken meanwhile (by
 * another submission, or an editor in the admin studio) inserts nothing, and the next attempt
 * picks the next free suffix; after a few a random suffix ends the race.
 */
async function insertEvent(
  writer: Writer,
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
          ? await freeSlug(writer, events, events.slug, base)
          : `${base}-${Bun.randomUUIDv7().slice(-8)}`
    await hooks.beforeEventInsert?.(writer, slug, attempt)
    const [written] = await writer
      .select({ id: sql<string | null>`inserted_id`, version: sql<string | number>`version_after` })
      .from(
        sql`insert_submitted_event(${JSON.stringify(submittedFields(id, slug, value))}::jsonb, ${sql.param([...tagIds])}::text[], ${SUBMISSION_LOCK})`,
      )
    if (written?.id) return { slug, version: Number(written.version) }
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
 * Validates and stores a submission as a pending event: the event, any new tags and the
 * event-tag links are all written or none is. Under a read load every round trip waits for a turn
 * of the service's event loop, so a valid submission makes two: the reads (category, city, tags,
 * a free slug; outside any transaction, they lock nothing), then one statement that writes and
 * commits (insertEvent). A submission that names a tag not yet known creates it in a transaction
 * with the rest, under the submissions' lock.
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
  try {
    return await retryLostTransaction(async (): Promise<SubmitResult> => {
      // A slug read here and taken before the insert: the insert's next attempt picks another. A
      // category or city deleted meanwhile: the insert's foreign key refuses it (below).
      const [existing, firstSlug, category, city] = await Promise.all([
        existingTags(db, value.tags),
        freeSlug(db, events, events.slug, slugifyOr(value.title, 'event')),
        ...categoryAndCity(db, value.categoryId, value.cityId),
      ])
      const errors = referenceErrors(value.categoryId, value.cityId, references(category, city))
      if (errors.length) return { ok: false, errors }
      const id = Bun.randomUUIDv7()
      const submitted = (slug: string, version: number): SubmitResult => ({
        ok: true,
        event: { id, title: value.title, slug },
        version,
      })
      if (value.tags.every((name) => existing.has(name.toLowerCase())) && !hooks.afterWrites) {
        const { slug, version } = await insertEvent(db, id, value, hooks, firstSlug, new Set(existing.values()))
        return submitted(slug, version)
      }
      return db.transaction(async (tx) => {
        // A transaction's first public write takes the data version's row lock until its
        // commit: a new tag's insert does, so the submissions' lock comes first (insertEvent
        // takes it again), else two submissions creating the same tag and dictionary words
        // could each wait for the other
        await tx.execute(sql`select pg_advisory_xact_lock(${SUBMISSION_LOCK})`)
        const tagIds = await tagIdsFor(tx, value.tags, existing)
        const { slug, version } = await insertEvent(tx, id, value, hooks, firstSlug, tagIds)
        await hooks.afterWrites?.(tx, id)
        return submitted(slug, version)
      })
    })
  } catch (error) {
    // the category or city was deleted between the check and the insert
    if (sqlState(error) === '23503')
      return { ok: false, errors: [{ field: 'category_id', message: 'Kategori atau kota tidak ditemukan' }] }
    throw error
  }
}
