import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import { categories, containsPattern, type Database } from '@app/db'
import type { PageRequest } from '@app/kit'

// written out in full: inside a select list drizzle renders a column without its table name
const eventCount = sql<number>`(select count(*)::int from events e where e.category_id = "categories"."id" and e.status = 'published')`

export async function listCategories({ db }: Database, query: { q?: string; active_only?: '0' | '1' }, page: PageRequest) {
  const conditions: (SQL | undefined)[] = []
  if ((query.active_only ?? '1') === '1') conditions.push(eq(categories.isActive, true))
  if (query.q?.trim()) {
    const pattern = containsPattern(query.q.trim())
    conditions.push(or(ilike(categories.name, pattern), ilike(categories.slug, pattern)))
  }
  const where = and(...conditions)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: categories.id,
        name: categories.name,
        slug: categories.slug,
        description: categories.description,
        icon: categories.icon,
        image_url: categories.imageUrl,
        isActive: categories.isActive,
        sort_order: categories.sortOrder,
        event_count: eventCount,
      })
      .from(categories)
      .where(where)
      .orderBy(asc(categories.sortOrder), asc(categories.name), asc(categories.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(categories)
      .where(where),
  ])
  return { items: rows.map(({ isActive, ...r }) => ({ ...r, is_active: isActive ? (1 as const) : (0 as const) })), total }
}

export async function findCategory({ db }: Database, slug: string) {
  const [row] = await db.select().from(categories).where(eq(categories.slug, slug)).limit(1)
  if (!row) return null
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    icon: row.icon,
    is_active: row.isActive ? (1 as const) : (0 as const),
  }
}
