// Tags by name, for every writer that attaches them (submissions, the admin's event edits).
import { sql } from 'drizzle-orm'
import { tags } from './schema'
import { freeSlug, slugifyOr, type Writer } from './slug'

const CREATE_ATTEMPTS = 8

/** The tags named `names` that exist (case-insensitively), keyed by their lower-cased name: one query. */
export async function existingTags(tx: Writer, names: string[]): Promise<Map<string, string>> {
  if (!names.length) return new Map()
  // through tags_name_lower_idx (lower(name) = any of the names), never a scan of every tag
  const found = await tx
    .select({ id: tags.id, key: sql<string>`lower(${tags.name})` })
    .from(tags)
    .where(
      sql`lower(${tags.name}) in (${sql.join(
        names.map((name) => sql`lower(${name})`),
        sql`, `,
      )})`,
    )
  return new Map(found.map((t) => [t.key, t.id]))
}

/**
 * The ids of the tags named `names` (case-insensitively): those in `existing` (looked up when not
 * given), the others created with a free slug.
 */
export async function tagIdsFor(tx: Writer, names: string[], existing?: Map<string, string>): Promise<Set<string>> {
  const ids = new Map(existing ?? (await existingTags(tx, names)))
  for (const name of names) if (!ids.has(name.toLowerCase())) ids.set(name.toLowerCase(), await createTag(tx, name))
  return new Set(ids.values())
}

/** A new tag named `name`, or the one of that name another writer created meanwhile. */
async function createTag(tx: Writer, name: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const slug = await freeSlug(tx, tags, tags.slug, slugifyOr(name, 'tag'))
    // DO NOTHING on any unique violation: the same name created meanwhile by another writer
    // (found by the lookup below), or the slug taken (the next attempt picks another)
    const [created] = await tx
      .insert(tags)
      .values({ id: Bun.randomUUIDv7(), name, slug })
      .onConflictDoNothing()
      .returning({ id: tags.id })
    if (created) return created.id
    const [found] = await tx
      .select({ id: tags.id })
      .from(tags)
      .where(sql`lower(${tags.name}) = lower(${name})`)
      .limit(1)
    if (found) return found.id
    if (attempt >= CREATE_ATTEMPTS) throw new Error(`could not create tag "${name}"`)
  }
}
