import { and, eq, sql, type AnyColumn } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { slugifyOr } from './text'
import { slugRedirects, tags } from '@app/db'
import { HttpError } from '@app/kit'
import type { Tx } from './audit/service'

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const SLUG_MAX = 200

/** A slug an editor typed: lower-case letters, digits and single hyphens. */
export function checkSlug(slug: string): string {
  const value = slug.trim()
  if (!SLUG_PATTERN.test(value) || value.length > SLUG_MAX)
    throw new HttpError(400, 'Slug hanya boleh huruf kecil, angka, dan tanda minus (maksimal 200 karakter)', [
      { field: 'slug', message: 'Slug hanya boleh huruf kecil, angka, dan tanda minus (maksimal 200 karakter)' },
    ])
  return value
}

/** `base`, or `base-N` with N one above the highest suffix in use (ignoring the row `exceptId`). */
export async function freeSlug(
  tx: Tx,
  table: PgTable,
  slugColumn: AnyColumn,
  idColumn: AnyColumn,
  base: string,
  exceptId?: string,
) {
  const rows = await tx
    .select({ slug: sql<string>`${slugColumn}` })
    .from(table)
    .where(
      and(
        sql`(${slugColumn} = ${base} or ${slugColumn} ~ ${`^${base}-[0-9]{1,9}$`})`,
        exceptId ? sql`${idColumn} <> ${exceptId}` : undefined,
      ),
    )
  if (!rows.some((r) => r.slug === base)) return base
  const highest = Math.max(1, ...rows.map((r) => (r.slug === base ? 1 : Number(r.slug.slice(base.length + 1)))))
  return `${base}-${highest + 1}`
}

/** 409 when another row already has this slug. */
export async function assertSlugFree(
  tx: Tx,
  table: PgTable,
  slugColumn: AnyColumn,
  idColumn: AnyColumn,
  slug: string,
  exceptId?: string,
) {
  const [taken] = await tx
    .select({ one: sql`1` })
    .from(table)
    .where(and(eq(slugColumn, slug), exceptId ? sql`${idColumn} <> ${exceptId}` : undefined))
    .limit(1)
  if (taken)
    throw new HttpError(409, `Slug "${slug}" sudah dipakai, pilih slug lain`, [
      { field: 'slug', message: `Slug "${slug}" sudah dipakai` },
    ])
}

/** The old slug keeps answering (301) with the new one; the new slug is never a redirect itself. */
export async function recordSlugChange(tx: Tx, entity: 'event' | 'news', targetId: string, oldSlug: string, newSlug: string) {
  await tx.delete(slugRedirects).where(and(eq(slugRedirects.entity, entity), eq(slugRedirects.oldSlug, newSlug)))
  await tx
    .insert(slugRedirects)
    .values({ entity, oldSlug, targetId })
    .onConflictDoUpdate({ target: [slugRedirects.entity, slugRedirects.oldSlug], set: { targetId, createdAt: sql`now()` } })
}

/** The id of the tag named `name` (case-insensitively), created with a free slug when new. */
export async function tagIdFor(tx: Tx, name: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const [found] = await tx
      .select({ id: tags.id })
      .from(tags)
      .where(sql`lower(${tags.name}) = lower(${name})`)
      .limit(1)
    if (found) return found.id
    const slug = await freeSlug(tx, tags, tags.slug, tags.id, slugifyOr(name, 'tag'))
    const [created] = await tx
      .insert(tags)
      .values({ id: Bun.randomUUIDv7(), name, slug })
      .onConflictDoNothing()
      .returning({ id: tags.id })
    if (created) return created.id
    if (attempt >= 5) throw new Error(`could not create tag "${name}"`)
  }
}
