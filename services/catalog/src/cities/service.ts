import { asc, eq, ilike, or, sql } from 'drizzle-orm'
import { cities, containsPattern, type Database } from '@app/db'
import type { PageRequest } from '@app/kit'

export async function listCities({ db }: Database, query: { q?: string }, page: PageRequest) {
  const q = query.q?.trim()
  const where = q ? or(ilike(cities.name, containsPattern(q)), ilike(cities.province, containsPattern(q))) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: cities.id,
        name: cities.name,
        slug: cities.slug,
        province: cities.province,
        image_url: cities.imageUrl,
        time_zone: cities.timeZone,
      })
      .from(cities)
      .where(where)
      .orderBy(asc(cities.name), asc(cities.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(cities)
      .where(where),
  ])
  return { items: rows, total }
}

export async function findCity({ db }: Database, slug: string) {
  const [row] = await db
    .select({
      id: cities.id,
      name: cities.name,
      slug: cities.slug,
      province: cities.province,
      country: cities.country,
      time_zone: cities.timeZone,
    })
    .from(cities)
    .where(eq(cities.slug, slug))
    .limit(1)
  return row ?? null
}
