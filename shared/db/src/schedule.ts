import { sql } from 'drizzle-orm'
import type { Database } from './client'

/**
 * When the next published article becomes visible by itself (published_at in the future), as
 * epoch ms, or null. Cached answers that count or list articles are valid until then.
 */
export async function nextArticlePublication(database: Database): Promise<number | null> {
  const [row] = await database.rows<{ at: string | Date | null }>(
    sql`select min(published_at) as at from news_articles where status = 'published' and published_at > now()`,
  )
  return row?.at ? new Date(row.at).getTime() : null
}
