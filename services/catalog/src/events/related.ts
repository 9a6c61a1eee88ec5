// `related` on the event detail: up to 4 published events that have not ended yet (in their own
// zone) and share the category, the city or a tag. Candidates come from small index-ordered
// reads: the events of the same city + category, of the category, of the city and of each tag,
// the 7 ending soonest of each (index scans; a tag's from event_tag_order, migration 0030). They
// are ranked by what they share with the event (a shared tag and the category weigh 2, the city
// 1), the soonest first among equals.
//
// Each read is one "branch" shared by every event filed under the same category, city or tag, so
// the route keeps branches in its cache (`remember`, with the branch's `rel:*` change keys, which
// a write announces only when it may change the branch's first places: relatedDeps): a detail
// page's miss then costs the event's own query and, mostly, no related query at all. The cost is bounded by the number of tags (at most 10), never by how many events share them.
//
// With the list index (list-index.ts) at the cache's version, the same branches are read from
// memory and PostgreSQL reads only the chosen cards by id: no branch is kept in the cache (the
// branches were 58% of its bytes under the bench's detail scenario, crowding out answers).
import { and, eq, sql, type SQL } from 'drizzle-orm'
import { categories, cities, eventTagOrder, events, type Database, type Db } from '@app/db'
import type { ResponseCache } from '@app/kit'
import { CARD_FIELDS, jsonArray, jsonOf } from './cards'
import { CANDIDATES, RELATED_LIMIT, type IndexView } from './list-index'
import { preparedPerDatabase } from './prepared'
import { cardsOf } from './service'
import { nextDateChange, upcomingParams, upcomingPrepared } from './windows'

/** What `related` is computed from: the event and what it is filed under. */
export interface RelatedTo {
  id: string
  categoryId: string
  categorySlug: string
  cityId: string | null
  citySlug: string | null
  tags: { id: string; slug: string }[]
}

/** A candidate: what ranking needs, and its card. */
interface Candidate {
  id: string
  categoryId: string
  cityId: string | null
  startDate: string
  tagIds: string[]
  card: string
}

interface Branch {
  key: string
  /** the change keys of the branch (relatedDeps) */
  deps: string[]
  read(database: Database, nowMs: number): Promise<Candidate[]>
}

const CARD = jsonOf(CARD_FIELDS)
const candidateColumns = {
  id: events.id,
  categoryId: events.categoryId,
  cityId: events.cityId,
  startDate: events.startDate,
  tagIds: sql<string[]>`array(select et.tag_id from event_tags et where et.event_id = ${events.id})`,
  card: CARD,
}

/**
 * The branch reads, prepared once per database (one more row than kept: the event itself may be
 * among them): building a query's SQL with drizzle on every read was an eighth of a detail miss's
 * CPU in the service (profiled under the bench's detail scenario).
 */
function buildBranchQueries(db: Db) {
  const soonest = (name: string, condition: SQL) =>
    db
      .select(candidateColumns)
      .from(events)
      .innerJoin(categories, eq(categories.id, events.categoryId))
      .leftJoin(cities, eq(cities.id, events.cityId))
      .where(and(eq(events.status, 'published'), upcomingPrepared(), condition))
      .orderBy(events.endDate, events.id)
      .limit(CANDIDATES + 1)
      .prepare(name)
  return {
    category: soonest('related_category', eq(events.categoryId, sql.placeholder('categoryId'))),
    cityCategory: soonest(
      'related_city_category',
      and(eq(events.cityId, sql.placeholder('cityId')), eq(events.categoryId, sql.placeholder('categoryId')))!,
    ),
    city: soonest('related_city', eq(events.cityId, sql.placeholder('cityId'))),
    // the tag's copy (event_tag_order, published events only) in end date order (migration 0030)
    tag: db
      .select(candidateColumns)
      .from(eventTagOrder)
      .innerJoin(events, eq(events.id, eventTagOrder.eventId))
      .innerJoin(categories, eq(categories.id, events.categoryId))
      .leftJoin(cities, eq(cities.id, events.cityId))
      .where(
        and(
          eq(eventTagOrder.tagId, sql.placeholder('tagId')),
          sql`${eventTagOrder.endDate} >= ${sql.placeholder('upcomingFrom')}::date`,
          eq(events.status, 'published'),
          upcomingPrepared(),
        ),
      )
      .orderBy(eventTagOrder.endDate, eventTagOrder.eventId)
      .limit(CANDIDATES + 1)
      .prepare('related_tag'),
  }
}
type BranchQueries = ReturnType<typeof buildBranchQueries>
const branchQueries = preparedPerDatabase(buildBranchQueries)

