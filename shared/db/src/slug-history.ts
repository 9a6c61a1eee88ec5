import { sql } from 'drizzle-orm'
import type { Database } from './client'

/**
 * The current slug of the public event or article that once had `oldSlug` (an editor changed
 * it), or null. Read only after the slug itself was not found, so normal reads never pay for it.
 */
export async function findSlugRedirect(database: Database, entity: 'event' | 'news', oldSlug: string): Promise<string | null> {
  const target =
    entity === 'event'
      ? sql`select e.slug from slug_redirects r join events e on e.id = r.target_id
            where r.entity = 'event' and r.old_slug = ${oldSlug} and e.status = 'published'`
      : sql`select n.slug from slug_redirects r join news_articles n on n.id = r.target_id
            where r.entity = 'news' and r.old_slug = ${oldSlug} and n.status = 'published' and n.published_at <= now()`
  const [row] = await database.rows<{ slug: string }>(target)
  return row?.slug ?? null
}
