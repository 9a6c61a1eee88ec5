import { getTableName, sql, type AnyColumn } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './client'

/** Lowercase ASCII kebab-case: accents folded, everything else dropped. */
export function slugify(text: string, maxLength = 80): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' dan ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '')
  return slug || 'item'
}

/** `slugify(text)`, or `fallback` for a text with no Latin letter or digit. */
export function slugifyOr(text: string, fallback: string): string {
  return /[a-z0-9]/i.test(text.normalize('NFKD')) ? slugify(text) : fallback
}

/** What slug and tag writes need of a transaction (or of the database itself). */
export type Writer = Pick<Db, 'select' | 'insert'>

/**
 * `base`, or `base-N` with N one above the highest suffix in use in `column` of `table`: the
 * database's free_slug (migration 0031), which reads only the slugs sharing this base (an index
 * on slug COLLATE "C" where the table is large), never every slug. A submission's statement
 * picks its slug with the same function.
 */
export async function freeSlug(tx: Writer, table: PgTable, column: AnyColumn, base: string): Promise<string> {
  const [row] = await tx
    .select({ slug: sql<string>`free_slug(${getTableName(table)}::regclass, ${column.name}, ${base})` })
    .from(sql`(values (1)) as one (x)`)
  return row.slug
}