/** A branch read: one of the prepared queries with the branch's ids and today's dates. */
const read =
  (pick: (queries: BranchQueries) => BranchQueries[keyof BranchQueries], ids: Record<string, string>) =>
  async ({ db }: Database, nowMs: number): Promise<Candidate[]> =>
    pick(branchQueries(db)).execute({ ...ids, ...upcomingParams(nowMs) })

/**
 * The change keys of each branch (migration 0028): a write announces one only when an event it
 * changes may be among that branch's first CANDIDATES + 1, so an approval landing far down a
 * category leaves the details of that category cached.
 */
const branchKeys = (self: Pick<RelatedTo, 'categorySlug' | 'citySlug'>) => ({
  category: `rel:cat:${self.categorySlug}`,
  cityCategory: `rel:citycat:${self.citySlug}:${self.categorySlug}`,
  city: `rel:city:${self.citySlug}`,
  tag: (slug: string) => `rel:tag:${slug}`,
})

/** What a detail's `related` depends on: the change keys of every branch it reads. */
export function relatedDeps(self: RelatedTo): string[] {
  const keys = branchKeys(self)
  return [keys.category, ...(self.cityId ? [keys.cityCategory, keys.city] : []), ...self.tags.map((t) => keys.tag(t.slug))]
}

function branchesOf(self: RelatedTo): Branch[] {
  const keys = branchKeys(self)
  const branches: Branch[] = [
    { key: `related:cat:${self.categoryId}`, deps: [keys.category], read: read((q) => q.category, { categoryId: self.categoryId }) },
  ]
  if (self.cityId) {
    branches.push(
      {
        key: `related:city-cat:${self.cityId}:${self.categoryId}`,
        deps: [keys.cityCategory],
        read: read((q) => q.cityCategory, { cityId: self.cityId, categoryId: self.categoryId }),
      },
      { key: `related:city:${self.cityId}`, deps: [keys.city], read: read((q) => q.city, { cityId: self.cityId }) },
    )
  }
  for (const tag of self.tags)
    branches.push({ key: `related:tag:${tag.id}`, deps: [keys.tag(tag.slug)], read: read((q) => q.tag, { tagId: tag.id }) })
  return branches
}

/**
 * The related events of `self`, as a JSON array of their cards. With `remember` (the route's cache) each
 * branch is read once until a write touches its category, city or tag, or the date changes.
 */
export async function relatedEvents(
  database: Database,
  self: RelatedTo,
  nowMs: number,
  remember?: ResponseCache['remember'],
  index?: () => Promise<IndexView | undefined>,
): Promise<string> {
  const view = await index?.()
  if (view) {
    const ids = view.related({ id: self.id, categoryId: self.categoryId, cityId: self.cityId, tagIds: self.tags.map((t) => t.id) }, nowMs)
    return ids.length ? cardsOf(database, ids) : '[]'
  }
  const expiresAt = nextDateChange(nowMs)
  const lists = await Promise.all(
    branchesOf(self).map((branch) =>
      remember
        ? remember(`${branch.key}@${expiresAt}`, async () => ({
            value: await branch.read(database, nowMs),
            deps: branch.deps,
            expiresAt,
          }))
        : branch.read(database, nowMs),
    ),
  )
  const selfTags = new Set(self.tags.map((t) => t.id))
  const candidates = new Map<string, Candidate & { score: number }>()
  for (const list of lists)
    for (const c of list.filter((c) => c.id !== self.id).slice(0, CANDIDATES)) {
      if (candidates.has(c.id)) continue
      const score =
        (c.categoryId === self.categoryId ? 2 : 0) +
        (self.cityId !== null && c.cityId === self.cityId ? 1 : 0) +
        2 * c.tagIds.filter((t) => selfTags.has(t)).length
      candidates.set(c.id, { ...c, score })
    }
  return jsonArray(
    [...candidates.values()]
      .sort((a, b) => b.score - a.score || a.startDate.localeCompare(b.startDate) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, RELATED_LIMIT)
      .map((c) => c.card),
  )
}
