import { and, eq, sql, type AnyColumn } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { slugRedirects } from '@app/db'
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
