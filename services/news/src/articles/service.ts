import { and, desc, eq, lte, or, sql, type SQL } from 'drizzle-orm'
import { newsArticles, textSearch, toIsoUtc, type Database } from '@app/db'
import type { PageRequest } from '@app/kit'
import type { NewsListQuery } from './model'

/** Public articles: published, and not scheduled for later. */
const isPublic = and(eq(newsArticles.status, 'published'), lte(newsArticles.publishedAt, sql`now()`))

function listFilter(query: NewsListQuery): SQL {
  const conditions: (SQL | undefined)[] = [isPublic]
  const kategori = query.kategori?.trim()
  if (kategori) conditions.push(sql`lower(${newsArticles.category}) = lower(${kategori})`)
  if (query.featured !== undefined) conditions.push(eq(newsArticles.isFeatured, query.featured === '1'))
  if (query.q) conditions.push(textSearch(newsArticles.searchVector, newsArticles.searchText, query.q) ?? undefined)
  return and(...conditions)!
}

const listColumns = {
  id: newsArticles.id,
  title: newsArticles.title,
  slug: newsArticles.slug,
  excerpt: newsArticles.excerpt,
  coverUrl: newsArticles.coverUrl,
  category: newsArticles.category,
  authorName: newsArticles.authorName,
  publishedAt: newsArticles.publishedAt,
}

type ListRow = { [K in keyof typeof listColumns]: (typeof listColumns)[K]['_']['data'] }

function toListItem(row: ListRow) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    cover_url: row.coverUrl,
    category: row.category,
    author_name: row.authorName,
    published_at: toIsoUtc(row.publishedAt)!,
  }
}

/** One page of public articles, newest first (ties by id), and the total matching the filter. */
export async function listArticles({ db }: Database, query: NewsListQuery, page: PageRequest) {
  const where = listFilter(query)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(newsArticles)
      .where(where)
      .orderBy(desc(newsArticles.publishedAt), desc(newsArticles.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(newsArticles)
      .where(where),
  ])
  return { items: rows.map(toListItem), total }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A public article by slug (or by id when the value is an id); null when unknown, draft or scheduled. */
export async function findPublicArticle({ db }: Database, slugOrId: string) {
  const match = UUID.test(slugOrId)
    ? or(eq(newsArticles.slug, slugOrId), eq(newsArticles.id, slugOrId.toLowerCase()))
    : eq(newsArticles.slug, slugOrId)
  const [row] = await db
    .select({ ...listColumns, content: newsArticles.content })
    .from(newsArticles)
    .where(and(match, isPublic))
    .limit(1)
  if (!row) return null
  return { ...toListItem(row), content: row.content }
}
