import { eq, or, sql, type AnyColumn } from 'drizzle-orm'
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

/** `base`, or `base-N` with N one above the highest suffix in use in `column` of `table`. */
export async function freeSlug(tx: Writer, table: PgTable, column: AnyColumn, base: string): Promise<string> {
  // `base` itself and the `base-...` range, in byte order (an index on slug COLLATE "C" where the
  // table is large, migration 0007): only the slugs sharing this base are read, never every slug
  const rows = await tx
    .select({ slug: sql<string>`${column}` })
    .from(table)
    .where(or(eq(column, base), sql`(${column} collate "C") > ${`${base}-`} and (${column} collate "C") < ${`${base}.`}`))
  if (!rows.some((r) => r.slug === base)) return base
  const suffix = new RegExp(`^${base}-([0-9]{1,9})$`)
  const highest = Math.max(1, ...rows.map((r) => Number(suffix.exec(r.slug)?.[1] ?? 1)))
  return `${base}-${highest + 1}`
}
